package io.interpreter4j.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.cli.CliProcess;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.PostgresServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batches on the cluster: three {@code i4j serve} nodes with a private PostgreSQL run a batch of 60 tasks (replay
 * cassettes writing a small Python or Bash block each) submitted to one of them, spread over the nodes; the node of
 * the coordinator is killed with SIGKILL mid-way, and the batch goes on to its end through a survivor: every task's
 * result appears exactly once. An invalid task file is refused with its line numbers and starts nothing.
 */
class ClusterBatchTest {
  private static final int TASKS = 60;
  private static final Duration WITHIN = Duration.ofMinutes(3);

  @TempDir Path tmp;
  private ClusterHarness cluster;
  private List<ServeNode> nodes;
  private PostgresServer pg;
  private Api api;

  @AfterEach
  void stopAll() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void aBatchGoesOnWhenItsCoordinatorsNodeIsKilledAndEveryTaskHasOneResult() throws Exception {
    Path work = startNodes("i4j_cluster_batch", 3, null);
    Files.writeString(work.resolve("python.json"), cassette("python", "print(6 * 7)"));
    Files.writeString(work.resolve("bash.json"), cassette("bash", "echo $((6 * 7))"));
    StringBuilder file = new StringBuilder();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < TASKS; i++) {
      String id = "t" + i;
      ids.add(id);
      file.append("{\"id\": \"").append(id).append("\", \"prompt\": \"What is six times seven? (").append(i)
          .append(")\", \"cassette\": \"").append(i % 2 == 0 ? "python.json" : "bash.json").append("\"}\n");
    }

    ServeNode via = nodes.get(2);
    JsonNode accepted = api.json("POST", via.url + "/api/batches?name=failover&parallel=6&yes=true&base_dir="
        + work, file.toString(), 201);
    String batch = accepted.path("id").asText();
    assertEquals(TASKS, accepted.path("total").asInt(), accepted.toString());

    // mid-way: some tasks have results, most do not; the coordinator is known, and tasks run on several nodes
    JsonNode[] seen = new JsonNode[1];
    ClusterHarness.eventually(() -> {
      seen[0] = progress(via, batch);
      assertTrue(seen[0].path("finished").asInt() >= 10 && seen[0].hasNonNull("coordinator"), seen[0].toString());
      return null;
    });
    assertTrue(seen[0].path("finished").asInt() < TASKS - 10, "the batch ran too fast to kill its coordinator "
        + "mid-way: " + seen[0]);
    assertEquals("running", seen[0].path("state").asText(), seen[0].toString());
    Set<String> taskNodes = new HashSet<>();
    for (JsonNode s : api.json("GET", via.url + "/api/sessions", null, 200).path("sessions")) {
      if (s.path("title").asText("").contains("six times seven") || s.path("firstMessage").asText("")
          .contains("six times seven")) {
        taskNodes.add(s.path("node").asText());
      }
    }
    ServeNode lost = nodeOf(seen[0].path("coordinator").asText());
    lost.kill();
    ServeNode survivor = nodes.stream().filter(n -> n != lost).findFirst().orElseThrow();

    JsonNode end = until(() -> progress(survivor, batch), p -> p.path("state").asText().equals("done"));
    assertEquals(TASKS, end.path("finished").asInt(), end.toString());
    assertEquals(TASKS, end.path("counts").path("done").asInt(), end.toString());
    assertEquals(TASKS, end.path("results").asInt(), end.toString());
    assertNotEquals(lost, nodeOf(end.path("coordinator").asText()), "the coordinator runs on a survivor: " + end);

