package io.interpreter4j.cli.cluster;

import static io.interpreter4j.cli.cluster.ClusterFailoverTest.eventually;
import static io.interpreter4j.cli.cluster.ClusterFailoverTest.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.testing.PostgresServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code i4j serve} nodes with a private PostgreSQL journal; a session's turn is running on one of them when it
 * gets SIGTERM. The node gives the turn its leave-grace (1 s here), interrupts it, writes its last events to
 * PostgreSQL and exits 0; the session then answers from the other node, with the interrupted turn in its journal.
 */
class GracefulLeaveTest {
  private static final String TOKEN = "cluster-test-token-0123456789abcdef";
  private static final Duration WITHIN = Duration.ofSeconds(90);

  @TempDir Path tmp;
  private PostgresServer pg;
  private final List<ServeNode> nodes = new ArrayList<>();
  private final Api api = new Api(TOKEN);

  @AfterEach
  void stopAll() throws Exception {
    for (ServeNode n : nodes) {
      n.close();
    }
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aLeavingNodeInterruptsItsRunningTurnAfterTheGraceAndItsSessionAnswersFromTheOther() throws Exception {
    pg = PostgresServer.start("i4j_leave");
    Path work = Files.createDirectories(tmp.resolve("work"));
    Path slow = work.resolve("slow.json");
    // each turn streams for about 6 s, far past the leave-grace of 1 s (the session taken over replays from the start)
    Files.writeString(slow, "{\"turns\": [{\"reply\": \"" + "x".repeat(60) + "\", \"chunk_chars\": 1, \"delay_ms\": "
        + "100}]}");
    int[] ports = {freePort(), freePort()};
    String seeds = "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1];
    String config = "interpreter4j.cluster.leave-grace = 1s\n";
    for (int i = 0; i < 2; i++) {
      nodes.add(ServeNode.start(Files.createDirectories(tmp.resolve("node" + i)), work, ports[i], seeds,
          pg.jdbcUrl(), pg.user(), TOKEN, config));
    }
    ServeNode stays = nodes.get(0);
    ServeNode leaves = nodes.get(1);
    eventually(() -> {
      JsonNode cluster = api.json("GET", stays.url + "/api/cluster", null, 200);
      int up = 0;
      for (JsonNode m : cluster.path("members")) {
        up += m.path("status").asText().equals("Up") && m.hasNonNull("url") ? 1 : 0;
      }
      assertEquals(2, up, cluster.toString());
      return null;
    });

    String id = api.json("POST", leaves.url + "/api/sessions", "{\"message\": \"take your time\", \"model\": "
        + "\"replay:" + slow + "\", \"autoRun\": true}", 201).path("id").asText();
    List<Api.Sse> before = api.events(stays.url, id, null,
        seen -> seen.stream().anyMatch(e -> type(e).equals("assistant_delta")), WITHIN);

    assertEquals(0, leaves.terminate(), leaves.log());
    String log = leaves.log();
    assertTrue(log.contains("i4j: leaving the cluster: 1 turn running, waiting up to 1 s"), log);
    assertTrue(log.contains("i4j: interrupting 1 turn still running"), log);
    String journaled = pg.sql("SELECT count(*) FROM event_journal WHERE persistence_id = 'session|" + id
        + "' AND convert_from(event_payload, 'UTF8') LIKE '%turn_finished%interrupted%'");
    assertEquals("1", journaled, "the interrupted turn's end is in PostgreSQL");

    eventually(() -> {
      HttpResponse<String> r = api.send("POST", stays.url + "/api/sessions/" + id + "/messages",
          "{\"text\": \"again\"}");
      assertEquals(202, r.statusCode(), r.body());
      return null;
    });
    long last = before.get(before.size() - 1).id();
    List<Api.Sse> after = api.events(stays.url, id, last, GracefulLeaveTest::answeredAgain, WITHIN);
    JsonNode interrupted = after.stream().map(Api.Sse::event)
        .filter(e -> e.path("type").asText().equals("turn_finished")).findFirst().orElseThrow();
    assertEquals("interrupted", interrupted.path("status").asText(), interrupted.toString());
    List<Long> ids = after.stream().map(Api.Sse::id).toList();
    for (int i = 1; i < ids.size(); i++) {
      assertTrue(ids.get(i) > ids.get(i - 1), "ids out of order or repeated: " + ids);
    }
  }

  /** A turn ended after the user message "again". */
  private static boolean answeredAgain(List<Api.Sse> seen) {
    boolean asked = false;
    for (Api.Sse e : seen) {
      if (type(e).equals("user_message") && e.event().path("text").asText().equals("again")) {
        asked = true;
      } else if (asked && type(e).equals("turn_finished")) {
        return true;
      }
    }
    return false;
  }

  private static String type(Api.Sse e) {
    return e.event().path("type").asText();
  }
}
