package io.interpreter4j.providers.vision;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.providers.anthropic.AnthropicWire;
import io.interpreter4j.providers.openai.OpenAiWire;
import io.interpreter4j.providers.tools.ExecuteCall;
import io.interpreter4j.providers.tools.ToolHistory;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The images of tool results in each wire format: after the results, as the APIs want them. */
class VisionWireTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private List<ToolHistory.Turn> toolTurns(ImageRef image) {
    return List.of(
        new ToolHistory.Plain(ChatMessage.user("Plot it.")),
        new ToolHistory.Calls("", List.of(new ExecuteCall("call_1", "execute",
            "{\"language\": \"python\", \"code\": \"plot()\"}", "python", "plot()"))),
        new ToolHistory.Results(List.of(new ToolHistory.Result("call_1", "Block 1 (python) finished with exit code 0."
            + "\nIt printed no output.\n[image 40x20 PNG: " + image.path() + "]")), "", List.of(image)));
  }

  @Test
  void anthropicPutsTheImageBlocksAfterTheToolResults() throws Exception {
    ImageRef image = png();

    JsonNode body = JSON.readTree(AnthropicWire.requestBody("claude-sonnet-4-5", 1024, toolTurns(image), true));

    JsonNode content = body.path("messages").get(2).path("content");
    assertEquals("tool_result", content.get(0).path("type").asText());
    assertEquals("image", content.get(1).path("type").asText());
    assertEquals(40, decode(content.get(1).path("source").path("data").asText()).getWidth());
  }

  @Test
  void openAiFollowsTheToolMessageWithAUserMessageOfImages() throws Exception {
    ImageRef image = png();

    JsonNode messages = JSON.readTree(OpenAiWire.requestBody("gpt-4o", toolTurns(image), true)).path("messages");

    assertEquals("tool", messages.get(2).path("role").asText());
    assertEquals("user", messages.get(3).path("role").asText());
    String url = messages.get(3).path("content").get(0).path("image_url").path("url").asText();
    assertEquals(20, decode(url.substring("data:image/png;base64,".length())).getHeight());
  }

  private ImageRef png() throws Exception {
    Path file = dir.resolve("outputs-block-1-1.png");
    ImageIO.write(new BufferedImage(40, 20, BufferedImage.TYPE_INT_RGB), "png", file.toFile());
    return new ImageRef(file.toString(), "image/png", 40, 20);
  }

  private static BufferedImage decode(String base64) throws Exception {
    return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(base64)));
  }
}
