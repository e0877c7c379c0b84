package io.interpreter4j.providers.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Locale;

/**
 * A call of the {@code computer} or {@code browser} tool as the python block that performs it through the session's
 * {@code computer} API, so that it is approved, run, journaled and answered like any other block (its screenshot
 * becomes the block's image). The {@code computer} actions are those of Anthropic's {@code computer_20250124} tool;
 * coordinates are in the model's space. Arguments that are wrong become a block that raises with the reason. Pure.
 */
public final class ComputerToolCode {

  public static final String COMPUTER = "computer";
  public static final String BROWSER = "browser";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ComputerToolCode() {}

  /** Whether {@code name} is one of these tools. */
  public static boolean handles(String name) {
    return COMPUTER.equals(name) || BROWSER.equals(name);
  }

  /**
   * The python code for one call.
   *
   * @param name      {@code computer} or {@code browser}
   * @param arguments the call's arguments, a JSON object
   * @param grid      screenshots with the grid ({@code false} for the native tool, whose model knows the screen)
   */
  public static String python(String name, String arguments, boolean grid) {
    JsonNode args;
    try {
      args = JSON.readTree(arguments == null || arguments.isBlank() ? "{}" : arguments);
    } catch (IOException e) {
      return fail("the " + name + " tool's arguments are not JSON: " + e.getMessage().lines().findFirst().orElse(""));
    }
    if (args == null || !args.isObject()) {
      return fail("the " + name + " tool's arguments must be a JSON object");
    }
    String action = args.path("action").asText("");
    try {
      return COMPUTER.equals(name) ? computer(action, args, grid) : browser(action, args);
    } catch (IllegalArgumentException e) {
      return fail(e.getMessage());
    }
  }

  private static String computer(String action, JsonNode args, boolean grid) {
    String view = "computer.display.view(" + (grid ? "" : "grid=False") + ")";
    return switch (action) {
      case "screenshot" -> print(view);
      case "left_click" -> print(click(args, "\"left\"", 1));
      case "right_click" -> print(click(args, "\"right\"", 1));
      case "middle_click" -> print(click(args, "\"middle\"", 1));
      case "double_click" -> print(click(args, "\"left\"", 2));
      case "triple_click" -> print(click(args, "\"left\"", 3));
      case "mouse_move" -> print("computer.mouse.move(" + point(args, "coordinate") + ")");
      case "left_click_drag" -> print("computer.mouse.drag(" + point(args, "start_coordinate") + ", "
          + point(args, "coordinate") + ")");
      case "type" -> print("computer.keyboard.write(" + string(args, "text") + ")");
      case "key", "hold_key" -> print("computer.keyboard.press(" + string(args, "text") + ")");
      case "scroll" -> print(scroll(args));
      case "wait" -> "import time\ntime.sleep(" + seconds(args) + ")\n" + print(view);
      case "cursor_position" -> print("computer.mouse.position()");
      case "" -> throw new IllegalArgumentException("the computer tool needs an action");
      default -> throw new IllegalArgumentException("the computer tool has no action '" + action + "' here; use "
          + "screenshot, left_click, right_click, middle_click, double_click, triple_click, mouse_move, "
          + "left_click_drag, type, key, scroll, wait or cursor_position");
    };
  }

  private static String browser(String action, JsonNode args) {
    return switch (action) {
      case "go" -> print("computer.browser.go(" + string(args, "url") + ")");
      case "snapshot" -> print("computer.browser.snapshot()");
      case "click" -> print("computer.browser.click(" + string(args, "ref") + ")");
      case "type" -> print("computer.browser.type(" + string(args, "ref") + ", " + string(args, "text")
          + (args.path("submit").asBoolean(false) ? ", submit=True" : "") + ")");
      case "press" -> print("computer.browser.press(" + string(args, "key") + ")");
      case "view" -> print("computer.browser.view()");
      case "text" -> print("computer.browser.text()");
      case "" -> throw new IllegalArgumentException("the browser tool needs an action");
      default -> throw new IllegalArgumentException("the browser tool has no action '" + action + "'; use go, "
          + "snapshot, click, type, press, view or text");
    };
  }

  private static String click(JsonNode args, String button, int clicks) {
    String at = args.has("coordinate") && !args.get("coordinate").isNull() ? point(args, "coordinate") + ", " : "";
    return "computer.mouse.click(" + at + "button=" + button + (clicks > 1 ? ", clicks=" + clicks : "") + ")";
  }

  private static String scroll(JsonNode args) {
    String direction = args.path("scroll_direction").asText("down").toLowerCase(Locale.ROOT);
    int amount = args.path("scroll_amount").asInt(3);
    String at = args.has("coordinate") && !args.get("coordinate").isNull()
        ? ", x=" + coordinate(args, "coordinate", 0) + ", y=" + coordinate(args, "coordinate", 1) : "";
    return switch (direction) {
      case "down" -> "computer.mouse.scroll(" + amount + at + ")";
      case "up" -> "computer.mouse.scroll(" + -amount + at + ")";
      case "right" -> "computer.mouse.scroll(0, dx=" + amount + at + ")";
      case "left" -> "computer.mouse.scroll(0, dx=" + -amount + at + ")";
      default -> throw new IllegalArgumentException("scroll_direction must be up, down, left or right, not '"
          + direction + "'");
    };
  }

  private static String point(JsonNode args, String field) {
    return coordinate(args, field, 0) + ", " + coordinate(args, field, 1);
  }

  private static String coordinate(JsonNode args, String field, int index) {
    JsonNode c = args.get(field);
    if (c == null || !c.isArray() || c.size() != 2 || !c.get(index).isNumber()) {
      throw new IllegalArgumentException(field + " must be [x, y], two numbers in screenshot coordinates");
    }
    return c.get(index).isIntegralNumber() ? Long.toString(c.get(index).asLong())
        : Double.toString(c.get(index).asDouble());
  }

  private static String seconds(JsonNode args) {
    double d = args.path("duration").asDouble(1);
    return Double.toString(Math.max(0, Math.min(60, d)));
  }

  /** A python string literal of the field's text (JSON's escapes are python's too). */
  private static String string(JsonNode args, String field) {
    JsonNode v = args.get(field);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException(field + " is missing");
    }
    return JSON.valueToTree(v.asText()).toString();
  }

  private static String print(String call) {
    return "print(" + call + ")";
  }

  private static String fail(String reason) {
    return "raise ComputerError(" + JSON.valueToTree(reason).toString() + ")";
  }
}
