package io.interpreter4j.core.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a turn ended: the {@code status} of a {@code turn_finished} event. */
public enum TurnStatus {
  /** The model answered and every block it wrote ran. */
  DONE,
  /** A model call failed for good, or a part of the runtime crashed or could not write the journal. */
  FAILED,
  /** The self-healing loop stopped: iteration limit, failures in a row, or the same error twice. */
  GAVE_UP,
  /** The user interrupted the model, the approval question or the running block. */
  INTERRUPTED,
  /** A block needed a person's approval and no one could be asked. */
  BLOCKED;

  /** The name on the wire: {@code done}, {@code gave_up}, ... */
  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static TurnStatus fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }

  @Override
  public String toString() {
    return wire();
  }
}
