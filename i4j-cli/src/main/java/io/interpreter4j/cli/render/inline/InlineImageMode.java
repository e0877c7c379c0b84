package io.interpreter4j.cli.render.inline;

import java.util.Locale;
import java.util.Map;

/**
 * {@code --inline-images on|off|auto} (config {@code interpreter4j.terminal.inline-images}): whether images a block
 * shows are drawn in the terminal, under their {@code image WxH · PATH} line.
 */
public enum InlineImageMode {
  /** Always: the detected protocol, or sixel (the most widely supported) when none is detected. */
  ON,
  /** Never. */
  OFF,
  /** When stdout is a terminal shown with colours and {@link TerminalGraphics} recognises it. */
  AUTO;

  /** Where the mode is configured; {@code --inline-images} sets it. */
  public static final String CONFIG_PATH = "interpreter4j.terminal.inline-images";

  /** The configured mode; IllegalArgumentException naming the key when its value is none of the three. */
  public static InlineImageMode from(com.typesafe.config.Config config) {
    if (!config.hasPath(CONFIG_PATH)) {
      return AUTO;
    }
    try {
      return of(config.getString(CONFIG_PATH));
    } catch (IllegalArgumentException | com.typesafe.config.ConfigException e) {
      throw new IllegalArgumentException(CONFIG_PATH + ": " + e.getMessage());
    }
  }

  public static InlineImageMode of(String text) {
    for (InlineImageMode mode : values()) {
      if (mode.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
        return mode;
      }
    }
    throw new IllegalArgumentException("inline images must be on, off or auto, not '" + text + "'");
  }

  /**
   * The protocol to draw with, or null for none; {@code richTerminal}: stdout is a terminal shown with colours and
   * frames (not {@code --plain}, {@code NO_COLOR}, {@code TERM=dumb}).
   */
  public ImageProtocol protocol(boolean richTerminal, Map<String, String> env) {
    return switch (this) {
      case OFF -> null;
      case AUTO -> richTerminal ? TerminalGraphics.detect(env) : null;
      case ON -> {
        ImageProtocol detected = TerminalGraphics.detect(env);
        yield detected != null ? detected : ImageProtocol.SIXEL;
      }
    };
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
