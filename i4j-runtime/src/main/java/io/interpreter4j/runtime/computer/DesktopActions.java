package io.interpreter4j.runtime.computer;

import io.interpreter4j.core.computer.ModelSpace;
import io.interpreter4j.core.safety.SecretRedactor;
import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the display, mouse and keyboard actions do on one {@link Desktop}: arguments read and checked (points in
 * model coordinates, mapped to the screen by {@link ModelSpace}; a point off the screen fails before anything
 * moves), the commands run, and a short text for the model. Blocking: runs on the display actor's blocking
 * dispatcher.
 */
final class DesktopActions {

  /** How long a person has to answer an ask-before question. */
  static final Duration GATE_TIMEOUT = Duration.ofMinutes(10);

  private final Desktop desktop;
  private final ModelSpace space;
  private final boolean grid;
  private final SecretRedactor secrets;

  DesktopActions(Desktop desktop, ModelSpace space, boolean grid, SecretRedactor secrets) {
    this.desktop = desktop;
    this.space = space;
    this.grid = grid;
    this.secrets = secrets;
  }

  ModelSpace space() {
    return space;
  }

  ActionOutcome perform(ComputerAction a, ActionGate gate) {
    try {
      return switch (a.target() + "." + a.action()) {
        case "display.view" -> view(a);
        case "display.size" -> ActionOutcome.done(space.width() + "x" + space.height());
        case "mouse.move" -> move(a);
        case "mouse.click" -> click(a);
        case "mouse.scroll" -> scroll(a);
        case "mouse.drag" -> drag(a);
        case "mouse.position" -> position();
        case "keyboard.write" -> write(a, gate);
        case "keyboard.press" -> press(a);
        case "keyboard.hotkey" -> hotkey(a);
        default -> ActionOutcome.failed("the display does not know " + a.target() + "." + a.action());
      };
    } catch (IllegalArgumentException e) {
      return ActionOutcome.failed(e.getMessage());
    }
  }

  private ActionOutcome view(ComputerAction a) {
    Object g = a.args().get("grid");
    boolean withGrid = g instanceof Boolean b ? b : grid;
    BufferedImage image = Screenshots.forModel(desktop.capture(), space, withGrid);
    return new ActionOutcome(true, "screenshot " + space.width() + "x" + space.height()
        + (withGrid ? ", grid every " + Screenshots.GRID + " px" : ""), Optional.of(Screenshots.png(image)),
        Optional.empty());
  }

  private ActionOutcome move(ComputerAction a) {
    ModelSpace.Point p = point(a, "x", "y");
    desktop.move(p.x(), p.y());
    return ActionOutcome.done("moved to " + shown(a, "x", "y"));
  }

  private ActionOutcome click(ComputerAction a) {
    int button = button(a.args().getOrDefault("button", "left"));
    int clicks = integer(a.args().getOrDefault("clicks", 1), "clicks");
    if (clicks < 1 || clicks > 3) {
      throw new IllegalArgumentException("clicks must be 1, 2 or 3, not " + clicks);
    }
    String where;
    Object text = a.args().get("text");
    if (text instanceof String t && !t.isBlank()) {
      BufferedImage screen = desktop.capture();
      OcrWords words = desktop.read(screen);
      Optional<OcrWords.Match> match = words.first(t);
      if (match.isEmpty()) {
        throw new IllegalArgumentException("the text '" + t + "' is not visible on the screen (tesseract read "
            + words.words().size() + " words); look with view() and click at coordinates instead");
      }
      OcrWords.Match m = match.get();
      desktop.move(m.centerX(), m.centerY());
      ModelSpace.Point at = space.toModel(m.centerX(), m.centerY());
      where = " on '" + t + "' at (" + at.x() + ", " + at.y() + ")";
    } else if (a.args().get("x") != null || a.args().get("y") != null) {
      ModelSpace.Point p = point(a, "x", "y");
      desktop.move(p.x(), p.y());
      where = " at " + shown(a, "x", "y");
    } else {
      where = " where the pointer is";
    }
    desktop.click(button, clicks);
    String name = String.valueOf(a.args().getOrDefault("button", "left")).toLowerCase(Locale.ROOT);
    return ActionOutcome.done((clicks == 2 ? "double-" : clicks == 3 ? "triple-" : "") + name + " click" + where);
  }

