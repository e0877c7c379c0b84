package io.interpreter4j.providers.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComputerToolCodeTest {

  @Test
  void theNativeComputerActionsBecomeCallsOfThePythonApi() {
    assertEquals("print(computer.display.view(grid=False))",
        ComputerToolCode.python("computer", "{\"action\":\"screenshot\"}", false));
    assertEquals("print(computer.display.view())",
        ComputerToolCode.python("computer", "{\"action\":\"screenshot\"}", true));
    assertEquals("print(computer.mouse.click(640, 360, button=\"left\"))",
        ComputerToolCode.python("computer", "{\"action\":\"left_click\",\"coordinate\":[640,360]}", true));
    assertEquals("print(computer.mouse.click(10, 20, button=\"left\", clicks=2))",
        ComputerToolCode.python("computer", "{\"action\":\"double_click\",\"coordinate\":[10,20]}", true));
    assertEquals("print(computer.mouse.click(button=\"right\"))",
        ComputerToolCode.python("computer", "{\"action\":\"right_click\"}", true));
    assertEquals("print(computer.mouse.drag(1, 2, 3, 4))", ComputerToolCode.python("computer",
        "{\"action\":\"left_click_drag\",\"start_coordinate\":[1,2],\"coordinate\":[3,4]}", true));
    assertEquals("print(computer.keyboard.write(\"Ada \\\"Lovelace\\\"\\n\"))",
        ComputerToolCode.python("computer", "{\"action\":\"type\",\"text\":\"Ada \\\"Lovelace\\\"\\n\"}", true));
    assertEquals("print(computer.keyboard.press(\"ctrl+a\"))",
        ComputerToolCode.python("computer", "{\"action\":\"key\",\"text\":\"ctrl+a\"}", true));
    assertEquals("print(computer.mouse.scroll(-5, x=100, y=200))", ComputerToolCode.python("computer",
        "{\"action\":\"scroll\",\"coordinate\":[100,200],\"scroll_direction\":\"up\",\"scroll_amount\":5}", true));
    assertEquals("print(computer.mouse.position())",
        ComputerToolCode.python("computer", "{\"action\":\"cursor_position\"}", true));
    assertEquals("import time\ntime.sleep(2.0)\nprint(computer.display.view())",
        ComputerToolCode.python("computer", "{\"action\":\"wait\",\"duration\":2}", true));
  }

  @Test
  void browserActionsBecomeCallsOfTheBrowserApi() {
    assertEquals("print(computer.browser.go(\"http://127.0.0.1:8080/\"))",
        ComputerToolCode.python("browser", "{\"action\":\"go\",\"url\":\"http://127.0.0.1:8080/\"}", true));
    assertEquals("print(computer.browser.type(\"e3\", \"Ada\", submit=True))",
        ComputerToolCode.python("browser", "{\"action\":\"type\",\"ref\":\"e3\",\"text\":\"Ada\",\"submit\":true}",
            true));
    assertEquals("print(computer.browser.snapshot())",
        ComputerToolCode.python("browser", "{\"action\":\"snapshot\"}", true));
  }

  @Test
  void wrongArgumentsBecomeABlockThatRaisesWithTheReason() {
    assertTrue(ComputerToolCode.python("computer", "{\"action\":\"left_click\",\"coordinate\":[1]}", true)
        .startsWith("raise ComputerError(\"coordinate must be [x, y]"));
    assertTrue(ComputerToolCode.python("computer", "{\"action\":\"fly\"}", true)
        .contains("has no action 'fly'"));
    assertTrue(ComputerToolCode.python("browser", "not json", true).contains("not JSON"));
  }

  @Test
  void aStreamedComputerCallIsWrittenAsOnePythonBlockOnceComplete() {
    List<ExecuteCall> completed = new ArrayList<>();
    ToolCallFences fences = new ToolCallFences(completed::add, "toolu_", true);
    StringBuilder out = new StringBuilder(fences.text("Looking.\n"));
    out.append(fences.call(0, "toolu_1", "computer", "{\"action\": \"left_"));
    assertEquals("Looking.\n", out.toString()); // nothing of the call until it is whole
    out.append(fences.call(0, null, null, "click\", \"coordinate\": [640, 360]}"));
    out.append(fences.finish());
    String code = "print(computer.mouse.click(640, 360, button=\"left\"))";
    assertEquals("Looking.\n" + ToolCallFences.FENCE + "python\n" + code + "\n" + ToolCallFences.FENCE + "\n",
        out.toString());
    assertEquals(1, completed.size());
    assertEquals(List.of("toolu_1", "computer", "python", code), List.of(completed.get(0).id(),
        completed.get(0).name(), completed.get(0).info(), completed.get(0).code()));
    assertEquals("{\"action\": \"left_click\", \"coordinate\": [640, 360]}", completed.get(0).arguments());
  }

  @Test
  void theBlockOfAComputerCallGoesBackAsTheCallAndItsResult() {
    List<ExecuteCall> completed = new ArrayList<>();
    ToolCallFences fences = new ToolCallFences(completed::add, "toolu_", true);
    String reply = fences.call(0, "toolu_7", "computer", "{\"action\":\"screenshot\"}") + fences.finish();
    String kept = reply.replace(ToolCallFences.FENCE, "```"); // the session keeps blocks with plain fences
    String result = io.interpreter4j.core.prompt.PromptBuilder.blockResult(1, "python", 0, false, false,
        "screenshot 1280x720\n", null);
    List<ToolHistory.Turn> turns = ToolHistory.map(List.of(io.interpreter4j.core.model.ChatMessage.user("look"),
        io.interpreter4j.core.model.ChatMessage.assistant(kept), io.interpreter4j.core.model.ChatMessage.user(result)),
        completed);
    assertEquals(new ToolHistory.Calls("", completed), turns.get(1));
    assertEquals(new ToolHistory.Results(List.of(new ToolHistory.Result("toolu_7", result)), ""), turns.get(2));
    assertEquals("{\"action\":\"screenshot\"}", completed.get(0).arguments());
  }
}
