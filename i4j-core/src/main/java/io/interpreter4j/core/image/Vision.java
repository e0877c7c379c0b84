package io.interpreter4j.core.image;

import java.util.Locale;

/**
 * Whether the model gets a block's images themselves ({@code --vision}, {@code interpreter4j.vision.mode}): always
 * (ON), never (OFF: the text line {@code [image WxH FORMAT: PATH]} only), or when the model is known to accept
 * images (AUTO: its name matches a glob of {@code interpreter4j.vision.models}).
 */
public enum Vision {
  ON, OFF, AUTO;

  /** "on", "off", "auto" (also true/false, yes/no), any case. */
  public static Vision parse(String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "on", "true", "yes" -> ON;
      case "off", "false", "no" -> OFF;
      case "auto" -> AUTO;
      default -> throw new IllegalArgumentException("interpreter4j.vision.mode must be on, off or auto, not '"
          + value + "'");
    };
  }
}
