package io.interpreter4j.runtime.computer;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code interpreter4j.computer}: whether the model may see the screen and drive the mouse, the keyboard and the
 * browser ({@code --computer}, alias {@code --os}), the size of the private screen, whether screenshots carry a
 * labelled grid, and the kinds of action that ask a person first even under {@code -y}.
 *
 * @param enabled   computer use on
 * @param width     the private screen's width in pixels (used when no {@code $DISPLAY} is set)
 * @param height    its height
 * @param grid      draw a grid every 100 model pixels on {@code view()}
 * @param askBefore the kinds that ask first: {@code type-password}, {@code submit}, {@code download}
 */
public record ComputerSettings(boolean enabled, int width, int height, boolean grid, Set<String> askBefore) {

  /** The kinds of action {@code ask-before} may name. */
  public static final Set<String> KINDS = Set.of("type-password", "submit", "download");

  public static final ComputerSettings OFF = new ComputerSettings(false, 1280, 800, true,
      Set.of("type-password", "submit", "download"));

  public ComputerSettings {
    if (width < 64 || height < 64 || width > 8192 || height > 8192) {
      throw new IllegalArgumentException("interpreter4j.computer.screen must be WIDTHxHEIGHT between 64 and 8192 "
          + "pixels each, not " + width + "x" + height);
    }
    askBefore = Set.copyOf(askBefore);
    for (String kind : askBefore) {
      if (!KINDS.contains(kind)) {
        throw new IllegalArgumentException("interpreter4j.computer.ask-before: unknown kind '" + kind
            + "' (known: " + new TreeSet<>(KINDS) + ")");
      }
    }
  }

  /** Reads {@code interpreter4j.computer} from a config whose defaults come from reference.conf. */
  public static ComputerSettings from(Config root) {
    try {
      Config c = root.getConfig("interpreter4j.computer");
      int[] screen = parseScreen(c.getString("screen"));
      return new ComputerSettings(c.getBoolean("enabled"), screen[0], screen[1], parseGrid(c),
          Set.copyOf(c.getStringList("ask-before")));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  /** "1280x800" as {width, height}. */
  public static int[] parseScreen(String value) {
    String[] parts = value.strip().toLowerCase(Locale.ROOT).split("x");
    try {
      if (parts.length == 2) {
        return new int[] {Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip())};
      }
    } catch (NumberFormatException e) {
      // the message below says what is expected
    }
    throw new IllegalArgumentException("interpreter4j.computer.screen must be WIDTHxHEIGHT, e.g. \"1280x800\", not '"
        + value + "'");
  }

  private static boolean parseGrid(Config c) {
    try {
      return c.getBoolean("grid");
    } catch (ConfigException.WrongType e) {
      return switch (c.getString("grid").strip().toLowerCase(Locale.ROOT)) {
        case "on", "true", "yes" -> true;
        case "off", "false", "no" -> false;
        default -> throw new IllegalArgumentException("interpreter4j.computer.grid must be on or off, not '"
            + c.getString("grid") + "'");
      };
    }
  }

  public ComputerSettings withEnabled(boolean value) {
    return new ComputerSettings(value, width, height, grid, askBefore);
  }

  public ComputerSettings withScreen(int w, int h) {
    return new ComputerSettings(enabled, w, h, grid, askBefore);
  }

  public ComputerSettings withGrid(boolean value) {
    return new ComputerSettings(enabled, width, height, value, askBefore);
  }

  public ComputerSettings withAskBefore(List<String> value) {
    return new ComputerSettings(enabled, width, height, grid, Set.copyOf(value));
  }

  /** Whether an action of {@code kind} asks a person first. */
  public boolean asks(String kind) {
    return askBefore.contains(kind);
  }
}
