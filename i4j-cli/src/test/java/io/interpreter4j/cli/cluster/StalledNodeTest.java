package io.interpreter4j.cli.cluster;

import static io.interpreter4j.cli.cluster.Api.type;
import static io.interpreter4j.cli.cluster.ClusterHarness.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.testing.PostgresServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code i4j serve} nodes with a private PostgreSQL journal; the node running a session's turn is stopped with
 * SIGSTOP for 30 s. The others' Split Brain Resolver downs it, the session is taken over by a survivor and answers
 * there; when the stalled node runs again it finds itself downed and exits, and nothing it wrote after the session
 * moved reached the journal: the session never ran on two nodes at once.
 */
class StalledNodeTest {
  private static final Duration WITHIN = ClusterHarness.WITHIN;
  private static final Duration STALL = Duration.ofSeconds(30);

  @TempDir Path tmp;
  private ClusterHarness cluster;
  private Api api;
  private ServeNode stalled;

  @AfterEach
  void stopAll() throws Exception {
    if (stalled != null && stalled.process.isAlive()) {
      signal("CONT", stalled); // a stopped process cannot act on SIGTERM
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void aStalledNodeIsDownedAndItsSessionRunsOnOneNodeOnly() throws Exception {
    cluster = ClusterHarness.start(tmp, "i4j_stall", 3, null);
    api = cluster.api;
    PostgresServer pg = cluster.pg;
    Path slow = cluster.work.resolve("slow.json");
    // streams for about 40 s: the turn is still under way on the stalled node when it runs again
    Files.writeString(slow, "{\"turns\": [{\"reply\": \"" + "x".repeat(400) + "\", \"chunk_chars\": 1, \"delay_ms\": "
        + "100}]}");
    ServeNode a = cluster.node(0);
    ServeNode b = cluster.node(1);
    stalled = cluster.node(2);
    String stalledAddress = cluster.address(2);

    String id = api.json("POST", stalled.url + "/api/sessions", "{\"message\": \"take your time\", \"model\": "
        + "\"replay:" + slow + "\", \"autoRun\": true}", 201).path("id").asText();
    List<Api.Sse> before = api.events(a.url, id, null,
        seen -> seen.stream().anyMatch(e -> type(e).equals("assistant_delta")), WITHIN);

    long stoppedAt = System.nanoTime();
    signal("STOP", stalled);
    eventually(() -> { // downed by the resolver of the majority, then removed
      JsonNode members = api.json("GET", a.url + "/api/cluster", null, 200);
      for (JsonNode m : members.path("members")) {
        assertFalse(m.path("address").asText().equals(stalledAddress), "still a member: " + members);
      }
      return null;
    });
    eventually(() -> {
      HttpResponse<String> r = api.send("POST", b.url + "/api/sessions/" + id + "/messages", "{\"text\": \"again\"}");
      assertEquals(202, r.statusCode(), r.body());
      return null;
    });
    long last = before.get(before.size() - 1).id();
    List<Api.Sse> after = api.events(b.url, id, last, StalledNodeTest::answering, WITHIN);

    // the stall lasts its 30 s (the node cannot end while stopped), then the node runs again
    long left = STALL.toNanos() - (System.nanoTime() - stoppedAt);
    assertFalse(stalled.process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS), "a stopped node ended");
    signal("CONT", stalled);
    assertTrue(stalled.process.waitFor(60, TimeUnit.SECONDS), "the downed node did not exit once it ran again: "
        + stalled.log());

    // in the journal, after the session moved, no event written by the stalled node
    String rows = pg.sql("SELECT event_ser_manifest || ' ' || convert_from(event_payload, 'UTF8') FROM event_journal "
        + "WHERE persistence_id = 'session|" + id + "' ORDER BY sequence_number");
    boolean moved = false;
    for (String row : rows.split("\n")) {
      if (row.contains("SessionLog$Moved")) {
        moved = true;
        assertFalse(row.contains(stalledAddress), "moved back to the stalled node: " + row);
      } else if (moved && row.contains("SessionLog$EventRecorded")) {
        assertFalse(row.contains("\"home\":\"" + stalledAddress + "\""), "written by the stalled node after the "
            + "session moved: " + row);
      }
    }
    assertTrue(moved, "the session moved to a survivor: " + rows);
    Set<Long> ids = new HashSet<>();
    for (Api.Sse e : api.events(b.url, id, null, StalledNodeTest::answering, WITHIN)) {
      assertTrue(ids.add(e.id()), "event id " + e.id() + " given twice");
    }
    assertTrue(after.stream().anyMatch(e -> type(e).equals("user_message")), Api.types(after).toString());
  }

  /** The survivor's model answers the message "again". */
  private static boolean answering(List<Api.Sse> seen) {
    boolean asked = false;
    for (Api.Sse e : seen) {
      if (type(e).equals("user_message") && e.event().path("text").asText().equals("again")) {
        asked = true;
      } else if (asked && type(e).equals("assistant_delta")) {
        return true;
      }
    }
    return false;
  }

  private static void signal(String name, ServeNode node) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(node.process.pid())).inheritIO().start();
    assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + name + " failed");
  }
}
