package io.interpreter4j.core.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Who decided about a block: the {@code by} of an {@code approval} event (auto-run, a person, the policy rules or the danger analysis). */
public enum DecidedBy {
  AUTO, USER, POLICY;

  /** The name on the wire, in lower case. */
  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static DecidedBy fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }

  @Override
  public String toString() {
    return wire();
  }
}
