package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sessions of an earlier run of the server (or of the terminal) are listed again after a restart, read-only. */
class RestartTest {
  @TempDir Path tmp;

  @Test
  void sessionsOfAnEarlierRunAreListedStoppedWithTheirTranscripts() throws Exception {
    String id;
    try (TestServer first = new TestServer(tmp)) {
      String model = first.cassette("before", "```bash\necho from-the-first-run\n```\n", "It printed it.");
      id = first.createSession(body("message", "remember me", "model", model, "autoRun", true));
      try (SseClient events = first.events("/api/sessions/" + id + "/events", null)) {
        events.until("turn_finished", WAIT);
      }
    }
    // a journal cut short by a crash, and a folder that is not a session: neither stops the listing
    Path broken = Files.createDirectories(tmp.resolve("data/sessions/20261202-000000-abcdef"));
    Files.writeString(broken.resolve("events.jsonl"), "{\"session\":\"20261202-000000-abcdef\",\"seq\":1,\"ts\":\"20");
    Files.createDirectories(tmp.resolve("data/sessions/not a session"));

    try (TestServer second = new TestServer(tmp)) {
      assertEquals(0, json(second.get("/api/sessions")).path("sessions").size(), "nothing restored by itself");
      assertEquals(2, second.handle.hub().restore(second.dataDir, 100));
      assertEquals(0, second.handle.hub().restore(second.dataDir, 100), "listed once");

      JsonNode sessions = json(second.get("/api/sessions")).path("sessions");
      assertEquals(2, sessions.size(), sessions.toString());
      JsonNode listed = sessions.get(0);
      assertEquals(id, listed.path("id").asText(), "newest first");
      assertEquals("done", listed.path("status").asText());
      assertTrue(listed.path("stopped").asBoolean());
      assertEquals("remember me", listed.path("title").asText());

      List<String> types = new java.util.ArrayList<>();
      json(second.get("/api/sessions/" + id)).path("events").forEach(e -> types.add(e.path("type").asText()));
      assertTrue(types.containsAll(List.of("user_message", "code_block", "exec_finished", "turn_finished")),
          types.toString());
      try (SseClient events = second.events("/api/sessions/" + id + "/events", null)) {
        List<SseClient.Frame> frames = events.until("turn_finished", WAIT);
        assertTrue(frames.stream().anyMatch(f -> f.type().equals("output")
            && f.json().path("text").asText().contains("from-the-first-run")), frames.toString());
      }
      var refused = second.post("/api/sessions/" + id + "/messages", body("text", "again"));
      assertEquals(409, refused.statusCode(), refused.body());
      assertTrue(refused.body().contains("has stopped; start a new one"), refused.body());
    }
  }

  @Test
  void theNewestAreListedUpToTheLimit() throws Exception {
    for (String id : List.of("20261201-100000-aaaaaa", "20261202-100000-bbbbbb", "20261203-100000-cccccc")) {
      Path dir = Files.createDirectories(tmp.resolve("data/sessions/" + id));
      Files.writeString(dir.resolve("events.jsonl"), "{\"session\":\"" + id + "\",\"seq\":1,"
          + "\"ts\":\"2026-12-02T10:00:00Z\",\"type\":\"user_message\",\"text\":\"hello " + id + "\"}\n");
    }
    try (TestServer server = new TestServer(tmp)) {
      assertEquals(2, server.handle.hub().restore(server.dataDir, 2));
      JsonNode sessions = json(server.get("/api/sessions")).path("sessions");
      assertEquals("20261203-100000-cccccc", sessions.get(0).path("id").asText());
      assertEquals("20261202-100000-bbbbbb", sessions.get(1).path("id").asText());
      assertEquals("hello 20261203-100000-cccccc", sessions.get(0).path("title").asText());
    }
  }
}
