package io.interpreter4j.providers.anthropic;

import static io.interpreter4j.providers.testing.FakeModelServer.jsonString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Tool calling over the Messages API against a fake server: tool_use blocks in, tool_result blocks back out. */
class AnthropicToolCallingTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ProviderSettings SETTINGS = ProviderSettings.defaults()
      .withRetry(2, Duration.ofMillis(10), Duration.ofSeconds(1));
  static final String CODE = "import os\nprint(\"cwd:\\t\" + os.getcwd())\nprint(6*7)";
  static final String INPUT = "{\"language\": \"python\", \"code\": "
      + "\"import os\\nprint(\\\"cwd:\\\\t\\\" + os.getcwd())\\nprint(6*7)\"}";
  static final List<ChatMessage> TASK = List.of(ChatMessage.system("You run code."), ChatMessage.user("6*7?"));

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(SYSTEM).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  private static void event(StringBuilder sb, String name, String data) {
    sb.append("event: ").append(name).append("\ndata: ").append(data).append("\n\n");
  }

  /** Text, then a tool_use block whose input comes as input_json_delta pieces of {@code size} characters. */
  static String toolUseStream(String id, String input, int size) {
    StringBuilder sb = new StringBuilder();
    event(sb, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
        + "\"role\":\"assistant\",\"content\":[],\"model\":\"claude-x\",\"stop_reason\":null,"
        + "\"usage\":{\"input_tokens\":40,\"output_tokens\":1}}}");
    event(sb, "content_block_start",
        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
    event(sb, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
        + "\"delta\":{\"type\":\"text_delta\",\"text\":\"I'll run it.\"}}");
    event(sb, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
    event(sb, "content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
        + "{\"type\":\"tool_use\",\"id\":\"" + id + "\",\"name\":\"execute\",\"input\":{}}}");
    event(sb, "ping", "{\"type\": \"ping\"}");
    event(sb, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,"
        + "\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}");
    for (int i = 0; i < input.length(); i += size) {
      event(sb, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
          + "{\"type\":\"input_json_delta\",\"partial_json\":"
          + jsonString(input.substring(i, Math.min(input.length(), i + size))) + "}}");
    }
    event(sb, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}");
    event(sb, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\","
        + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":30}}");
    event(sb, "message_stop", "{\"type\":\"message_stop\"}");
    return sb.toString();
  }

  static String textStream(String text) {
    StringBuilder sb = new StringBuilder();
    event(sb, "message_start", "{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":9,"
        + "\"output_tokens\":1}}}");
    event(sb, "content_block_start",
        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
    event(sb, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
        + "\"delta\":{\"type\":\"text_delta\",\"text\":" + jsonString(text) + "}}");
    event(sb, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
    event(sb, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
        + "\"usage\":{\"output_tokens\":3}}");
    event(sb, "message_stop", "{\"type\":\"message_stop\"}");
    return sb.toString();
  }

  private static ResilientProvider provider(FakeModelServer server, ProviderSettings settings) {
    return ProviderRegistry.create("anthropic/claude-sonnet-4-5", Optional.of(server.baseUrl()),
        Optional.of("sk-ant-test"), Map.of(), SYSTEM, settings);
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
  void aStreamedToolUseRunsAsOneBlockAndGoesBackAsToolUseAndToolResult() throws Exception {
    for (int size : new int[] {1, 2, 3, 4, 7, 11, 1000}) {
      try (FakeModelServer server = FakeModelServer.start(
          ex -> ex.startEventStream().chunksOf(9, toolUseStream("toolu_01A", INPUT, size)).end(),
          ex -> ex.startEventStream().chunk(textStream("It is 42.")).end())) {
        ResilientProvider provider = provider(server, SETTINGS);
        List<LlmChunk> chunks = run(provider, TASK);

        assertEquals("I'll run it.\n" + ToolCallFences.FENCE + "python\n" + CODE + "\n" + ToolCallFences.FENCE
            + "\n", text(chunks), "input in pieces of " + size);
        List<Segment> segments = SessionView.segments(chunks, SYSTEM);
        assertEquals(List.of(new CodeBlock(1, "python", "python", CODE, true, false)), SessionView.blocks(segments));

        JsonNode first = JSON.readTree(server.requests().get(0).body());
        assertEquals("execute", first.at("/tools/0/name").asText());
        assertEquals("object", first.at("/tools/0/input_schema/type").asText());
        assertEquals("You run code.\n\n" + ExecuteTool.SYSTEM_NOTE, first.get("system").asText());

        String result = PromptBuilder.blockResult(1, "python", 0, false, false, "cwd:\t/tmp\n42\n", null);
        List<ChatMessage> history = new ArrayList<>(TASK);
        history.add(ChatMessage.assistant(SessionView.kept(segments)));
        history.add(ChatMessage.user(result));
        assertEquals("It is 42.", text(run(provider, history)));

        JsonNode messages = JSON.readTree(server.requests().get(1).body()).get("messages");
        assertEquals(3, messages.size());
        JsonNode assistant = messages.get(1);
        assertEquals("assistant", assistant.get("role").asText());
        assertEquals("text", assistant.at("/content/0/type").asText());
        assertEquals("I'll run it.", assistant.at("/content/0/text").asText());
        assertEquals("tool_use", assistant.at("/content/1/type").asText());
        assertEquals("toolu_01A", assistant.at("/content/1/id").asText());
        assertEquals("execute", assistant.at("/content/1/name").asText());
        assertEquals(JSON.readTree(INPUT), assistant.at("/content/1/input"));
        JsonNode user = messages.get(2);
        assertEquals("user", user.get("role").asText());
        assertEquals(1, user.get("content").size());
        assertEquals("tool_result", user.at("/content/0/type").asText());
        assertEquals("toolu_01A", user.at("/content/0/tool_use_id").asText());
        assertEquals(result, user.at("/content/0/content").asText());
      }
    }
  }

  @Test
  void aToolResultWithTheUsersNextWordsComesFirstInItsMessage() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(toolUseStream("toolu_9", INPUT, 5)).end(),
        ex -> ex.startEventStream().chunk(textStream("OK.")).end())) {
      ResilientProvider provider = provider(server, SETTINGS);
      List<Segment> segments = SessionView.segments(run(provider, TASK), SYSTEM);
      String declined = PromptBuilder.declined(1, "");
      List<ChatMessage> history = new ArrayList<>(TASK);
      history.add(ChatMessage.assistant(SessionView.kept(segments)));
      history.add(ChatMessage.user(declined + "\n\nUse bash instead."));
      run(provider, history);

      JsonNode user = JSON.readTree(server.requests().get(1).body()).at("/messages/2/content");
      assertEquals("tool_result", user.get(0).get("type").asText());
      assertEquals(declined, user.get(0).get("content").asText());
      assertEquals("text", user.get(1).get("type").asText());
      assertEquals("Use bash instead.", user.get(1).get("text").asText());
    }
  }

  @Test
  void toolCallingOffSendsNoToolsAndShowsNoToolUse() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(toolUseStream("toolu_1", INPUT, 3)).end())) {
      ResilientProvider provider = provider(server, SETTINGS.withToolCalling(ToolCalling.OFF));
      assertEquals("I'll run it.", text(run(provider, TASK)));
      JsonNode body = JSON.readTree(server.requests().get(0).body());
      assertFalse(body.has("tools"));
      assertEquals("You run code.", body.get("system").asText());
      assertTrue(body.at("/messages/0/content").isTextual());
    }
  }
}
