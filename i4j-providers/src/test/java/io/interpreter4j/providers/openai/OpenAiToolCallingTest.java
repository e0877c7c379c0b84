package io.interpreter4j.providers.openai;

import static io.interpreter4j.providers.testing.FakeModelServer.jsonString;
import static io.interpreter4j.providers.testing.FakeModelServer.openAiStream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.prompt.PromptBuilder;
import io.interpreter4j.providers.ProviderRegistry;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.resilience.ResilientProvider;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.providers.testing.SessionView;
import io.interpreter4j.providers.tools.ExecuteTool;
import io.interpreter4j.providers.tools.ToolCallFences;
import io.interpreter4j.providers.tools.ToolCalling;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Tool calling over Chat Completions against a fake server: streamed tool calls in, tool messages back out. */
class OpenAiToolCallingTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ProviderSettings SETTINGS = ProviderSettings.defaults()
      .withRetry(2, Duration.ofMillis(10), Duration.ofSeconds(1));
  /** Code whose arguments hold every escape: quotes, backslashes, tabs, newlines, non-ASCII as \\u escapes. */
  static final String CODE = "print(\"a\\tb\", 'caf\u00e9 \uD83C\uDF0D')\nprint(6*7)\n";
  static final String ARGUMENTS = "{\"language\":\"python\",\"code\":"
      + "\"print(\\\"a\\\\tb\\\", 'caf\\u00e9 \\ud83c\\udf0d')\\nprint(6*7)\\n\"}";
  static final List<ChatMessage> TASK = List.of(ChatMessage.system("You run code."), ChatMessage.user("6*7?"));

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(SYSTEM).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  /** A reply with some text and one call of execute whose arguments come {@code size} characters at a time. */
  static String toolCallStream(String id, String arguments, int size) {
    StringBuilder sb = new StringBuilder();
    sb.append("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":")
        .append("\"Let me compute.\"},\"finish_reason\":null}]}\n\n");
    sb.append("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"")
        .append(id).append("\",\"type\":\"function\",\"function\":{\"name\":\"execute\",\"arguments\":\"\"}}]},")
        .append("\"finish_reason\":null}]}\n\n");
    for (int i = 0; i < arguments.length(); i += size) {
      String piece = arguments.substring(i, Math.min(arguments.length(), i + size));
      sb.append("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,")
          .append("\"function\":{\"arguments\":").append(jsonString(piece)).append("}}]},\"finish_reason\":null}]}\n\n");
    }
    sb.append("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n");
    sb.append("data: {\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":50,\"completion_tokens\":20}}\n\n");
    sb.append("data: [DONE]\n\n");
    return sb.toString();
  }

  private static ResilientProvider provider(String spec, FakeModelServer server, ProviderSettings settings) {
    return ProviderRegistry.create(spec, Optional.of(server.baseUrl()), Optional.of("sk-test"), Map.of(), SYSTEM,
        settings);
  }

  private static List<LlmChunk> run(ResilientProvider provider, List<ChatMessage> messages) throws Exception {
    return provider.stream(new ModelRequest("", messages)).runWith(Sink.seq(), SYSTEM).toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
  }

  private static String text(List<LlmChunk> chunks) {
    return chunks.stream().filter(c -> c instanceof LlmChunk.TextDelta).map(c -> ((LlmChunk.TextDelta) c).text())
        .collect(Collectors.joining());
  }

  @Test
  void aStreamedToolCallRunsAsOneBlockAndGoesBackAsToolCallAndToolMessage() throws Exception {
    for (int size : new int[] {1, 2, 3, 5, 8, 13, 1000}) {
      try (FakeModelServer server = FakeModelServer.start(
          ex -> ex.startEventStream().chunksOf(7, toolCallStream("call_abc", ARGUMENTS, size)).end(),
          ex -> ex.startEventStream().chunk(openAiStream(List.of("It is 42."), "\n", true)).end())) {
        ResilientProvider provider = provider("openai/gpt-4o-mini", server, SETTINGS);
        List<LlmChunk> chunks = run(provider, TASK);

        assertEquals("Let me compute.\n" + ToolCallFences.FENCE + "python\n" + CODE + "\n" + ToolCallFences.FENCE
            + "\n", text(chunks), "arguments in pieces of " + size);
        assertEquals(new LlmChunk.Usage(50, 20), chunks.get(chunks.size() - 1));
        List<Segment> segments = SessionView.segments(chunks, SYSTEM);
        List<CodeBlock> blocks = SessionView.blocks(segments);
        assertEquals(List.of(new CodeBlock(1, "python", "python", CODE, true, false)), blocks);

        JsonNode first = JSON.readTree(server.requests().get(0).body());
        assertEquals("execute", first.at("/tools/0/function/name").asText());
        // the enum lists the languages installed here: at least python and bash
        List<?> languages = JSON.convertValue(
            first.at("/tools/0/function/parameters/properties/language/enum"), List.class);
        assertTrue(languages.containsAll(List.of("python", "bash")), languages.toString());
        assertTrue(first.at("/messages/0/content").asText().endsWith(ExecuteTool.SYSTEM_NOTE));

        // The session keeps the reply as markdown and sends the block's result as a user message.
        String result = PromptBuilder.blockResult(1, "python", 0, false, false, "a\tb café \uD83C\uDF0D\n42\n", null);
        List<ChatMessage> history = new ArrayList<>(TASK);
        history.add(ChatMessage.assistant(SessionView.kept(segments)));
        history.add(ChatMessage.user(result));
        assertEquals("It is 42.", text(run(provider, history)));

        JsonNode messages = JSON.readTree(server.requests().get(1).body()).get("messages");
        assertEquals(4, messages.size());
        JsonNode assistant = messages.get(2);
        assertEquals("assistant", assistant.get("role").asText());
        assertEquals("Let me compute.", assistant.get("content").asText());
        assertEquals("call_abc", assistant.at("/tool_calls/0/id").asText());
        assertEquals("function", assistant.at("/tool_calls/0/type").asText());
        assertEquals("execute", assistant.at("/tool_calls/0/function/name").asText());
        assertEquals(ARGUMENTS, assistant.at("/tool_calls/0/function/arguments").asText());
        JsonNode tool = messages.get(3);
        assertEquals("tool", tool.get("role").asText());
        assertEquals("call_abc", tool.get("tool_call_id").asText());
        assertEquals(result, tool.get("content").asText());
        assertTrue(tool.get("content").asText().contains("42"));
      }
    }
  }

  @Test
  void theCallsOfACutReplyAreNotGivenBackOnceItsRetryMadeItsOwn() throws Exception {
    String whole = toolCallStream("call_1", ARGUMENTS, 1000);
    // call_1 complete, then a second call cut mid-arguments: the reply fails and is retried
    String cut = whole.substring(0, whole.indexOf("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},"))
        + "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":"
        + "\"call_9\",\"type\":\"function\",\"function\":{\"name\":\"execute\",\"arguments\":"
        + jsonString("{\"language\":\"bash\",\"code\":\"rm -r") + "}}]},\"finish_reason\":null}]}\n\n";
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(cut).close(),
        ex -> ex.startEventStream().chunk(toolCallStream("call_2", ARGUMENTS, 1000)).end(),
        ex -> ex.startEventStream().chunk(openAiStream(List.of("It is 42."), "\n", true)).end())) {
      ResilientProvider provider = provider("openai/gpt-4o-mini", server, SETTINGS);
      assertThrows(ExecutionException.class, () -> run(provider, TASK));
      List<Segment> segments = SessionView.segments(run(provider, TASK), SYSTEM);

      List<ChatMessage> history = new ArrayList<>(TASK);
      history.add(ChatMessage.assistant(SessionView.kept(segments)));
      history.add(ChatMessage.user(PromptBuilder.blockResult(1, "python", 0, false, false, "42\n", null)));
      assertEquals("It is 42.", text(run(provider, history)));

      JsonNode assistant = JSON.readTree(server.requests().get(2).body()).get("messages").get(2);
      assertEquals(1, assistant.get("tool_calls").size(), assistant.toString());
      assertEquals("call_2", assistant.at("/tool_calls/0/id").asText());
    }
  }

  @Test
  void toolCallingOffSendsNoToolsAndKeepsHistoryAsText() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(openAiStream(List.of("ok"), "\n", true)).end())) {
      ResilientProvider provider = provider("openai/gpt-4o-mini", server, SETTINGS.withToolCalling(ToolCalling.OFF));
      List<ChatMessage> history = new ArrayList<>(TASK);
      history.add(ChatMessage.assistant("```python\nprint(6*7)\n```\n"));
      history.add(ChatMessage.user(PromptBuilder.blockResult(1, "python", 0, false, false, "42\n", null)));
      assertEquals("ok", text(run(provider, history)));

      JsonNode body = JSON.readTree(server.requests().get(0).body());
      assertFalse(body.has("tools"));
      assertEquals("You run code.", body.at("/messages/0/content").asText());
      assertEquals(4, body.get("messages").size());
      assertFalse(body.get("messages").get(2).has("tool_calls"));
      assertEquals("user", body.get("messages").get(3).get("role").asText());
    }
  }

  @Test
  void toolCallsAreIgnoredInMarkdownMode() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(toolCallStream("call_1", ARGUMENTS, 4)).end())) {
      ResilientProvider provider = provider("ollama/qwen2.5-coder", server, SETTINGS);
      assertEquals("Let me compute.", text(run(provider, TASK)));
      assertFalse(JSON.readTree(server.requests().get(0).body()).has("tools"));
    }
  }

  @Test
  void autoOffersToolsToHostedApisOnly() throws Exception {
    Map<String, Boolean> expected = Map.of("openai/gpt-4o", true, "openrouter/meta-llama/llama-3.1-8b-instruct", true,
        "groq/llama-3.3-70b-versatile", true, "gpt-4o", true, "ollama/llama3.1", false, "lmstudio/qwen", false,
        "vllm/Qwen/Qwen2.5-7B-Instruct", false, "llamacpp/x", false, "Qwen/Qwen2.5-7B-Instruct", false);
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(openAiStream(List.of("ok"), "\n", true)).end())) {
      for (Map.Entry<String, Boolean> e : expected.entrySet()) {
        run(provider(e.getKey(), server, SETTINGS), TASK);
        JsonNode body = JSON.readTree(server.requests().get(server.requests().size() - 1).body());
        assertEquals(e.getValue(), body.has("tools"), e.getKey());
      }
      run(provider("ollama/llama3.1", server, SETTINGS.withToolCalling(ToolCalling.ON)), TASK);
      assertTrue(JSON.readTree(server.requests().get(server.requests().size() - 1).body()).has("tools"));
    }
  }
}
