package io.interpreter4j.core.image;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What produced an image: the {@code source} of an {@code image} event. */
public enum ImageSource {
  DISPLAY, MATPLOTLIB, R, SCREENSHOT;

  /** The name on the wire, in lower case. */
  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The source named {@code wire}; IllegalArgumentException naming the known ones otherwise. */
  @JsonCreator
  public static ImageSource fromWire(String wire) {
    for (ImageSource s : values()) {
      if (s.wire().equals(wire)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown image source '" + wire + "' (display, matplotlib, r, screenshot)");
  }

  @Override
  public String toString() {
    return wire();
  }
}
