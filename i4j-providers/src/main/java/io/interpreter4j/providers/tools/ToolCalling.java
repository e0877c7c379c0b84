package io.interpreter4j.providers.tools;

import java.util.Locale;

/**
 * How code reaches interpreter4j ({@code --tool-calling}, {@code interpreter4j.providers.tool-calling}): as markdown
 * fences in the reply (OFF), as calls of one {@code execute} function (ON), or chosen per provider (AUTO: on for the
 * hosted APIs, off for local servers).
 */
public enum ToolCalling {
  ON, OFF, AUTO;

  /** "on", "off", "auto" (also true/false, yes/no), any case. */
  public static ToolCalling parse(String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "on", "true", "yes" -> ON;
      case "off", "false", "no" -> OFF;
      case "auto" -> AUTO;
      default -> throw new IllegalArgumentException("interpreter4j.providers.tool-calling must be on, off or auto, "
          + "not '" + value + "'");
    };
  }
}
