package io.interpreter4j.cluster.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.cluster.boot.ClusterSettings;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.PostgresServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A batch's journal on a one-node cluster with a private PostgreSQL: the submission kept once, dispatches, a task's
 * result kept once however often it is reported, results read in the order they were kept, and what is in
 * PostgreSQL.
 */
class BatchLogTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private PostgresServer pg;
  private ClusterNode<Void> node;

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.system().terminate();
      node.system().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void keepsEachTaskResultOnceInTheOrderTheyCame() throws Exception {
    pg = PostgresServer.start("i4j_batch_log");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    node = ClusterNode.start(new ClusterSettings("127.0.0.1", port, List.of("127.0.0.1:" + port), pg.jdbcUrl(),
        pg.user(), "", Duration.ofSeconds(30)), ConfigFactory.load(), Behaviors.empty(), false);
    ActorRef<ShardingEnvelope<BatchLog.Command>> logs = BatchLog.init(node.system());
    TestProbe<Done> done = TestProbe.create(node.system());
    BatchSpec spec = new BatchSpec("nightly", new BatchSpec.Options(2, true, false, 60_000, "replay:/x.json"),
        List.of(task("a"), task("b"), task("c")), System.currentTimeMillis());

    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.Submit(spec, done.ref())));
    done.expectMessage(WAIT, Done.getInstance());
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.Submit(spec, done.ref()))); // a resend
    done.expectMessage(WAIT, Done.getInstance());
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.RecordDispatch("b", 1, "node-1", "s-b1", done.ref())));
    done.expectMessage(WAIT, Done.getInstance());
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.RecordDispatch("a", 1, "node-2", "s-a1", done.ref())));
    done.expectMessage(WAIT, Done.getInstance());
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.RecordDispatch("c", 1, "node-2", "s-c1", done.ref())));
    done.expectMessage(WAIT, Done.getInstance());
    String first = result("b", TaskStatus.DONE, "s-b1");
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.RecordResult("b", 1, "node-1", first, done.ref())));
    done.expectMessage(WAIT, Done.getInstance());
    // task b ran again (its node was thought lost) and reports too: acknowledged, not kept
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.RecordResult("b", 2, "node-3",
        result("b", TaskStatus.TIMEOUT, "s-b2"), done.ref())));
    done.expectMessage(WAIT, Done.getInstance());
    String second = result("a", TaskStatus.FAILED, "s-a1");
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.RecordResult("a", 1, "node-2", second, done.ref())));
    done.expectMessage(WAIT, Done.getInstance());

    TestProbe<BatchLog.Results> results = TestProbe.create(node.system());
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.GetResults(0, results.ref())));
    assertEquals(new BatchLog.Results(true, List.of(first, second)), results.expectMessageClass(
        BatchLog.Results.class, WAIT));
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.GetResults(1, results.ref())));
    assertEquals(List.of(second), results.expectMessageClass(BatchLog.Results.class, WAIT).lines());

    TestProbe<BatchLog.Snapshot> snapshots = TestProbe.create(node.system());
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.GetSnapshot(snapshots.ref())));
    BatchLog.Snapshot snapshot = snapshots.expectMessageClass(BatchLog.Snapshot.class, WAIT);
    assertEquals(spec, snapshot.spec());
    assertEquals(List.of("b", "a"), snapshot.finished());
    assertEquals(Map.of("a", 1, "b", 1, "c", 1), snapshot.attempts());
    assertEquals("node-2", snapshot.nodes().get("c"));

    TestProbe<BatchLog.ProgressJson> progress = TestProbe.create(node.system());
    logs.tell(new ShardingEnvelope<>("b1", new BatchLog.GetProgress(progress.ref())));
    JsonNode p = EventCodec.mapper().readTree(progress.expectMessageClass(BatchLog.ProgressJson.class, WAIT).json());
    assertEquals("running", p.path("state").asText());
    assertEquals(2, p.path("finished").asInt());
    assertEquals(1, p.path("running").asInt());
    assertEquals(1, p.path("counts").path("done").asInt());
    assertEquals(1, p.path("counts").path("failed").asInt());
    // the tasks as the dashboard lists them: b's kept result (not its second run's), a failed, c running
    List<String> tasks = new ArrayList<>();
    p.path("tasks").forEach(t -> tasks.add(t.path("id").asText() + " " + t.path("status").asText() + " "
        + t.path("session").asText() + " " + t.path("node").asText()));
    assertEquals(List.of("a failed s-a1 node-2", "b done s-b1 node-1", "c running s-c1 node-2"), tasks, p.toString());
    assertEquals(0, p.path("tasks_omitted").asInt());

    // what PostgreSQL holds: the submission once, three dispatches, two results; read back as written
    List<EventEnvelope> events = node.reads().currentEventsByPersistenceId(BatchLog.persistenceId("b1").id(), 0,
        Long.MAX_VALUE).runWith(Sink.seq(), node.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(List.of("Submitted", "TaskDispatched", "TaskDispatched", "TaskDispatched", "TaskFinished",
        "TaskFinished"), events.stream().map(e -> e.event().getClass().getSimpleName()).toList());
    assertEquals(spec, ((BatchLog.Submitted) events.get(0).event()).spec());

    // an unknown batch
    logs.tell(new ShardingEnvelope<>("nope", new BatchLog.GetResults(0, results.ref())));
    assertFalse(results.expectMessageClass(BatchLog.Results.class, WAIT).known());
    logs.tell(new ShardingEnvelope<>("nope", new BatchLog.GetProgress(progress.ref())));
    assertNull(progress.expectMessageClass(BatchLog.ProgressJson.class, WAIT).json());
  }

  private static BatchSpec.TaskSpec task(String id) {
    return new BatchSpec.TaskSpec(id, 1, "prompt " + id, null, "/tmp", 30_000L, 3, null);
  }

  private static String result(String id, TaskStatus status, String session) {
    return new TaskResult(id, status, session, 1, 1, 0, 1200, 10, 5, "answer", null).toJsonLine();
  }
}
