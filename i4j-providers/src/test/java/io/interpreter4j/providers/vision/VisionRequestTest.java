package io.interpreter4j.providers.vision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.image.Vision;
import io.interpreter4j.core.image.VisionSettings;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.prompt.PromptBuilder;
import io.interpreter4j.providers.ProviderRegistry;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.context.ContextWindow;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a block's images become in the request bodies of the OpenAI and Anthropic providers, seen by a stand-in server
 * on 127.0.0.1:0 that answers in each API's streaming format: the picture scaled and base64-encoded for a model with
 * vision, the text line alone for one without, the oldest dropped first when the context is tight.
 */
class VisionRequestTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ProviderSettings SETTINGS = ProviderSettings.defaults()
      .withRetry(1, Duration.ofMillis(10), Duration.ofSeconds(1))
      .withStallTimeout(Duration.ofSeconds(10));

  @TempDir
  Path dir;

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(SYSTEM).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  @Test
  void openAiGetsTheScaledImageAsAnImageUrlPartWithADataUrl() throws Exception {
    ImageRef wide = png("wide.png", 3000, 1000);

    JsonNode body = sendOpenAi("openai/gpt-4o", SETTINGS, conversation(wide));

    JsonNode content = lastMessage(body).path("content");
    assertEquals("text", content.get(0).path("type").asText());
    assertTrue(content.get(0).path("text").asText().contains("[image 3000x1000 PNG: " + wide.path() + "]"));
    assertEquals("image_url", content.get(1).path("type").asText());
    String url = content.get(1).path("image_url").path("url").asText();
    assertTrue(url.startsWith("data:image/png;base64,"), url.substring(0, 40));
    BufferedImage sent = decode(url.substring("data:image/png;base64,".length()));
    assertEquals(1568, sent.getWidth());
    assertEquals(523, sent.getHeight());
  }

  @Test
  void anthropicGetsTheScaledImageAsABase64ImageBlock() throws Exception {
    ImageRef wide = png("wide.png", 3000, 1000);
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(anthropicStream("I see a gradient.")).end())) {
      ModelProvider provider = ProviderRegistry.create("anthropic/claude-sonnet-4-5", Optional.of(server.baseUrl()),
          Optional.empty(), Map.of("ANTHROPIC_API_KEY", "sk-ant-test"), SYSTEM, SETTINGS);

      run(provider, conversation(wide));

      JsonNode content = lastMessage(JSON.readTree(server.requests().get(0).body())).path("content");
      assertEquals("text", content.get(0).path("type").asText());
      JsonNode image = content.get(1);
      assertEquals("image", image.path("type").asText());
      assertEquals("base64", image.path("source").path("type").asText());
      assertEquals("image/png", image.path("source").path("media_type").asText());
      BufferedImage sent = decode(image.path("source").path("data").asText());
      assertEquals(1568, sent.getWidth());
      assertEquals(523, sent.getHeight());
    }
  }

  @Test
  void aModelWithoutVisionGetsTheTextLineAndNoImage() throws Exception {
    ImageRef small = png("small.png", 640, 480);

    JsonNode body = sendOpenAi("openai/gpt-3.5-turbo", SETTINGS, conversation(small));

    JsonNode content = lastMessage(body).path("content");
    assertTrue(content.isTextual(), "plain text content, no parts: " + content);
    assertTrue(content.asText().endsWith("[image 640x480 PNG: " + small.path() + "]"), content.asText());
    assertFalse(body.toString().contains("image_url"));
  }

  @Test
  void visionOffLeavesTheImagesOutEvenForAVisionModel() throws Exception {
    ImageRef small = png("small.png", 640, 480);
    ProviderSettings off = SETTINGS.withVision(VisionSettings.defaults().withMode(Vision.OFF));

    JsonNode body = sendOpenAi("openai/gpt-4o", off, conversation(small));

    assertTrue(lastMessage(body).path("content").isTextual());
    assertFalse(body.toString().contains("image_url"));
  }

  @Test
  void visionOnSendsImagesToAModelNotOnTheList() throws Exception {
    ImageRef small = png("small.png", 640, 480);
    ProviderSettings on = SETTINGS.withVision(VisionSettings.defaults().withMode(Vision.ON));

    JsonNode body = sendOpenAi("openai/gpt-3.5-turbo", on, conversation(small));

    assertEquals("image_url", lastMessage(body).path("content").get(1).path("type").asText());
  }

  @Test
  void whenTheContextIsTightTheOldestImagesAreDroppedFirstWithANote() throws Exception {
    ImageRef first = png("first.png", 640, 480);
    ImageRef second = png("second.png", 640, 480);
    List<ChatMessage> messages = new ArrayList<>(List.of(
        ChatMessage.system("You run code."),
        ChatMessage.user("Plot it twice."),
        ChatMessage.assistant("```python\nplot()\n```"),
        ChatMessage.user(result(1, first), List.of(first)),
        ChatMessage.assistant("```python\nplot()\n```"),
        ChatMessage.user(result(2, second), List.of(second))));
    // Each 640x480 image costs 410 tokens; the text about 100: with a budget of 750 only one image fits.
    ProviderSettings tight = SETTINGS.withContextWindow(1000, 250);

    JsonNode body = sendOpenAi("openai/gpt-4o", tight, messages);

    JsonNode sent = body.path("messages");
    JsonNode older = sent.get(3).path("content");
    assertTrue(older.isTextual(), "the first result went without its image: " + older);
    assertTrue(older.asText().endsWith(ContextWindow.droppedImageNote(first)), older.asText());
    JsonNode newer = sent.get(5).path("content");
    assertEquals("image_url", newer.get(1).path("type").asText(), "the latest image is kept");
  }

  @Test
  void anImageWhoseFileIsGoneBecomesANoteInItsPlace() throws Exception {
    ImageRef gone = new ImageRef(dir.resolve("gone.png").toString(), "image/png", 640, 480);

    JsonNode body = sendOpenAi("openai/gpt-4o", SETTINGS, conversation(gone));

    JsonNode content = lastMessage(body).path("content");
    assertEquals("[image not sent: " + gone.path() + ": the file is gone]", content.get(1).path("text").asText());
    assertFalse(body.toString().contains("image_url"));
  }

  private JsonNode sendOpenAi(String model, ProviderSettings settings, List<ChatMessage> messages) throws Exception {
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.startEventStream()
        .chunk(FakeModelServer.openAiStream(List.of("I see it."), "\n", true)).end())) {
      ModelProvider provider = ProviderRegistry.create(model, Optional.of(server.baseUrl()), Optional.empty(),
          Map.of("OPENAI_API_KEY", "sk-test"), SYSTEM, settings);
      run(provider, messages);
      return JSON.readTree(server.requests().get(0).body());
    }
  }

  private static void run(ModelProvider provider, List<ChatMessage> messages) throws Exception {
    List<LlmChunk> chunks = provider.stream(new ModelRequest("", messages)).runWith(Sink.seq(), SYSTEM)
        .toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertFalse(chunks.isEmpty());
  }

  private static List<ChatMessage> conversation(ImageRef image) {
    return List.of(ChatMessage.system("You run code."), ChatMessage.user("Plot a gradient."),
        ChatMessage.assistant("```python\nplot()\n```"), ChatMessage.user(result(1, image), List.of(image)));
  }

  private static String result(int block, ImageRef image) {
    return PromptBuilder.blockResult(block, "python", 0, false, false, "", null,
        List.of(PromptBuilder.imageNote(image.width(), image.height(), "PNG", image.path())));
  }

  /** A whole text reply as Anthropic's Messages API streams it. */
  private static String anthropicStream(String text) {
    return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":"
        + "\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\","
        + "\"usage\":{\"input_tokens\":1100,\"output_tokens\":1}}}\n\n"
        + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
        + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
        + "\"delta\":{\"type\":\"text_delta\",\"text\":" + FakeModelServer.jsonString(text) + "}}\n\n"
        + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
        + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
        + "\"usage\":{\"output_tokens\":5}}\n\n"
        + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
  }

  private static JsonNode lastMessage(JsonNode body) {
    JsonNode messages = body.path("messages");
    return messages.get(messages.size() - 1);
  }

  private static BufferedImage decode(String base64) throws IOException {
    return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(base64)));
  }

  private ImageRef png(String name, int width, int height) throws IOException {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, (x * 255 / width) << 16 | (y * 255 / height));
      }
    }
    Path file = dir.resolve(name);
    ImageIO.write(image, "png", file.toFile());
    return new ImageRef(file.toString(), "image/png", width, height);
  }
}
