package io.interpreter4j.cli.cluster;

import static io.interpreter4j.cli.cluster.ClusterHarness.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code i4j serve} nodes with a private PostgreSQL journal, over real HTTP: {@code /v1/chat/completions}
 * continues a session through any node (the request passed on to the node it runs on, a streamed answer included),
 * and the dashboard's live feed ({@code GET /api/events}) of one node carries the events of every node's sessions.
 * The nodes' own model is the replay model.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClusterApiTest {
  @TempDir static Path tmp;
  private ClusterHarness cluster;
  private Api api;
  private Path cassette;

  @BeforeAll
  void startCluster() throws Exception {
    cassette = Files.createDirectories(tmp.resolve("work")).resolve("answers.json");
    Files.writeString(cassette, "{\"turns\": [" + turn("First answer.") + "," + turn("Second answer.") + ","
        + turn("Third answer.") + "]}");
    cluster = ClusterHarness.start(tmp, "i4j_api", 3, "interpreter4j.model = \"replay:" + cassette + "\"\n");
    api = cluster.api;
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aChatCompletionContinuesItsSessionThroughAnyNode() throws Exception {
    ServeNode home = cluster.node(0);
    HttpResponse<String> first = api.send("POST", home.url + "/v1/chat/completions", chat("first", false), Map.of());
    assertEquals(200, first.statusCode(), first.body());
    String session = first.headers().firstValue("X-I4J-Session").orElseThrow();
    assertEquals("First answer.", content(first.body()));

    // through another node: the same session answers its second turn (a new one would give the first answer)
    HttpResponse<String> second = api.send("POST", cluster.node(1).url + "/v1/chat/completions",
        chat("second", false), Map.of("X-I4J-Session", session));
    assertEquals(200, second.statusCode(), second.body());
    assertEquals(session, second.headers().firstValue("X-I4J-Session").orElseThrow());
    assertEquals("Second answer.", content(second.body()));

    // through the third node, streamed: the chunks pass through, then [DONE]
    HttpResponse<String> third = api.send("POST", cluster.node(2).url + "/v1/chat/completions",
        chat("third", true), Map.of("X-I4J-Session", session));
    assertEquals(200, third.statusCode(), third.body());
    assertTrue(third.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"),
        third.headers().toString());
    assertEquals("Third answer.", streamedContent(third.body()));
    assertTrue(third.body().strip().endsWith("data: [DONE]"), third.body());

    // it ran on its home node all along
    JsonNode listed = null;
    for (JsonNode s : api.json("GET", cluster.node(2).url + "/api/sessions", null, 200).path("sessions")) {
      if (s.path("id").asText().equals(session)) {
        listed = s;
      }
    }
    assertTrue(listed != null, "not listed: " + session);
    assertEquals(cluster.address(0), listed.path("node").asText(), listed.toString());
    List<String> asked = new ArrayList<>();
    for (JsonNode e : api.json("GET", cluster.node(1).url + "/api/sessions/" + session, null, 200).path("events")) {
      if (e.path("type").asText().equals("user_message")) {
        asked.add(e.path("text").asText());
      }
    }
    assertEquals(List.of("first", "second", "third"), asked);
  }

  @Test
  void theLiveFeedOfOneNodeCarriesEveryNodesSessions() throws Exception {
    Set<String> made = ConcurrentHashMap.newKeySet();
    try (Api.Feed feed = api.follow(cluster.node(0).url + "/api/events")) {
      // the node joins the others' feeds just after it answered: make sessions until each node's one is seen
      String[] seen = new String[3];
      java.util.concurrent.atomic.AtomicInteger tries = new java.util.concurrent.atomic.AtomicInteger();
      eventually(() -> {
        boolean makeMore = tries.getAndIncrement() % 8 == 0; // a new session each 2 s while none was seen
        Set<String> sessionsSeen = feed.seen().stream().map(e -> e.path("session").asText())
            .collect(Collectors.toSet());
        for (int i = 0; i < 3; i++) {
          if (seen[i] == null) {
            for (String id : made) {
              if (id.startsWith(i + ":") && sessionsSeen.contains(id.substring(2))) {
                seen[i] = id.substring(2);
              }
            }
          }
          if (seen[i] == null && makeMore) {
            made.add(i + ":" + cluster.create(cluster.node(i), cassette, "hello " + i));
          }
        }
        for (int i = 0; i < 3; i++) {
          assertTrue(seen[i] != null, "no event of a session of node " + i + " in node 0's feed: "
              + sessionsSeen + ", made " + made);
        }
        return null;
      });
      // and its updates: a session of node 2 ends its turn, seen live through node 0
      eventually(() -> {
        assertTrue(feed.seen().stream().anyMatch(e -> e.path("session").asText().equals(seen[2])
            && e.path("type").asText().equals("turn_finished")), "no turn_finished of " + seen[2]);
        return null;
      });
    }
    // the header's counts, should the list not load: the summary of any node counts every node's sessions
    long own = 0;
    for (ServeNode n : cluster.nodes) { // each node's own, as it answers another node
      own += EventCodec.mapper().readTree(api.send("GET", n.url + "/api/summary", null,
          Map.of("X-I4J-Forwarded", "test")).body()).path("totalSessions").asLong();
    }
    JsonNode summary = api.json("GET", cluster.node(0).url + "/api/summary", null, 200);
    assertEquals(own, summary.path("totalSessions").asLong(), summary.toString());
  }

  private static String turn(String reply) {
    return "{\"reply\": \"" + reply + "\", \"chunk_chars\": 4, \"delay_ms\": 5}";
  }

  private static String chat(String message, boolean stream) {
    ObjectNode b = EventCodec.mapper().createObjectNode();
    b.put("model", "i4j");
    b.putArray("messages").addObject().put("role", "user").put("content", message);
    b.put("stream", stream);
    return b.toString();
  }

  private static String content(String body) throws Exception {
    return EventCodec.mapper().readTree(body).path("choices").get(0).path("message").path("content").asText();
  }

  /** The text of a streamed answer: its chunks' deltas, in order. */
  private static String streamedContent(String body) throws Exception {
    StringBuilder text = new StringBuilder();
    for (String line : body.split("\n")) {
      if (line.startsWith("data: ") && !line.equals("data: [DONE]")) {
        for (JsonNode choice : EventCodec.mapper().readTree(line.substring(6)).path("choices")) {
          text.append(choice.path("delta").path("content").asText(""));
        }
      }
    }
    return text.toString();
  }
}