    HttpResponse<String> results = api.send("GET", survivor.url + "/api/batches/" + batch + "/results", null);
    assertEquals(200, results.statusCode(), results.body());
    Map<String, Integer> times = new HashMap<>();
    List<String> lines = results.body().lines().toList();
    for (String line : lines) {
      JsonNode r = EventCodec.mapper().readTree(line);
      times.merge(r.path("id").asText(), 1, Integer::sum);
      assertEquals("done", r.path("status").asText(), line);
      assertEquals(1, r.path("blocks").asInt(), line);
      assertTrue(r.path("final_message").asText().contains("42"), line);
    }
    assertEquals(ids, times.keySet(), "every task has a result");
    times.forEach((id, n) -> assertEquals(1, n, id + " has " + n + " results"));
    assertEquals(TASKS, lines.size());
    // read from the other node, and from a line on: the same lines in the same order
    ServeNode other = nodes.stream().filter(n -> n != lost && n != survivor).findFirst().orElseThrow();
    String tail = api.send("GET", other.url + "/api/batches/" + batch + "/results?from=50", null).body();
    assertEquals(lines.subList(50, TASKS), tail.lines().toList());
    assertTrue(taskNodes.size() >= 2, "tasks ran as sessions on several nodes: " + taskNodes);
    // the list (the dashboard's batches) of any node shows the cluster's batch, done
    JsonNode listed = EventCodec.mapper().readTree(api.send("GET", other.url + "/api/batches", null).body());
    JsonNode mine = null;
    for (JsonNode b : listed.path("batches")) {
      mine = b.path("id").asText().equals(batch) ? b : mine;
    }
    assertNotNull(mine, "GET /api/batches lists the batch: " + listed);
    assertEquals("done", mine.path("state").asText(), mine.toString());
    // in PostgreSQL: one result per task; the tasks that were running on the lost node were dispatched again
    String events = "SELECT count(*) FROM event_journal WHERE persistence_id = 'batch|" + batch + "' AND "
        + "event_ser_manifest LIKE ";
    assertEquals(Integer.toString(TASKS), pg.sql(events + "'%TaskFinished'"));
    int dispatched = Integer.parseInt(pg.sql(events + "'%TaskDispatched'"));
    assertTrue(dispatched > TASKS, "no task ran again after its node was lost: " + dispatched + " dispatches");
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void anInvalidTaskFileIsRefusedWithItsLineNumbersAndStartsNothing() throws Exception {
    Path work = startNodes("i4j_cluster_batch_invalid", 1, null);
    Files.writeString(work.resolve("python.json"), cassette("python", "print(6 * 7)"));
    ServeNode node = nodes.get(0);
    String file = "{\"id\": \"a\", \"prompt\": \"fine\", \"cassette\": \"python.json\"}\n"
        + "{\"id\": \"b\", \"prompt\": \"no such cassette\", \"cassette\": \"missing.json\"}\n"
        + "\n"
        + "{\"id\": \"a\", \"prompt\": \"the same id\", \"cassette\": \"python.json\"}\n"
        + "not json at all\n";
    HttpResponse<String> r = api.send("POST", node.url + "/api/batches?yes=true&base_dir=" + work, file);
    assertEquals(400, r.statusCode(), r.body());
    JsonNode error = EventCodec.mapper().readTree(r.body());
    List<Integer> lines = new ArrayList<>();
    error.path("problems").forEach(p -> lines.add(p.path("line").asInt()));
    assertEquals(List.of(2, 4, 5), lines, r.body());
    assertTrue(error.path("problems").get(0).path("message").asText().contains("missing.json"), r.body());
    assertEquals("0", pg.sql("SELECT count(*) FROM event_journal WHERE persistence_id LIKE 'batch|%'"),
        "nothing of the batch is journaled");
    assertEquals(0, api.json("GET", node.url + "/api/sessions", null, 200).path("sessions").size());

    // the same file with skip_invalid runs its one valid task
    JsonNode accepted = api.json("POST", node.url + "/api/batches?yes=true&skip_invalid=true&base_dir=" + work,
        file, 201);
    assertEquals(1, accepted.path("total").asInt(), accepted.toString());
    assertEquals(3, accepted.path("skipped").size(), accepted.toString());
    String batch = accepted.path("id").asText();
    JsonNode end = until(() -> progress(node, batch), p -> p.path("state").asText().equals("done"));
    assertEquals(1, end.path("counts").path("done").asInt(), end.toString());
    assertNotNull(end.path("coordinator").asText(null), end.toString());

    // i4j batch FILE --server URL: submitted to the cluster's node, followed to its end, results in --out
    Path tasks = work.resolve("tasks.jsonl");
    Files.writeString(tasks, "{\"id\": \"x\", \"prompt\": \"six times seven\", \"cassette\": \"python.json\"}\n"
        + "{\"id\": \"y\", \"prompt\": \"again\", \"cassette\": \"python.json\"}\n");
    Path out = work.resolve("out.jsonl");
    Path client = Files.createDirectories(tmp.resolve("client"));
    CliProcess.Result r2 = CliProcess.finish(CliProcess.start(work, client, client, Map.of("I4J_TOKEN",
        ClusterHarness.TOKEN), "batch", tasks.toString(), "--server", node.url, "-y", "--out", out.toString()),
        null, WITHIN);
    assertEquals(0, r2.exit(), r2.stdout() + r2.stderr());
    List<String> got = Files.readAllLines(out);
    assertEquals(2, got.size(), got.toString());
    assertTrue(got.stream().allMatch(l -> l.contains("\"status\":\"done\"")), got.toString());
    // a task that ends other than done: exit 1, as a local batch
    Files.writeString(tasks, "{\"id\": \"z\", \"prompt\": \"no code\", \"cassette\": \"python.json\"}\n");
    CliProcess.Result r3 = CliProcess.finish(CliProcess.start(work, client, client, Map.of("I4J_TOKEN",
        ClusterHarness.TOKEN), "batch", tasks.toString(), "--server", node.url, "--out",
        work.resolve("out2.jsonl").toString()), null, WITHIN);
    assertEquals(1, r3.exit(), "without -y the block cannot run: the task ends blocked; " + r3.stdout() + r3.stderr());
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void theTasksOfANodeLeavingOnSigtermRunAgainOnAnotherAndEndDone() throws Exception {
    Path work = startNodes("i4j_cluster_batch_leave", 2, "interpreter4j.cluster.leave-grace = 1s\n");
    // slower tasks (about 5 s each): the leaving node is still running the one seen below when it gets SIGTERM
    Files.writeString(work.resolve("python.json"), cassette("python", "print(6 * 7)", 250));
    StringBuilder file = new StringBuilder();
    int tasks = 20;
    for (int i = 0; i < tasks; i++) {
      file.append("{\"id\": \"t").append(i).append("\", \"prompt\": \"What is six times seven?\", "
          + "\"cassette\": \"python.json\"}\n");
    }
    // a leave-grace of 1 s: a task still running then would be interrupted, and end error, if it were not stopped
    // and run again elsewhere
    ServeNode stays = nodes.get(0);
    ServeNode leaves = nodes.get(1);
    String batch = api.json("POST", stays.url + "/api/batches?parallel=4&yes=true&base_dir=" + work,
        file.toString(), 201).path("id").asText();
    // the progress's task list names the node each task was sent to; that node's own session list says whether the
    // task's session is there and its model still streaming (about 5 s): SIGTERM then. The coordinator's "running"
    // alone is not enough: a task just sent may not have reached the worker yet, one just ended may be being kept.
    ClusterHarness.eventually(() -> {
      JsonNode p = progress(stays, batch);
      Set<String> sent = new HashSet<>();
      for (JsonNode t : p.path("tasks")) {
        if (t.path("status").asText().equals("running") && t.path("node").asText().equals(cluster.address(1))) {
          sent.add(t.path("session").asText());
        }
      }
      boolean streaming = false;
      for (JsonNode s : api.json("GET", leaves.url + "/api/sessions", null, 200).path("sessions")) {
        streaming |= sent.contains(s.path("id").asText()) && s.path("status").asText().equals("streaming");
      }
      assertTrue(p.path("finished").asInt() >= 2 && streaming, p.toString());
      return null;
    });
    assertEquals(0, leaves.terminate(), leaves.log());
    String said = leaves.log();
    assertTrue(said.matches("(?s).*i4j: leaving the cluster: \\d batch tasks? stopped, to run again on another "
        + "node.*"), said);
    assertFalse(said.contains("interrupting"), "no turn was left to interrupt: " + said);

    JsonNode end = until(() -> progress(stays, batch), p -> p.path("state").asText().equals("done"));
    assertEquals(tasks, end.path("counts").path("done").asInt(), "every task done, none interrupted: " + end);
    List<String> lines = api.send("GET", stays.url + "/api/batches/" + batch + "/results", null).body().lines()
        .toList();
    assertEquals(tasks, lines.size());
    assertEquals(tasks, lines.stream().map(l -> l.replaceAll(".*\"id\":\"(t\\d+)\".*", "$1")).distinct().count());
  }

  /** Starts PostgreSQL and {@code n} nodes; returns their working folder (where the cassettes go). */
  private Path startNodes(String database, int n, String configFile) throws Exception {
    cluster = ClusterHarness.start(tmp, database, n, configFile);
    nodes = cluster.nodes;
    pg = cluster.pg;
    api = cluster.api;
    return cluster.work;
  }

  private JsonNode progress(ServeNode node, String batch) throws Exception {
    return api.json("GET", node.url + "/api/batches/" + batch, null, 200);
  }

  private ServeNode nodeOf(String address) {
    return nodes.stream().filter(n -> address.endsWith(":" + n.clusterPort)).findFirst()
        .orElseThrow(() -> new AssertionError("no node at " + address));
  }

  private interface Read {
    JsonNode get() throws Exception;
  }

  /** Reads until {@code done} holds, for at most {@link #WITHIN}; a node that does not answer yet is asked again. */
  private static JsonNode until(Read read, java.util.function.Predicate<JsonNode> done) throws Exception {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    JsonNode last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = read.get();
        if (done.test(last)) {
          return last;
        }
      } catch (AssertionError | java.io.IOException e) {
        last = null; // a node answering 503 or 500 while the cluster recovers
      }
      TimeUnit.MILLISECONDS.sleep(250);
    }
    throw new AssertionError("not reached within " + WITHIN + "; last: " + last);
  }

  /** A task's model: a short block in {@code language}, then an answer without code; streamed slowly. */
  private static String cassette(String language, String code) {
    return cassette(language, code, 60);
  }

  /** @param delayMs between the replies' 4-character chunks */
  private static String cassette(String language, String code, int delayMs) {
    return "{\"turns\": ["
        + "{\"reply\": \"Working it out.\\n\\n```" + language + "\\n" + code + "\\n```\\n\", \"chunk_chars\": 4, "
        + "\"delay_ms\": " + delayMs + "},"
        + "{\"reply\": \"Six times seven is 42.\", \"chunk_chars\": 4, \"delay_ms\": " + delayMs + "}]}";
  }
}
