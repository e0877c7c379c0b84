package io.interpreter4j.core.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a block's output came from: the {@code stream} of an {@code output} event. */
public enum StreamName {
  STDOUT, STDERR;

  /** The name on the wire, in lower case. */
  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static StreamName fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }

  @Override
  public String toString() {
    return wire();
  }
}
