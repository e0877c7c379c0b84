package io.interpreter4j.providers.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.providers.anthropic.AnthropicWire;
import io.interpreter4j.runtime.computer.ComputerSettings;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.session.ProcessDefaults;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tools offered with --computer: Anthropic's native tool at the model space's size, and the functions. */
class ComputerToolTest {

  @BeforeEach
  void computerOnAt1920x1080() {
    ProcessDefaults.setComputer(ComputerSpec.of(ComputerSettings.OFF.withEnabled(true).withScreen(1920, 1080))
        .withPrivateScreen(true));
  }

  @AfterEach
  void computerOff() {
    ProcessDefaults.setComputer(ComputerSpec.OFF);
  }

  @Test
  void anthropicGetsItsNativeComputerToolSizedToTheModelSpaceAndTheBrowserFunction() throws Exception {
    JsonNode body = new ObjectMapper().readTree(AnthropicWire.requestBody("claude-sonnet-4-5", 1024,
        ToolHistory.plain(List.of(ChatMessage.user("look at the screen"))), true));
    List<String> names = new ArrayList<>();
    body.path("tools").forEach(t -> names.add(t.path("name").asText()));
    assertEquals(List.of("execute", "computer", "browser"), names);
    JsonNode computer = body.path("tools").get(1);
    assertEquals(ComputerTool.ANTHROPIC_TYPE, computer.path("type").asText());
    assertEquals(List.of(1280, 720), List.of(computer.path("display_width_px").asInt(),
        computer.path("display_height_px").asInt()));
    assertTrue(body.path("tools").get(2).path("input_schema").path("properties").path("action").path("enum")
        .toString().contains("snapshot"));
  }

  @Test
  void otherApisGetComputerAndBrowserFunctionsAndTheSystemNoteSaysSo() {
    List<String> computerActions = new ArrayList<>();
    ComputerTool.openAi().get(0).path("function").path("parameters").path("properties").path("action").path("enum")
        .forEach(a -> computerActions.add(a.asText()));
    assertTrue(computerActions.containsAll(List.of("screenshot", "left_click", "right_click", "double_click",
        "mouse_move", "left_click_drag", "type", "key", "scroll", "wait", "cursor_position")), computerActions.toString());
    assertEquals("browser", ComputerTool.openAi().get(1).path("function").path("name").asText());
    String system = ExecuteTool.withSystemNote(List.of(ChatMessage.system("rules"))).get(0).content();
    assertTrue(system.contains("`computer` tool") && system.contains("`browser` tool"), system);
  }
}
