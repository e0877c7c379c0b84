package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 200 sessions created at once through the API, each running a bash block, all end done. */
class ManySessionsTest {
  private static final int SESSIONS = 200;
  private static final Duration DEADLINE = Duration.ofMinutes(5);
  private static final int LANES = 8;

  @Test
  void twoHundredConcurrentSessionsAllFinishDone(@TempDir Path tmp) throws Exception {
    try (TestServer server = new TestServer(tmp, c -> c.withSseBufferSize(100_000), ConfigFactory.empty());
         SseClient all = server.events("/api/events", null)) {
      // Eight requests in flight at a time, as a busy client would send them; the sessions all run concurrently.
      List<CompletableFuture<HttpResponse<String>>> posts = new ArrayList<>();
      for (int i = 0; i < SESSIONS; i++) {
        String model = server.cassette("many-" + i, "```bash\necho session-" + i + "\n```\n", "Printed it.");
        HttpRequest request = server.request("/api/sessions").header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body("message", "echo " + i, "model", model,
                "autoRun", true))).build();
        CompletableFuture<?> before = i < LANES ? CompletableFuture.completedFuture(null) : posts.get(i - LANES);
        posts.add(before.thenCompose(ignored -> server.http.sendAsync(request, HttpResponse.BodyHandlers.ofString())));
      }
      Map<String, Integer> ids = new HashMap<>();
      for (int i = 0; i < SESSIONS; i++) {
        HttpResponse<String> r = posts.get(i).get();
        assertEquals(201, r.statusCode(), r.body());
        ids.put(json(r).path("id").asText(), i);
      }
      assertEquals(SESSIONS, ids.size(), "every session has its own id");

      Map<String, String> finished = new HashMap<>();
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      while (finished.size() < SESSIONS) {
        SseClient.Frame f = all.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        assertNotNull(f, "the all-sessions stream ended after " + finished.size() + " turns");
        if (f.type().equals("turn_finished")) {
          finished.put(f.json().path("session").asText(), f.json().path("status").asText());
        }
      }
      assertTrue(ids.keySet().containsAll(finished.keySet()));
      finished.forEach((id, status) -> assertEquals("done", status, id));

      JsonNode list = json(server.get("/api/sessions")).path("sessions");
      int done = 0;
      for (JsonNode s : list) {
        if (ids.containsKey(s.path("id").asText())) {
          assertEquals("done", s.path("status").asText(), s.toString());
          done++;
        }
      }
      assertEquals(SESSIONS, done);
      for (Map.Entry<String, Integer> e : ids.entrySet()) {
        HttpResponse<String> out = server.get("/api/sessions/" + e.getKey() + "/blocks/1/output");
        assertEquals(200, out.statusCode(), out.body());
        assertEquals("session-" + e.getValue(), out.body().strip(), "each session ran its own block");
      }
      JsonNode summary = json(server.get("/api/summary"));
      assertEquals(0, summary.path("activeSessions").asInt());
      assertEquals(0, summary.path("runningBlocks").asInt());
    }
  }
}
