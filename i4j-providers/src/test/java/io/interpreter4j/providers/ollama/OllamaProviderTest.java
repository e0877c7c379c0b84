package io.interpreter4j.providers.ollama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.image.Vision;
import io.interpreter4j.core.image.VisionSettings;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.prompt.PromptBuilder;
import io.interpreter4j.providers.ProviderRegistry;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.providers.tools.ToolCalling;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ollama/} models through the registry against a stand-in Ollama on 127.0.0.1:0 (found through
 * {@code OLLAMA_HOST}) that answers {@code POST /api/chat} as Ollama does: {@code application/x-ndjson}, one JSON
 * object per line, the last with {@code "done": true} and the token counts.
 */
class OllamaProviderTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ProviderSettings SETTINGS = ProviderSettings.defaults()
      .withRetry(3, Duration.ofMillis(10), Duration.ofSeconds(5))
      .withStallTimeout(Duration.ofSeconds(10));
  private static final List<ChatMessage> HELLO = List.of(ChatMessage.system("You are terse."),
      ChatMessage.user("Say hello"));

  @TempDir
  Path dir;

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(SYSTEM).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  @Test
  void streamsTextAndTokenCountsFromJsonLinesCutAcrossTcpWrites() throws Exception {
    try (FakeModelServer ollama = FakeModelServer.start(
        ex -> ex.startChunked(200, "application/x-ndjson", Map.of())
            .chunksOf(7, reply("llama3.1:8b", List.of("Hel", "lo, ", "wörld ✓"), 26, 5)).end())) {
      ModelProvider provider = ollama("ollama/llama3.1:8b", ollama, SETTINGS);

      List<LlmChunk> chunks = run(provider.stream(new ModelRequest("", HELLO)));

      assertEquals("ollama/llama3.1:8b", provider.name());
      assertEquals("Hello, wörld ✓", text(chunks));
      assertEquals(new LlmChunk.Usage(26, 5), chunks.get(chunks.size() - 1));
      FakeModelServer.Request request = ollama.requests().get(0);
      assertEquals("POST", request.method());
      assertEquals("/api/chat", request.path());
      assertEquals("application/x-ndjson", request.headers().get("accept"));
      JsonNode body = JSON.readTree(request.body());
      assertEquals("llama3.1:8b", body.path("model").asText());
      assertTrue(body.path("stream").asBoolean());
      assertEquals("system", body.at("/messages/0/role").asText());
      assertEquals("Say hello", body.at("/messages/1/content").asText());
      assertFalse(body.has("options"), "no options unless a context window is set: " + body);
      assertFalse(body.has("tools"));
    }
  }

  @Test
  void aBlocksImageArrivesScaledAsRawBase64InTheResultsImages() throws Exception {
    ImageRef wide = png("wide.png", 3000, 1000);

    JsonNode body = send("ollama/llava:13b", SETTINGS, conversation(wide));

    JsonNode last = body.path("messages").get(3);
    assertEquals("user", last.path("role").asText());
    assertTrue(last.path("content").asText().contains("[image 3000x1000 PNG: " + wide.path() + "]"));
    assertEquals(1, last.path("images").size());
    String image = last.path("images").get(0).asText();
    assertFalse(image.startsWith("data:"), "raw base64, no data: URL");
    BufferedImage sent = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(image)));
    assertEquals(1568, sent.getWidth());
    assertEquals(523, sent.getHeight());
    for (int i = 0; i < 3; i++) {
      assertFalse(body.path("messages").get(i).has("images"), "only the result carries the image");
    }
  }

  @Test
  void withoutVisionTheResultHasItsTextLineAndNoImages() throws Exception {
    ImageRef small = png("small.png", 640, 480);
    ProviderSettings off = SETTINGS.withVision(VisionSettings.defaults().withMode(Vision.OFF));

    for (JsonNode body : List.of(send("ollama/llava:13b", off, conversation(small)),
        send("ollama/llama3.1:8b", SETTINGS, conversation(small)))) {
      JsonNode last = body.path("messages").get(3);
      assertTrue(last.path("content").asText().endsWith("[image 640x480 PNG: " + small.path() + "]"));
      assertFalse(body.toString().contains("\"images\""), body.toString());
    }
  }

  @Test
  void anImageWhoseFileIsGoneBecomesANoteInTheText() throws Exception {
    ImageRef gone = new ImageRef(dir.resolve("gone.png").toString(), "image/png", 640, 480);

    JsonNode last = send("ollama/llava:13b", SETTINGS, conversation(gone)).path("messages").get(3);

    assertTrue(last.path("content").asText().endsWith("\n[image not sent: " + gone.path() + ": the file is gone]"),
        last.path("content").asText());
    assertFalse(last.has("images"));
  }

  @Test
  void aSetContextWindowIsSentAsNumCtx() throws Exception {
    JsonNode body = send("ollama/llama3.1:8b", SETTINGS.withContextWindow(32768, 4096), HELLO);

    assertEquals(32768, body.at("/options/num_ctx").asInt());
  }

  @Test
  void anErrorLineIsAClearModelErrorAndNotRetried() throws Exception {
    try (FakeModelServer ollama = FakeModelServer.start(ex -> ex.startChunked(200, "application/x-ndjson", Map.of())
        .chunk(line("llava:13b", "The", false))
        .chunk("{\"error\":\"an error was encountered while running the model: unexpected EOF\"}\n").end())) {
      ModelException e = failure(ollama("ollama/llava:13b", ollama, SETTINGS).stream(new ModelRequest("", HELLO)));

      assertTrue(e.getMessage().contains("http://127.0.0.1:" + ollama.port() + " reported an error: an error was "
          + "encountered while running the model: unexpected EOF"), e.getMessage());
      assertFalse(e.retryable());
      assertEquals(1, ollama.requests().size());
    }
  }

  @Test
  void aModelNotPulledSaysHowToPullIt() throws Exception {
    try (FakeModelServer ollama = FakeModelServer.start(ex -> ex.respond(404, "application/json",
        "{\"error\":\"model \\\"llava:13b\\\" not found, try pulling it first\"}", Map.of()))) {
      ModelException e = failure(ollama("ollama/llava:13b", ollama, SETTINGS).stream(new ModelRequest("", HELLO)));

      assertTrue(e.getMessage().startsWith("model 'llava:13b' not found at http://127.0.0.1:" + ollama.port()
          + " (404): check the model name (ollama pull llava:13b) and OLLAMA_HOST or --api-base"), e.getMessage());
      assertTrue(e.getMessage().contains("try pulling it first"), e.getMessage());
      assertFalse(e.retryable());
    }
  }

  @Test
  void aStreamCutBeforeItsDoneLineIsRetried() throws Exception {
    try (FakeModelServer ollama = FakeModelServer.start(
        ex -> ex.startChunked(200, "application/x-ndjson", Map.of()).close(),
        ex -> ex.startChunked(200, "application/x-ndjson", Map.of())
            .chunk(reply("llama3.1:8b", List.of("second try"), 3, 2)).end())) {
      assertEquals("second try", text(run(ollama("ollama/llama3.1:8b", ollama, SETTINGS)
          .stream(new ModelRequest("", HELLO)))));
      assertEquals(2, ollama.requests().size());
    }
  }

  @Test
  void aStreamWithoutItsDoneLineFailsNamingTheMissingEnd() throws Exception {
    try (FakeModelServer ollama = FakeModelServer.start(ex -> ex.startChunked(200, "application/x-ndjson", Map.of())
        .chunk(line("llama3.1:8b", "", false)).end())) {
      ModelException e = failure(ollama("ollama/llama3.1:8b", ollama,
          SETTINGS.withRetry(1, Duration.ofMillis(10), Duration.ofSeconds(5))).stream(new ModelRequest("", HELLO)));

      assertTrue(e.getMessage().contains("(no line with \"done\": true): the server ended the response"),
          e.getMessage());
    }
  }

  @Test
  void cancellingAfterTheFirstChunkClosesTheConnection() throws Exception {
    CompletableFuture<Boolean> closed = new CompletableFuture<>();
    try (FakeModelServer ollama = FakeModelServer.start(ex -> {
      ex.startChunked(200, "application/x-ndjson", Map.of()).chunk(line("llama3.1:8b", "first", false));
      closed.complete(ex.awaitClientClose(20_000));
    })) {
      List<LlmChunk> first = run(ollama("ollama/llama3.1:8b", ollama, SETTINGS)
          .stream(new ModelRequest("", HELLO)).take(1));

      assertEquals(List.of(new LlmChunk.TextDelta("first")), first);
      assertTrue(closed.get(30, TimeUnit.SECONDS), "the server saw the connection close");
    }
  }

  @Test
  void toolCallingOnOrAnApiBaseKeepOllamasOpenAiCompatibleV1() throws Exception {
    try (FakeModelServer ollama = FakeModelServer.start(ex -> ex.startEventStream()
        .chunk(FakeModelServer.openAiStream(List.of("ok"), "\n", true)).end())) {
      run(ollama("ollama/qwen2.5-coder:7b", ollama, SETTINGS.withToolCalling(ToolCalling.ON))
          .stream(new ModelRequest("", HELLO)));
      run(ProviderRegistry.create("ollama/qwen2.5-coder:7b", Optional.of(ollama.baseUrl()), Optional.empty(),
          Map.of(), SYSTEM, SETTINGS).stream(new ModelRequest("", HELLO)));

      assertEquals("/v1/chat/completions", ollama.requests().get(0).path());
      assertTrue(JSON.readTree(ollama.requests().get(0).body()).has("tools"));
      assertEquals("/v1/chat/completions", ollama.requests().get(1).path());
      assertFalse(JSON.readTree(ollama.requests().get(1).body()).has("tools"));
    }
  }

  private JsonNode send(String model, ProviderSettings settings, List<ChatMessage> messages) throws Exception {
    String name = model.substring("ollama/".length());
    try (FakeModelServer ollama = FakeModelServer.start(ex -> ex.startChunked(200, "application/x-ndjson", Map.of())
        .chunk(reply(name, List.of("I see it."), 40, 4)).end())) {
      assertFalse(run(ollama(model, ollama, settings).stream(new ModelRequest("", messages))).isEmpty());
      return JSON.readTree(ollama.requests().get(0).body());
    }
  }

  /** The registry's provider for {@code model}, with {@code OLLAMA_HOST} pointing at the stand-in. */
  private static ModelProvider ollama(String model, FakeModelServer server, ProviderSettings settings) {
    return ProviderRegistry.create(model, Optional.empty(), Optional.empty(),
        Map.of("OLLAMA_HOST", "127.0.0.1:" + server.port()), SYSTEM, settings);
  }

  /** A whole reply as Ollama streams it: a line per piece, then the done line with its counts. */
  private static String reply(String model, List<String> pieces, int promptTokens, int outputTokens) {
    StringBuilder sb = new StringBuilder();
    pieces.forEach(p -> sb.append(line(model, p, false)));
    return sb.append("{\"model\":\"").append(model).append("\",\"created_at\":\"2026-12-03T15:00:01.5Z\","
        + "\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done_reason\":\"stop\",\"done\":true,"
        + "\"total_duration\":4883583458,\"load_duration\":1334875,\"prompt_eval_count\":").append(promptTokens)
        .append(",\"prompt_eval_duration\":342546000,\"eval_count\":").append(outputTokens)
        .append(",\"eval_duration\":4535599000}\n").toString();
  }

  private static String line(String model, String content, boolean done) {
    return "{\"model\":\"" + model + "\",\"created_at\":\"2026-12-03T15:00:01Z\",\"message\":{\"role\":\"assistant\","
        + "\"content\":" + JSON.valueToTree(content) + "},\"done\":" + done + "}\n";
  }

  private static List<LlmChunk> run(Source<LlmChunk, ?> source) throws Exception {
    return source.runWith(Sink.seq(), SYSTEM).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static String text(List<LlmChunk> chunks) {
    return chunks.stream().filter(c -> c instanceof LlmChunk.TextDelta)
        .map(c -> ((LlmChunk.TextDelta) c).text()).collect(Collectors.joining());
  }

  private static ModelException failure(Source<LlmChunk, ?> source) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> run(source));
    return assertInstanceOf(ModelException.class, e.getCause());
  }

  private static List<ChatMessage> conversation(ImageRef image) {
    return List.of(ChatMessage.system("You run code."), ChatMessage.user("Plot a gradient."),
        ChatMessage.assistant("```python\nplot()\n```"), ChatMessage.user(PromptBuilder.blockResult(1, "python", 0,
            false, false, "", null, List.of(PromptBuilder.imageNote(image.width(), image.height(), "PNG",
                image.path()))), List.of(image)));
  }

  private ImageRef png(String name, int width, int height) throws IOException {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    for (int x = 0; x < width; x++) {
      for (int y = 0; y < height; y += 50) {
        image.setRGB(x, y, (x * 255 / width) << 16 | (y * 255 / height) << 8);
      }
    }
    Path file = dir.resolve(name);
    ImageIO.write(image, "png", file.toFile());
    return new ImageRef(file.toString(), "image/png", width, height);
  }
}
