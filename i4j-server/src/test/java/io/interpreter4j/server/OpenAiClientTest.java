package io.interpreter4j.server;

import static io.interpreter4j.server.OpenAiEndpointTest.ANSWER;
import static io.interpreter4j.server.OpenAiEndpointTest.COMPUTE;
import static io.interpreter4j.server.OpenAiEndpointTest.COMPUTED;
import static io.interpreter4j.server.TestServer.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.NodeScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official OpenAI SDK for JavaScript ({@code openai} on npm, pinned in src/test/node/package-lock.json) against
 * {@code /v1}: each test runs one scenario of src/test/node/openai-client.mjs and checks what the client saw.
 */
class OpenAiClientTest {
  private static final Duration NODE_WAIT = Duration.ofSeconds(90);
  @TempDir static Path tmp;
  private static TestServer server;
  private static NodeScript node;

  @BeforeAll
  static void start() throws Exception {
    node = NodeScript.need(Path.of("src", "test", "node"), "openai");
    server = OpenAiEndpointTest.autoRunServer(tmp, ConfigFactory.empty());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static JsonNode client(String scenario) throws Exception {
    NodeScript.Result r = node.run("openai-client.mjs",
        Map.of("I4J_BASE_URL", server.base() + "/v1", "I4J_TOKEN", TestServer.TOKEN), NODE_WAIT, scenario);
    assertEquals(0, r.exit(), scenario + ": " + r.stderr() + r.stdout());
    return EventCodec.mapper().readTree(r.lastLine());
  }

  @Test
  void forAwaitOverTheStreamGetsTheTurnsTextAndUsage() throws Exception {
    server.cassette("default", COMPUTE, ANSWER);
    JsonNode seen = client("stream");
    assertEquals(COMPUTED, seen.path("content").asText());
    assertEquals("assistant", seen.path("role").asText());
    assertEquals("stop", seen.path("finish").asText());
    assertTrue(seen.path("usage").path("total_tokens").asLong() > 0, seen.toString());
    assertTrue(server.get("/api/sessions/" + seen.path("session").asText()).statusCode() == 200, seen.toString());
  }

  @Test
  void finalChatCompletionOfTheStreamHelperIsTheWholeAnswer() throws Exception {
    server.cassette("default", COMPUTE, ANSWER);
    JsonNode seen = client("final");
    assertEquals(COMPUTED, seen.path("content").asText());
    assertEquals("stop", seen.path("finish").asText());
    assertEquals("i4j", seen.path("model").asText());
  }

  @Test
  void aPlainCallGetsOneCompletion() throws Exception {
    server.cassette("default", COMPUTE, ANSWER);
    JsonNode seen = client("plain");
    assertEquals("chat.completion", seen.path("object").asText());
    assertEquals(COMPUTED, seen.path("content").asText());
    assertEquals("stop", seen.path("finish").asText());
    assertTrue(seen.path("usage").path("prompt_tokens").asLong() > 0, seen.toString());
  }

  @Test
  void aWrongTokenRaisesAuthenticationError() throws Exception {
    JsonNode seen = client("badToken");
    assertEquals("AuthenticationError", seen.path("raised").asText(), seen.toString());
    assertTrue(seen.path("authenticationError").asBoolean(), seen.toString());
    assertEquals(401, seen.path("status").asInt());
    assertEquals("invalid_api_key", seen.path("code").asText());
  }

  @Test
  void theSessionHeaderContinuesASessionWithItsState() throws Exception {
    server.cassette("default", "```python\nx = 41\n```\n", "Set.",
        "```python\nprint(x + 1)\n```\n", "Printed.", "```python\nprint(x + 2)\n```\n", "Printed again.");
    JsonNode seen = client("continueSession");
    assertTrue(seen.path("first").asText().endsWith("[exit 0]\n```\n\nSet."), seen.toString());
    assertTrue(seen.path("second").asText().contains("```output\n42\n[exit 0]\n```"), seen.toString());
    assertTrue(seen.path("third").asText().contains("```output\n43\n[exit 0]\n```"), seen.toString());
    assertTrue(seen.path("sameSession").asBoolean(), seen.toString());
  }

  @Test
  void aClientAbortInterruptsTheTurnAndItsRunningBlock() throws Exception {
    server.cassette("default", "```bash\necho long block started\nsleep 120\necho never\n```\n", "Done.");
    JsonNode seen = client("abort");
    assertTrue(seen.path("aborted").asBoolean(), seen.toString());
    String session = seen.path("session").asText();
    assertNotEquals("", session);
    try (SseClient events = server.events("/api/sessions/" + session + "/events", null)) {
      List<SseClient.Frame> frames = events.until("turn_finished", WAIT);
      SseClient.Frame last = frames.get(frames.size() - 1);
      assertEquals("interrupted", last.json().path("status").asText(), last.data());
      assertTrue(frames.stream().anyMatch(f -> f.type().equals("exec_finished")
          && f.json().path("interrupted").asBoolean()), "the block was interrupted");
      assertTrue(frames.stream().noneMatch(f -> f.type().equals("output") && f.data().contains("never")));
    }
  }
}
