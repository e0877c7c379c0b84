package io.interpreter4j.core.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What was decided about a block: the {@code decision} of an {@code approval} event. */
public enum ApprovalDecision {
  APPROVED, DENIED, EDITED;

  /** The name on the wire, in lower case. */
  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static ApprovalDecision fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }

  /** Whether the block runs (as written, or as edited). */
  public boolean runs() {
    return this != DENIED;
  }

  @Override
  public String toString() {
    return wire();
  }
}