  private ActionOutcome scroll(ComputerAction a) {
    int dy = integer(a.args().getOrDefault("dy", 0), "dy");
    int dx = integer(a.args().getOrDefault("dx", 0), "dx");
    if (Math.abs(dy) > 100 || Math.abs(dx) > 100) {
      throw new IllegalArgumentException("scroll at most 100 steps at a time");
    }
    if (a.args().get("x") != null || a.args().get("y") != null) {
      ModelSpace.Point p = point(a, "x", "y");
      desktop.move(p.x(), p.y());
    }
    if (dy != 0) {
      desktop.click(dy > 0 ? 5 : 4, Math.abs(dy));
    }
    if (dx != 0) {
      desktop.click(dx > 0 ? 7 : 6, Math.abs(dx));
    }
    return ActionOutcome.done("scrolled " + (dy != 0 ? (dy > 0 ? "down " : "up ") + Math.abs(dy) : "")
        + (dx != 0 ? (dy != 0 ? ", " : "") + (dx > 0 ? "right " : "left ") + Math.abs(dx) : "")
        + (dy == 0 && dx == 0 ? "nothing (dy and dx are 0)" : ""));
  }

  private ActionOutcome drag(ComputerAction a) {
    ModelSpace.Point from = point(a, "x1", "y1");
    ModelSpace.Point to = point(a, "x2", "y2");
    desktop.drag(from.x(), from.y(), to.x(), to.y());
    return ActionOutcome.done("dragged from " + shown(a, "x1", "y1") + " to " + shown(a, "x2", "y2"));
  }

  private ActionOutcome position() {
    int[] p = desktop.pointer();
    ModelSpace.Point m = space.toModel(p[0], p[1]);
    return ActionOutcome.done(m.x() + "," + m.y());
  }

  private ActionOutcome write(ComputerAction a, ActionGate gate) {
    if (!(a.args().get("text") instanceof String text)) {
      throw new IllegalArgumentException("write needs the text to type, as a string");
    }
    boolean secret = Boolean.TRUE.equals(a.args().get("secret")) || !secrets.redact(text).equals(text);
    if (secret && !allowed(gate, "type-password", "type a password or secret into the focused window")) {
      return ActionOutcome.failed("typing a password was not allowed (ask-before: type-password); nothing was typed");
    }
    desktop.type(text);
    return ActionOutcome.done("typed " + text.codePointCount(0, text.length()) + " characters");
  }

  private ActionOutcome press(ComputerAction a) {
    if (!(a.args().get("keys") instanceof String keys)) {
      throw new IllegalArgumentException("press needs a key, e.g. \"enter\" or \"ctrl+a\"");
    }
    int presses = integer(a.args().getOrDefault("presses", 1), "presses");
    if (presses < 1 || presses > 50) {
      throw new IllegalArgumentException("presses must be 1..50, not " + presses);
    }
    String chord = KeyNames.chord(keys);
    for (int i = 0; i < presses; i++) {
      desktop.key(chord);
    }
    return ActionOutcome.done("pressed " + chord + (presses > 1 ? " " + presses + " times" : ""));
  }

  private ActionOutcome hotkey(ComputerAction a) {
    if (!(a.args().get("keys") instanceof List<?> keys) || keys.stream().anyMatch(k -> !(k instanceof String))) {
      throw new IllegalArgumentException("hotkey needs keys as strings, e.g. hotkey(\"ctrl\", \"c\")");
    }
    String chord = KeyNames.chord(keys.stream().map(String.class::cast).toList());
    desktop.key(chord);
    return ActionOutcome.done("pressed " + chord);
  }

  /** The model point named by {@code xName}, {@code yName}, on the screen; off the screen is an error. */
  private ModelSpace.Point point(ComputerAction a, String xName, String yName) {
    return space.toScreen(number(a, xName), number(a, yName));
  }

  /** A point for the model's text: whole numbers without a decimal point. */
  private static String shown(ComputerAction a, String x, String y) {
    return "(" + format(number(a, x)) + ", " + format(number(a, y)) + ")";
  }

  private static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  private static double number(ComputerAction a, String name) {
    Object v = a.args().get(name);
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    throw new IllegalArgumentException(name + " must be a number" + (v == null ? " and is missing" : ", not '" + v + "'"));
  }

  private static int integer(Object v, String name) {
    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
      return n.intValue();
    }
    throw new IllegalArgumentException(name + " must be a whole number, not '" + v + "'");
  }

  private static int button(Object value) {
    return switch (String.valueOf(value).toLowerCase(Locale.ROOT)) {
      case "left" -> 1;
      case "middle" -> 2;
      case "right" -> 3;
      default -> throw new IllegalArgumentException("button must be left, right or middle, not '" + value + "'");
    };
  }

  static boolean allowed(ActionGate gate, String kind, String description) {
    try {
      return gate.allow(kind, description).toCompletableFuture().get(GATE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return false;
    }
  }
}
