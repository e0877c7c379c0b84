package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code i4j run} as a child process against a fake OpenAI or Anthropic server on 127.0.0.1: the model answers
 * with a tool call running {@code print(6*7)}, and with its final text once the next request gives the call's
 * result, 42, back in the API's own form.
 */
class ToolCallingRunTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Path work;
  private HttpServer server;
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    work = Files.createDirectories(tmp.resolve("work"));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  /** Serves {@code path} with the event stream {@code reply} gives for each request body. */
  private String serve(String path, Function<JsonNode, String> reply) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(path, exchange -> answer(exchange, reply));
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  private void answer(HttpExchange exchange, Function<JsonNode, String> reply) throws IOException {
    try (exchange) {
      JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
      requests.add(body);
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(reply.apply(body).getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException cancelled) {
      // the client stops reading after the first block: that is the interpreter at work
    }
  }

  private CliProcess.Result run(String keyVariable, String... args) throws Exception {
    return CliProcess.finish(CliProcess.start(work, tmp.resolve("data"), tmp.resolve("config"),
        Map.of(keyVariable, "test"), args), null, Duration.ofSeconds(90));
  }

  private static void assertRanPrintAndFinished(CliProcess.Result r, String finalText) throws IOException {
    assertEquals(0, r.exit(), r.stdout() + r.stderr());
    assertTrue(r.stdout().contains("\"type\":\"code_block\",\"block\":1,\"language\":\"python\",\"code\":\"print(6*7)\""),
        r.stdout());
    StringBuilder output = new StringBuilder();
    for (String line : r.stdout().split("\n")) {
      JsonNode event = JSON.readTree(line);
      if (event.path("type").asText().equals("output")) {
        output.append(event.path("text").asText());
      }
    }
    assertEquals("42\n", output.toString(), r.stdout());
    assertTrue(r.stdout().contains(finalText), r.stdout());
    assertTrue(r.stdout().contains("\"type\":\"turn_finished\",\"status\":\"done\""), r.stdout());
  }

  // ---- OpenAI ----

  private static String openAiToolCall() {
    String arguments = "{\"language\": \"python\", \"code\": \"print(6*7)\"}";
    StringBuilder sb = new StringBuilder();
    sb.append("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Computing.\"}}]}\n\n");
    sb.append("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_42\",")
        .append("\"type\":\"function\",\"function\":{\"name\":\"execute\",\"arguments\":\"\"}}]}}]}\n\n");
    for (int i = 0; i < arguments.length(); i += 4) {
      String piece = arguments.substring(i, Math.min(arguments.length(), i + 4));
      sb.append("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":")
          .append("{\"arguments\":").append(JSON.valueToTree(piece).toString()).append("}}]}}]}\n\n");
    }
    sb.append("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n");
    return sb.append("data: [DONE]\n\n").toString();
  }

  private static String openAiText(String text) {
    return "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":" + JSON.valueToTree(text) + "}}]}\n\n"
        + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":5}}\n\ndata: [DONE]\n\n";
  }

  /** The tool message answering call_42 with 42 in it, if the request has one. */
  private static boolean hasOpenAiResult(JsonNode body) {
    for (JsonNode m : body.path("messages")) {
      if (m.path("role").asText().equals("tool") && m.path("tool_call_id").asText().equals("call_42")
          && m.path("content").asText().contains("42\n")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void openAiToolCallRunsAndItsResultGoesBackAsAToolMessage() throws Exception {
    String base = serve("/v1/chat/completions",
        body -> hasOpenAiResult(body) ? openAiText("The answer is 42.") : openAiToolCall());
    CliProcess.Result r = run("OPENAI_API_KEY", "run", "-y", "--json", "--model", "openai/x", "--api-base", base, "what is 6*7?");

    assertRanPrintAndFinished(r, "The answer is 42.");
    assertEquals(2, requests.size());
    assertEquals("execute", requests.get(0).at("/tools/0/function/name").asText());
    JsonNode assistant = requests.get(1).at("/messages/2");
    assertEquals("call_42", assistant.at("/tool_calls/0/id").asText());
    assertEquals("{\"language\": \"python\", \"code\": \"print(6*7)\"}",
        assistant.at("/tool_calls/0/function/arguments").asText());
    assertTrue(hasOpenAiResult(requests.get(1)));
  }

  @Test
  void withToolCallingOffNoToolsAreOffered() throws Exception {
    // The first request has the system prompt and the task; later ones have the reply and its result too.
    String base = serve("/v1/chat/completions", body -> body.path("messages").size() > 2
        ? openAiText("Done: 42.") : openAiText("```python\nprint(6*7)\n```"));
    CliProcess.Result r = run("OPENAI_API_KEY", "run", "-y", "--json", "--tool-calling", "off", "--model", "openai/x",
        "--api-base", base, "what is 6*7?");

    assertRanPrintAndFinished(r, "Done: 42.");
    assertTrue(requests.stream().noneMatch(b -> b.has("tools")));
    assertEquals("user", requests.get(1).at("/messages/3/role").asText());

    CliProcess.Result bad = run("OPENAI_API_KEY", "run", "-y", "--tool-calling", "sometimes", "-m", "openai/x", "x");
    assertEquals(2, bad.exit());
    assertTrue(bad.stderr().contains("'sometimes' is not on, off or auto"), bad.stderr());
  }

  // ---- Anthropic ----

  private static String event(String name, String data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  private static String anthropicToolUse() {
    String input = "{\"language\": \"python\", \"code\": \"print(6*7)\"}";
    StringBuilder sb = new StringBuilder();
    sb.append(event("message_start", "{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":30,"
        + "\"output_tokens\":1}}}"));
    sb.append(event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
        + "{\"type\":\"tool_use\",\"id\":\"toolu_42\",\"name\":\"execute\",\"input\":{}}}"));
    for (int i = 0; i < input.length(); i += 5) {
      sb.append(event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
          + "{\"type\":\"input_json_delta\",\"partial_json\":"
          + JSON.valueToTree(input.substring(i, Math.min(input.length(), i + 5))) + "}}"));
    }
    sb.append(event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"));
    sb.append(event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},"
        + "\"usage\":{\"output_tokens\":20}}"));
    return sb.append(event("message_stop", "{\"type\":\"message_stop\"}")).toString();
  }

  private static String anthropicText(String text) {
    return event("message_start", "{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":60,"
        + "\"output_tokens\":1}}}")
        + event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
        + "{\"type\":\"text\",\"text\":\"\"}}")
        + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
        + "{\"type\":\"text_delta\",\"text\":" + JSON.valueToTree(text) + "}}")
        + event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
        + event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
        + "\"usage\":{\"output_tokens\":5}}")
        + event("message_stop", "{\"type\":\"message_stop\"}");
  }

  /** The tool_result block answering toolu_42 with 42 in it, if the request has one. */
  private static boolean hasAnthropicResult(JsonNode body) {
    for (JsonNode m : body.path("messages")) {
      for (JsonNode block : m.path("content")) {
        if (block.path("type").asText().equals("tool_result") && block.path("tool_use_id").asText().equals("toolu_42")
            && block.path("content").asText().contains("42\n")) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void anthropicToolUseRunsAndItsResultGoesBackAsAToolResultBlock() throws Exception {
    String base = serve("/v1/messages",
        body -> hasAnthropicResult(body) ? anthropicText("The answer is 42.") : anthropicToolUse());
    CliProcess.Result r = run("ANTHROPIC_API_KEY", "run", "-y", "--json", "--model", "anthropic/x", "--api-base", base,
        "what is 6*7?");

    assertRanPrintAndFinished(r, "The answer is 42.");
    assertEquals(2, requests.size());
    assertEquals("execute", requests.get(0).at("/tools/0/name").asText());
    JsonNode assistant = requests.get(1).at("/messages/1");
    assertEquals("tool_use", assistant.at("/content/0/type").asText());
    assertEquals("toolu_42", assistant.at("/content/0/id").asText());
    assertEquals("print(6*7)", assistant.at("/content/0/input/code").asText());
    assertTrue(hasAnthropicResult(requests.get(1)));
  }
}
