package io.interpreter4j.cluster.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.cluster.boot.ClusterSettings;
import io.interpreter4j.core.testing.PostgresServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes on 127.0.0.1 and a private PostgreSQL: this JVM is one node, two more run in JVMs of their own. Session
 * journals are written through one node and read from another; then the node holding one of them is killed with
 * SIGKILL, the resolver downs it, and the journal answers from a survivor with every event written before the loss,
 * takes the next one, and journals a resent one only once.
 */
class SessionLogFailoverTest {
  private static final Duration ASK = Duration.ofSeconds(5);

  @TempDir Path tmp;
  private PostgresServer pg;
  private ClusterNode<Void> here;
  private final List<Process> children = new ArrayList<>();

  @AfterEach
  void stopAll() throws Exception {
    // this node leaves first, while the others can still hear it go (else its shutdown waits for them in vain)
    if (here != null) {
      here.system().terminate();
      here.system().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    children.forEach(Process::destroyForcibly);
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aJournalOutlivesTheNodeThatHeldIt() throws Exception {
    pg = PostgresServer.start("i4j_failover");
    int[] ports = {freePort(), freePort(), freePort()};
    String seeds = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1] + ",127.0.0.1:" + ports[2];
    here = ClusterNode.start(new ClusterSettings("127.0.0.1", ports[0], List.of(seeds.split(",")), pg.jdbcUrl(),
        pg.user(), "", Duration.ofSeconds(30)), ConfigFactory.load(), Behaviors.empty(), false);
    Process b = startNode(ports[1], seeds);
    Process c = startNode(ports[2], seeds);
    awaitLine(b, "up");
    awaitLine(c, "up");
    ActorSystem<Void> system = here.system();
    awaitUpMembers(system, 3);

    // 9 sessions' journals, 5 events each, written through this node: they are spread over the three nodes
    Map<String, String> holder = new HashMap<>();
    for (int s = 1; s <= 9; s++) {
      String id = "s-" + s;
      for (long seq = 1; seq <= 5; seq++) {
        SessionLog.Appended a = append(id, seq * 2, "{\"n\":" + seq + "}");
        assertEquals(seq, a.journalSeq(), id + " event " + seq);
      }
      holder.put(id, last(id).node());
    }
    String victimAddress = "pekko://i4j@127.0.0.1:" + ports[1];
    String onVictim = holder.entrySet().stream().filter(e -> e.getValue().equals(victimAddress))
        .map(Map.Entry::getKey).findFirst().orElse(null);
    assertTrue(onVictim != null, "no journal landed on " + victimAddress + ": " + holder);

    // read straight from PostgreSQL on this node: the events and their journal sequence numbers
    List<EventEnvelope> read = here.reads().currentEventsByPersistenceId(
            SessionLog.persistenceId(onVictim).id(), 0, Long.MAX_VALUE)
        .runWith(Sink.seq(), system).toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), read.stream().map(EventEnvelope::sequenceNr).toList());
    assertEquals("{\"n\":3}", ((SessionLog.EventRecorded) read.get(2).event()).json());

    b.destroyForcibly(); // SIGKILL: no leaving, no hand-over
    b.waitFor(30, TimeUnit.SECONDS);

    // within the resolver's decision and the hand-over, the journal answers from a survivor with all 5 events
    SessionLog.Last after = awaitLast(onVictim, Duration.ofSeconds(60));
    assertEquals(10, after.seq());
    assertEquals(5, after.journalSeq());
    assertNotEquals(victimAddress, after.node());
    assertEquals(-1, append(onVictim, 10, "{\"n\":5}").journalSeq(), "a resent event is not journaled twice");
    assertEquals(6, append(onVictim, 12, "{\"n\":6}").journalSeq());
  }

  private SessionLog.Appended append(String id, long seq, String json) throws Exception {
    return AskPattern.<ShardingEnvelope<SessionLog.Command>, SessionLog.Appended>ask(here.journals(),
            replyTo -> new ShardingEnvelope<>(id, new SessionLog.Append(seq, json, "pekko://i4j@writer:1", replyTo)), ASK,
            here.system().scheduler())
        .toCompletableFuture().get(ASK.toSeconds() + 1, TimeUnit.SECONDS);
  }

  private SessionLog.Last last(String id) throws Exception {
    return AskPattern.<ShardingEnvelope<SessionLog.Command>, SessionLog.Last>ask(here.journals(),
            replyTo -> new ShardingEnvelope<>(id, new SessionLog.GetLast(replyTo)), ASK, here.system().scheduler())
        .toCompletableFuture().get(ASK.toSeconds() + 1, TimeUnit.SECONDS);
  }

  /** Asks again after each unanswered ask (the region buffers while the shard moves) until {@code within}. */
  private SessionLog.Last awaitLast(String id, Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    Exception lastFailure = null;
    while (System.nanoTime() < deadline) {
      try {
        return last(id);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        lastFailure = e;
      }
    }
    throw new AssertionError("the journal of " + id + " did not answer within " + within, lastFailure);
  }

  private static void awaitUpMembers(ActorSystem<?> system, int n) throws Exception {
    CompletableFuture<Void> up = new CompletableFuture<>();
    org.apache.pekko.cluster.Cluster.get(Adapter.toClassic(system)).registerOnMemberUp(() -> up.complete(null));
    up.get(60, TimeUnit.SECONDS);
    TestProbe.<Void>create(system).awaitAssert(Duration.ofSeconds(60),
        () -> {
          long upMembers = java.util.stream.StreamSupport.stream(
                  Cluster.get(system).state().getMembers().spliterator(), false)
              .filter(m -> m.status() == MemberStatus.up()).count();
          assertEquals(n, upMembers);
          return null;
        });
  }

  private Process startNode(int port, String seeds) throws IOException {
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), NodeMain.class.getName(),
        Integer.toString(port), seeds, pg.jdbcUrl(), pg.user());
    Process p = new ProcessBuilder(command)
        .redirectError(tmp.resolve("node-" + port + ".err").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    children.add(p);
    return p;
  }

  /** Reads the child's stdout until {@code line}; fails if the child ends first or nothing comes within a minute. */
  private static void awaitLine(Process p, String line) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Boolean> seen = CompletableFuture.supplyAsync(() -> {
      try {
        for (String l = out.readLine(); l != null; l = out.readLine()) {
          if (l.equals(line)) {
            return true;
          }
        }
        return false;
      } catch (IOException e) {
        return false;
      }
    });
    assertTrue(seen.get(90, TimeUnit.SECONDS), "the node ended before saying '" + line + "'");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
