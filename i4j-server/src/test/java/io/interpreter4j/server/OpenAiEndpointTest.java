package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.event.EventCodec;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /v1/chat/completions} and {@code /v1/models} over raw HTTP, byte by byte as the Chat Completions API
 * defines them: chunks, the output blocks, usage, {@code [DONE]}, pings, errors. Real sessions: the replay model,
 * real python and bash, auto-run as under {@code i4j serve -y}. OpenAiClientTest drives it with the official SDK.
 */
class OpenAiEndpointTest {
  static final String COMPUTE = "Let me compute.\n\n```python\nprint(6 * 7)\n```\n";
  static final String ANSWER = "The answer is 42.";
  /** The text of a turn replaying COMPUTE and ANSWER: the block, its output block, the answer. */
  static final String COMPUTED = "Let me compute.\n\n```python\nprint(6 * 7)\n```\n```output\n42\n[exit 0]\n```\n\n"
      + ANSWER;

  @TempDir static Path tmp;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = autoRunServer(tmp, ConfigFactory.parseString("interpreter4j.server.models = [\"openai/gpt-4o-mini\"]"));
  }

  /** A server whose sessions run their blocks without asking (i4j serve -y), unconfined, pinging idle streams often. */
  static TestServer autoRunServer(Path dir, com.typesafe.config.Config system) throws Exception {
    return new TestServer(dir, c -> c.withKeepAlive(Duration.ofMillis(300)), system,
        Map.of("interpreter4j.approval.mode", "auto", "interpreter4j.sandbox.kind", "none"));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static String chat(boolean stream, String... userThenAssistant) {
    ObjectNode b = EventCodec.mapper().createObjectNode();
    b.put("model", "i4j");
    ArrayNode messages = b.putArray("messages");
    for (int i = 0; i < userThenAssistant.length; i++) {
      messages.addObject().put("role", i % 2 == 0 ? "user" : "assistant").put("content", userThenAssistant[i]);
    }
    b.put("stream", stream);
    if (stream) {
      b.putObject("stream_options").put("include_usage", true);
    }
    return b.toString();
  }

  static HttpRequest.Builder completions(TestServer s, String json) {
    return s.request("/v1/chat/completions").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
  }

  static SseClient stream(TestServer s, String json, String session) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.base() + "/v1/chat/completions"))
        .header("Authorization", "Bearer " + TestServer.TOKEN).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
    if (session != null) {
      b.header("X-I4J-Session", session);
    }
    return SseClient.open(s.http, b.build());
  }

  /** The data of every frame up to the end of the stream. */
  static List<String> allData(SseClient sse) throws Exception {
    List<String> out = new ArrayList<>();
    for (SseClient.Frame f = sse.next(WAIT); f != null; f = sse.next(WAIT)) {
      out.add(f.data());
    }
    return out;
  }

  static String content(List<String> data) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (String d : data) {
      if (!d.equals("[DONE]")) {
        for (JsonNode choice : EventCodec.mapper().readTree(d).path("choices")) {
          sb.append(choice.path("delta").path("content").asText(""));
        }
      }
    }
    return sb.toString();
  }

  private static void assertOpenAiError(HttpResponse<String> r, int status, String code) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    JsonNode error = json(r).path("error");
    assertFalse(error.path("message").asText().isBlank(), r.body());
    assertFalse(error.path("type").asText().isBlank(), r.body());
    if (code != null) {
      assertEquals(code, error.path("code").asText(), r.body());
    }
  }

  @Test
  void aStreamedAnswerIsChunksWithTheOutputAfterEachBlockThenUsageAndDone() throws Exception {
    server.cassette("default", COMPUTE, ANSWER);
    try (SseClient sse = stream(server, chat(true, "What is 6 times 7?"), null)) {
      assertEquals(200, sse.status());
      assertTrue(sse.response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
      String session = sse.response.headers().firstValue("X-I4J-Session").orElseThrow();
      List<String> data = allData(sse);

      JsonNode first = EventCodec.mapper().readTree(data.get(0));
      assertEquals("chat.completion.chunk", first.path("object").asText());
      assertEquals("assistant", first.path("choices").get(0).path("delta").path("role").asText());
      assertEquals("i4j", first.path("model").asText());
      long created = first.path("created").asLong();
      assertTrue(created > 1_600_000_000L && created < 10_000_000_000L, "created is in seconds: " + created);
      assertEquals(COMPUTED, content(data));

      assertEquals("[DONE]", data.get(data.size() - 1));
      JsonNode usage = EventCodec.mapper().readTree(data.get(data.size() - 2));
      assertEquals(0, usage.path("choices").size());
      assertTrue(usage.path("usage").path("completion_tokens").asLong() > 0, usage.toString());
      assertEquals(usage.path("usage").path("prompt_tokens").asLong() + usage.path("usage").path("completion_tokens")
          .asLong(), usage.path("usage").path("total_tokens").asLong());
      JsonNode finish = EventCodec.mapper().readTree(data.get(data.size() - 3));
      assertEquals("stop", finish.path("choices").get(0).path("finish_reason").asText());
      for (String d : data.subList(0, data.size() - 3)) {
        assertTrue(EventCodec.mapper().readTree(d).path("choices").get(0).path("finish_reason").isNull(), d);
      }
      // made like any session: listed for the dashboard
      assertTrue(server.get("/api/sessions").body().contains(session));
    }
  }

  @Test
  void aPlainAnswerIsOneCompletionWithTheSameText() throws Exception {
    server.cassette("default", COMPUTE, ANSWER);
    HttpResponse<String> r = server.send(completions(server, chat(false, "What is 6 times 7?")).build());
    assertEquals(200, r.statusCode(), r.body());
    assertTrue(r.headers().firstValue("X-I4J-Session").isPresent());
    JsonNode c = json(r);
    assertEquals("chat.completion", c.path("object").asText());
    JsonNode choice = c.path("choices").get(0);
    assertEquals("assistant", choice.path("message").path("role").asText());
    assertEquals(COMPUTED, choice.path("message").path("content").asText());
    assertEquals("stop", choice.path("finish_reason").asText());
    assertTrue(c.path("usage").path("total_tokens").asLong() > 0, r.body());
  }

  @Test
  void theHeaderContinuesASessionWhoseInterpretersKeepTheirState() throws Exception {
    server.cassette("default", "```python\nx = 41\n```\n", "Set.", "```python\nprint(x + 1)\n```\n", "Printed.");
    HttpResponse<String> first = server.send(completions(server, chat(false, "set x")).build());
    String session = first.headers().firstValue("X-I4J-Session").orElseThrow();
    HttpResponse<String> second = server.send(completions(server, chat(false, "print x + 1"))
        .header("X-I4J-Session", session).build());
    assertEquals(200, second.statusCode(), second.body());
    assertEquals(session, second.headers().firstValue("X-I4J-Session").orElseThrow());
    assertTrue(json(second).path("choices").get(0).path("message").path("content").asText()
        .contains("```output\n42\n[exit 0]\n```"), second.body());
  }

  @Test
  void earlierMessagesSeedANewSession() throws Exception {
    server.cassette("default", "Noted.");
    ObjectNode b = (ObjectNode) EventCodec.mapper().readTree(chat(false, "My name is Ada.", "Hello Ada.", "Who am I?"));
    ((ArrayNode) b.get("messages")).insertObject(0).put("role", "system").put("content", "Answer briefly.");
    HttpResponse<String> r = server.send(completions(server, b.toString()).build());
    assertEquals(200, r.statusCode(), r.body());
    String session = r.headers().firstValue("X-I4J-Session").orElseThrow();
    JsonNode events = json(server.get("/api/sessions/" + session)).path("events");
    JsonNode conversation = null;
    for (JsonNode e : events) {
      if (e.path("type").asText().equals("conversation")) {
        conversation = e;
      }
    }
    assertEquals("[{\"role\":\"user\",\"content\":\"My name is Ada.\"},{\"role\":\"assistant\",\"content\":"
        + "\"Hello Ada.\"}]", String.valueOf(conversation == null ? null : conversation.path("messages")));
    assertTrue(events.toString().contains("\"type\":\"user_message\",\"text\":\"Who am I?\""), events.toString());
  }

  @Test
  void modelsListsTheServersModelAndTheConfiguredOnes() throws Exception {
    HttpResponse<String> r = server.get("/v1/models");
    assertEquals(200, r.statusCode(), r.body());
    JsonNode list = json(r);
    assertEquals("list", list.path("object").asText());
    List<String> ids = new ArrayList<>();
    list.path("data").forEach(m -> ids.add(m.path("id").asText()));
    assertEquals(List.of("i4j", "openai/gpt-4o-mini"), ids); // the server's replay:default is not listed
    assertEquals("model", list.path("data").get(0).path("object").asText());
  }

  @Test
  void badRequestsAreErrorsInTheShapeOpenAiClientsRead() throws Exception {
    HttpResponse<String> noToken = server.send(HttpRequest.newBuilder(URI.create(server.base() + "/v1/models"))
        .header("Authorization", "Bearer wrong-token").GET().build());
    assertOpenAiError(noToken, 401, "invalid_api_key");
    assertOpenAiError(server.send(completions(server, "{not json").build()), 400, null);
    assertOpenAiError(server.send(completions(server, "{}").build()), 400, null);
    assertOpenAiError(server.send(completions(server, chat(false, "hi", "hello")).build()), 400, null);
    assertOpenAiError(server.send(completions(server,
        "{\"model\": \"replay:/etc/passwd\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}").build()),
        400, null);
    assertOpenAiError(server.send(completions(server,
        "{\"model\": \"gpt-4\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}").build()), 400, null);
    HttpResponse<String> unknown = server.send(completions(server, chat(false, "hi"))
        .header("X-I4J-Session", "20260101-000000-abcdef").build());
    assertOpenAiError(unknown, 404, null);
    assertOpenAiError(server.send(server.request("/v1/chat/completions").GET().build()), 405, null);
    assertOpenAiError(server.get("/v1/nothing"), 404, null);
  }

  @Test
  void aBusySessionIs409WithoutRetryAndAClientThatLeavesInterruptsItsBlock() throws Exception {
    server.cassette("default", "```bash\necho long block started\nsleep 60\necho never\n```\n", "Done.");
    String session;
    try (SseClient sse = stream(server, chat(true, "wait"), null)) {
      session = sse.response.headers().firstValue("X-I4J-Session").orElseThrow();
      StringBuilder seen = new StringBuilder();
      while (!seen.toString().contains("long block started")) {
        seen.append(content(List.of(sse.next(WAIT).data())));
      }
      HttpResponse<String> busy = server.send(completions(server, chat(false, "again"))
          .header("X-I4J-Session", session).build());
      assertOpenAiError(busy, 409, null);
      assertEquals("false", busy.headers().firstValue("x-should-retry").orElse(""));
      try (SseClient events = server.events("/api/sessions/" + session + "/events", null)) {
        sse.close(); // the client leaves
        List<SseClient.Frame> rest = events.until("turn_finished", WAIT);
        SseClient.Frame finished = rest.get(rest.size() - 1);
        assertEquals("interrupted", finished.json().path("status").asText(), finished.data());
        assertTrue(rest.stream().anyMatch(f -> f.type().equals("exec_finished")
            && f.json().path("interrupted").asBoolean()), "the block was interrupted");
      }
    }
  }

  @Test
  void aStreamPingsWhileCodeRuns() throws Exception {
    server.cassette("default", "```bash\nsleep 2\necho slept\n```\n", "Done.");
    try (SseClient sse = stream(server, chat(true, "sleep"), null)) {
      assertTrue(sse.awaitComment(WAIT), "a : ping while the block sleeps");
      assertTrue(content(allData(sse)).endsWith("slept\n[exit 0]\n```\n\nDone."));
    }
  }

  @Test
  void inAskModeTheBlockWaitsForTheDashboardWhileTheStreamPings(@TempDir Path own) throws Exception {
    try (TestServer asking = new TestServer(own, c -> c.withKeepAlive(Duration.ofMillis(300)),
        ConfigFactory.empty(), Map.of("interpreter4j.sandbox.kind", "none"))) {
      asking.cassette("default", COMPUTE, ANSWER);
      try (SseClient sse = stream(asking, chat(true, "What is 6 times 7?"), null)) {
        String session = sse.response.headers().firstValue("X-I4J-Session").orElseThrow();
        assertTrue(sse.awaitComment(WAIT), "a : ping while the question waits");
        try (SseClient events = asking.events("/api/sessions/" + session + "/events", null)) {
          events.until("approval_requested", WAIT);
        }
        assertEquals(200, asking.post("/api/sessions/" + session + "/blocks/1/approval",
            body("decision", "approve")).statusCode());
        assertEquals(COMPUTED, content(allData(sse)));
      }
    }
  }
}
