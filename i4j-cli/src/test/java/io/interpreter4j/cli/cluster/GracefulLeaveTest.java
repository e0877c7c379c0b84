package io.interpreter4j.cli.cluster;

import static io.interpreter4j.cli.cluster.Api.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code i4j serve} nodes with a private PostgreSQL journal; one of them gets SIGTERM while it runs two
 * sessions, one streaming a turn, one idle. The node gives the running turn its leave-grace (1 s here), interrupts
 * it, writes its last events to PostgreSQL, hands both sessions to the other node and exits 0. Right after it exited,
 * the other node lists both sessions as its own, live, with every event kept; they answer their next message there
 * at the first try, and an event stream resumed there by {@code Last-Event-ID} has no gap and no duplicate.
 */
class GracefulLeaveTest {
  private static final Duration WITHIN = ClusterHarness.WITHIN;

  @TempDir Path tmp;
  private ClusterHarness cluster;

  @AfterEach
  void stopAll() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aLeavingNodeHandsItsSessionsToTheOtherBeforeItExits() throws Exception {
    cluster = ClusterHarness.start(tmp, "i4j_leave", 2, "interpreter4j.cluster.leave-grace = 1s\n");
    Api api = cluster.api;
    Path slow = cluster.work.resolve("slow.json");
    // each turn streams for about 6 s, far past the leave-grace of 1 s (the session handed over replays from the start)
    Files.writeString(slow, "{\"turns\": [{\"reply\": \"" + "x".repeat(60) + "\", \"chunk_chars\": 1, \"delay_ms\": "
        + "100}]}");
    Path fast = cluster.work.resolve("fast.json");
    Files.writeString(fast, "{\"turns\": [{\"reply\": \"Quick.\", \"chunk_chars\": 4, \"delay_ms\": 5}, "
        + "{\"reply\": \"Quick again.\", \"chunk_chars\": 4, \"delay_ms\": 5}]}");
    ServeNode stays = cluster.node(0);
    ServeNode leaves = cluster.node(1);

    String idle = cluster.create(leaves, fast, "be quick");
    String running = cluster.create(leaves, slow, "take your time");
    Map<String, List<Api.Sse>> before = new HashMap<>();
    before.put(idle, api.events(stays.url, idle, null, turnEnded(), WITHIN));
    before.put(running, api.events(stays.url, running, null,
        seen -> seen.stream().anyMatch(e -> type(e).equals("assistant_delta")), WITHIN));

    assertEquals(0, leaves.terminate(), leaves.log());
    String log = leaves.log();
    assertTrue(log.contains("i4j: leaving the cluster: 1 turn running, waiting up to 1 s"), log);
    assertTrue(log.contains("i4j: interrupting 1 turn still running"), log);
    assertTrue(log.contains("i4j: handing 2 sessions over to " + cluster.address(0)), log);
    assertTrue(log.contains("i4j: handed 2 sessions over"), log);
    String journaled = cluster.pg.sql("SELECT count(*) FROM event_journal WHERE persistence_id = 'session|" + running
        + "' AND convert_from(event_payload, 'UTF8') LIKE '%turn_finished%interrupted%'");
    assertEquals("1", journaled, "the interrupted turn's end is in PostgreSQL");

    // right after the leaver exited, not on demand: both sessions run on the other node, listed as its own
    Map<String, JsonNode> listed = new HashMap<>();
    for (JsonNode s : api.json("GET", stays.url + "/api/sessions", null, 200).path("sessions")) {
      listed.put(s.path("id").asText(), s);
    }
    for (String id : List.of(idle, running)) {
      JsonNode s = listed.get(id);
      assertTrue(s != null, id + " not listed: " + listed.keySet());
      assertEquals(cluster.address(0), s.path("node").asText(), s.toString());
      assertFalse(s.path("stopped").asBoolean(true), "live on the other node: " + s);
      assertKept(api, stays, id, before.get(id));
    }

    for (String id : List.of(idle, running)) {
      HttpResponse<String> r = api.send("POST", stays.url + "/api/sessions/" + id + "/messages",
          "{\"text\": \"again\"}");
      assertEquals(202, r.statusCode(), id + ": " + r.body());
    }
    for (String id : List.of(idle, running)) {
      long last = before.get(id).get(before.get(id).size() - 1).id();
      List<Api.Sse> after = api.events(stays.url, id, last, Api::answeredAgain, WITHIN);
      List<Long> ids = after.stream().map(Api.Sse::id).toList();
      assertTrue(ids.get(0) > last, id + ": an event at or before Last-Event-ID " + last + ": " + ids);
      for (int i = 1; i < ids.size(); i++) {
        assertTrue(ids.get(i) > ids.get(i - 1), id + ": ids out of order or repeated: " + ids);
      }
      JsonNode moved = after.stream().map(Api.Sse::event).filter(e -> e.path("type").asText().equals("error"))
          .findFirst().orElseThrow(() -> new AssertionError(id + ": no error event saying it moved: "
              + Api.types(after)));
      assertTrue(moved.path("message").asText().contains("left the cluster"), moved.toString());
      assertTrue(after.stream().map(Api.Sse::event).anyMatch(e -> e.path("type").asText().equals("conversation")
          && e.path("source").asText().equals("node left")), id + ": the model is given its conversation again "
          + "with the note that its interpreters restarted: " + Api.types(after));
      if (id.equals(running)) {
        JsonNode interrupted = after.stream().map(Api.Sse::event)
            .filter(e -> e.path("type").asText().equals("turn_finished")).findFirst().orElseThrow();
        assertEquals("interrupted", interrupted.path("status").asText(), interrupted.toString());
      }
    }
  }

  /** Every event streamed before the leave (but deltas, which the file journal keeps none of) is in the transcript. */
  private static void assertKept(Api api, ServeNode via, String id, List<Api.Sse> before) throws Exception {
    Set<Long> journaled = new HashSet<>();
    for (JsonNode e : api.json("GET", via.url + "/api/sessions/" + id + "?limit=500", null, 200).path("events")) {
      journaled.add(e.path("seq").asLong());
    }
    for (Api.Sse e : before) {
      if (!type(e).equals("assistant_delta")) {
        assertTrue(journaled.contains(e.id()), id + ": event " + e.id() + " (" + type(e) + ") lost");
      }
    }
  }

  private static Predicate<List<Api.Sse>> turnEnded() {
    return seen -> seen.stream().anyMatch(e -> type(e).equals("turn_finished"));
  }
}
