package io.interpreter4j.providers.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.computer.ModelSpace;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.sandbox.Subprocess;
import io.interpreter4j.runtime.session.ProcessDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code computer} and {@code browser} tools offered in tool mode when computer use is on ({@code --computer}):
 * for Anthropic, its native {@code computer_20250124} tool (display size = the model space), for other APIs a
 * {@code computer} function with the same actions; and a {@code browser} function. Their calls become python blocks
 * ({@link ComputerToolCode}).
 */
public final class ComputerTool {

  /** The beta header value the native computer tool needs. */
  public static final String ANTHROPIC_BETA = "computer-use-2025-01-24";
  public static final String ANTHROPIC_TYPE = "computer_20250124";

  static final String SYSTEM_NOTE = """
      # Using the computer
      You can also see the screen and act on it with the `computer` tool (a screenshot comes back as an image; \
      coordinates are in the screenshot's pixels), and drive a web browser with the `browser` tool: `snapshot` \
      names each element with [ref=eN] for `click` and `type`. Prefer the browser for web pages.""";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> COMPUTER_ACTIONS = List.of("screenshot", "left_click", "right_click",
      "middle_click", "double_click", "triple_click", "mouse_move", "left_click_drag", "type", "key", "scroll",
      "wait", "cursor_position");
  private static final List<String> BROWSER_ACTIONS = List.of("go", "snapshot", "click", "type", "press", "view",
      "text");

  private static volatile ModelSpace hostScreen;

  private ComputerTool() {}

  /** Whether this process's sessions use the computer. */
  public static boolean active() {
    return ProcessDefaults.computer().enabled();
  }

  /** The screen in the model's coordinates: the private screen's, or $DISPLAY's as xdotool reads it. */
  static ModelSpace space() {
    ComputerSpec spec = ProcessDefaults.computer();
    String display = System.getenv("DISPLAY");
    if (spec.privateScreen() || display == null || display.isBlank()) {
      return new ModelSpace(spec.settings().width(), spec.settings().height());
    }
    ModelSpace known = hostScreen;
    if (known == null) {
      known = Subprocess.executable("xdotool").map(Path::toString)
          .map(x -> Subprocess.run(List.of(x, "getdisplaygeometry"), null, Map.of(), Duration.ofSeconds(10)))
          .filter(Subprocess.Result::ok)
          .flatMap(r -> parse(r.output()))
          .orElse(new ModelSpace(spec.settings().width(), spec.settings().height()));
      hostScreen = known;
    }
    return known;
  }

  private static Optional<ModelSpace> parse(String geometry) {
    String[] parts = geometry.strip().split("\\s+");
    try {
      return Optional.of(new ModelSpace(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Elements of the Messages API's {@code tools}: the native computer tool and the browser function. */
  public static List<ObjectNode> anthropic() {
    ModelSpace space = space();
    ObjectNode computer = JSON.createObjectNode().put("type", ANTHROPIC_TYPE).put("name", ComputerToolCode.COMPUTER)
        .put("display_width_px", space.width()).put("display_height_px", space.height());
    ObjectNode browser = JSON.createObjectNode().put("name", ComputerToolCode.BROWSER)
        .put("description", BROWSER_DESCRIPTION);
    browser.set("input_schema", browserParameters());
    return List.of(computer, browser);
  }

  /** Elements of Chat Completions' {@code tools}: the computer and browser functions. */
  public static List<ObjectNode> openAi() {
    ObjectNode computer = JSON.createObjectNode().put("type", "function");
    ModelSpace space = space();
    computer.putObject("function").put("name", ComputerToolCode.COMPUTER)
        .put("description", "See the screen (" + space.width() + "x" + space.height() + " pixels) and act on it "
            + "with the mouse and keyboard. screenshot returns an image with a grid every 100 pixels; coordinates "
            + "are [x, y] in its pixels.")
        .set("parameters", computerParameters());
    ObjectNode browser = JSON.createObjectNode().put("type", "function");
    browser.putObject("function").put("name", ComputerToolCode.BROWSER).put("description", BROWSER_DESCRIPTION)
        .set("parameters", browserParameters());
    return List.of(computer, browser);
  }

  private static final String BROWSER_DESCRIPTION = "Drive a web browser: go to a url, snapshot the page's "
      + "accessibility tree (each element with [ref=eN]), click or type into an element by its ref, press a key, "
      + "view a screenshot of the page, or read its text.";

  private static ObjectNode computerParameters() {
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    ObjectNode p = schema.putObject("properties");
    ArrayNode actions = p.putObject("action").put("type", "string").putArray("enum");
    COMPUTER_ACTIONS.forEach(actions::add);
    coordinate(p.putObject("coordinate"), "[x, y]: where to click, move, scroll, or where a drag ends");
    coordinate(p.putObject("start_coordinate"), "[x, y]: where a left_click_drag starts");
    p.putObject("text").put("type", "string").put("description", "type: the text; key: a key or chord "
        + "(xdotool names: Return, ctrl+a)");
    p.putObject("scroll_direction").put("type", "string").putArray("enum").add("up").add("down").add("left")
        .add("right");
    p.putObject("scroll_amount").put("type", "integer").put("description", "wheel steps");
    p.putObject("duration").put("type", "number").put("description", "wait: seconds");
    schema.putArray("required").add("action");
    return schema;
  }

  private static void coordinate(ObjectNode node, String description) {
    node.put("type", "array").put("description", description).put("minItems", 2).put("maxItems", 2)
        .putObject("items").put("type", "integer");
  }

  private static ObjectNode browserParameters() {
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    ObjectNode p = schema.putObject("properties");
    ArrayNode actions = p.putObject("action").put("type", "string").putArray("enum");
    BROWSER_ACTIONS.forEach(actions::add);
    p.putObject("url").put("type", "string").put("description", "go: the address");
    p.putObject("ref").put("type", "string").put("description", "click, type: the element's ref from snapshot");
    p.putObject("text").put("type", "string").put("description", "type: the text");
    p.putObject("submit").put("type", "boolean").put("description", "type: press Enter after typing");
    p.putObject("key").put("type", "string").put("description", "press: a key, e.g. Enter");
    schema.putArray("required").add("action");
    return schema;
  }
}
