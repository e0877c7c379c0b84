package io.interpreter4j.providers.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.ProviderRegistry;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.resilience.ResilientProvider;
import io.interpreter4j.providers.resilience.RetryInfo;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.providers.tools.ExecuteTool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The Anthropic provider against a fake server that speaks the Messages API's event stream. */
class AnthropicProviderTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ProviderSettings SETTINGS = ProviderSettings.defaults()
      .withRetry(4, Duration.ofMillis(10), Duration.ofSeconds(5))
      .withStallTimeout(Duration.ofSeconds(10));
  private static final ModelRequest REQUEST = new ModelRequest("claude-sonnet-4-5", List.of(
      ChatMessage.system("You run code."), ChatMessage.user("List files"), ChatMessage.assistant("Sure."),
      ChatMessage.user("Block 1 (bash) finished with exit code 0.\nOutput:\n```output\na.txt\n```")));

  /** The tool call of {@link #messageStream} as the provider shows it in tool mode. */
  static final String RUN_LS = "\n````````\nls\n````````\n";

  /** A full reply as Anthropic streams it, CRLF line ends, with a ping and a tool_use block. */
  static String messageStream(String lineEnd, String... texts) {
    StringBuilder sb = new StringBuilder();
    event(sb, lineEnd, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
        + "\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\",\"stop_reason\":null,"
        + "\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}");
    event(sb, lineEnd, "content_block_start",
        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
    event(sb, lineEnd, "ping", "{\"type\": \"ping\"}");
    for (String t : texts) {
      event(sb, lineEnd, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
          + "\"delta\":{\"type\":\"text_delta\",\"text\":" + FakeModelServer.jsonString(t) + "}}");
    }
    event(sb, lineEnd, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
    event(sb, lineEnd, "content_block_start", "{\"type\":\"content_block_start\",\"index\":1,"
        + "\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"run\",\"input\":{}}}");
    event(sb, lineEnd, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,"
        + "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"code\\\": \"}}");
    event(sb, lineEnd, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,"
        + "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"ls\\\"}\"}}");
    event(sb, lineEnd, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}");
    event(sb, lineEnd, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
        + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":15}}");
    event(sb, lineEnd, "message_stop", "{\"type\":\"message_stop\"}");
    return sb.toString();
  }

  private static void event(StringBuilder sb, String lineEnd, String name, String data) {
    sb.append("event: ").append(name).append(lineEnd).append("data: ").append(data).append(lineEnd).append(lineEnd);
  }

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(SYSTEM).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  private static ResilientProvider provider(FakeModelServer server) {
    return ProviderRegistry.create("anthropic/claude-sonnet-4-5", Optional.of(server.baseUrl()), Optional.empty(),
        Map.of("ANTHROPIC_API_KEY", "sk-ant-test"), SYSTEM, SETTINGS);
  }

  private static List<LlmChunk> run(Source<LlmChunk, ?> source) throws Exception {
    return source.runWith(Sink.seq(), SYSTEM).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static String text(List<LlmChunk> chunks) {
    return chunks.stream().filter(c -> c instanceof LlmChunk.TextDelta)
        .map(c -> ((LlmChunk.TextDelta) c).text()).collect(Collectors.joining());
  }

  @Test
  void streamsTextAndUsageAndSendsTheMessagesApiRequest() throws Exception {
    String body = messageStream("\r\n", "Here ", "they are: ", "a.txt");
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.startEventStream().chunksOf(11, body).end())) {
      List<LlmChunk> chunks = run(provider(server).stream(REQUEST));

      // The fixture's tool_use block (a call of "run" with {"code": "ls"}) comes out as a block of the default language.
      assertEquals("Here they are: a.txt" + RUN_LS, text(chunks));
      assertEquals(new LlmChunk.Usage(25, 15), chunks.get(chunks.size() - 1));
      FakeModelServer.Request request = server.requests().get(0);
      assertEquals("/v1/messages", request.path());
      assertEquals("sk-ant-test", request.headers().get("x-api-key"));
      assertEquals("2023-06-01", request.headers().get("anthropic-version"));
      JsonNode sent = JSON.readTree(request.body());
      assertEquals("You run code.\n\n" + ExecuteTool.SYSTEM_NOTE, sent.get("system").asText());
      assertEquals("execute", sent.get("tools").get(0).get("name").asText());
      assertEquals(4096, sent.get("max_tokens").asInt());
      assertTrue(sent.get("stream").asBoolean());
      assertEquals(3, sent.get("messages").size());
      assertEquals("user", sent.get("messages").get(0).get("role").asText());
    }
  }

  @Test
  void overloadedErrorEventBeforeTextIsRetried() throws Exception {
    String overloaded = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
        + "\"message\":\"Overloaded\"}}\n\n";
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(overloaded).end(),
        ex -> ex.startEventStream().chunk(messageStream("\n", "ok")).end())) {
      List<RetryInfo> retries = new CopyOnWriteArrayList<>();

      assertEquals("ok" + RUN_LS, text(run(provider(server).streamWithRetries(REQUEST, retries::add))));
      assertEquals(1, retries.size());
      assertTrue(retries.get(0).reason().contains("overloaded_error"), retries.get(0).reason());
    }
  }

  @Test
  void status529IsRetried() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.respond(529, "application/json",
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}", Map.of()),
        ex -> ex.startEventStream().chunk(messageStream("\n", "second")).end())) {
      assertEquals("second" + RUN_LS, text(run(provider(server).stream(REQUEST))));
    }
  }

  @Test
  void unauthorizedNamesTheAnthropicKey() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.respond(401, "application/json",
        "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}",
        Map.of()))) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> run(provider(server).stream(REQUEST)));
      ModelException me = assertInstanceOf(ModelException.class, e.getCause());

      assertEquals("the API key was rejected (401): check ANTHROPIC_API_KEY or pass --api-key", me.getMessage());
      assertEquals(1, server.requests().size());
    }
  }

  @Test
  void streamWithoutMessageStopIsARetryableCut() throws Exception {
    String cut = messageStream("\n", "half").replace("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", "");
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(cut).end())) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> run(provider(server).stream(REQUEST)));
      ModelException me = assertInstanceOf(ModelException.class, e.getCause());

      assertTrue(me.retryable(), me.getMessage());
      assertTrue(me.getMessage().startsWith(ResilientProvider.INTERRUPTED), me.getMessage());
      assertTrue(me.getMessage().contains("no message_stop"), me.getMessage());
      assertFalse(server.requests().isEmpty());
    }
  }

  @Test
  void aConnectionClosedRightAfterMessageStopKeepsTheReply() throws Exception {
    // message_stop is the last word: a FIN without the body's last chunk after it cuts nothing.
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(messageStream("\n", "all of it")).close())) {
      assertEquals("all of it" + RUN_LS, text(run(provider(server).stream(REQUEST))));
      assertEquals(1, server.requests().size());
    }
  }
}
