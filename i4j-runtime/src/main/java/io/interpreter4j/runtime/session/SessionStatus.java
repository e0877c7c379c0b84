package io.interpreter4j.runtime.session;

import io.interpreter4j.core.event.TurnStatus;
import java.util.Locale;

/** What a session is doing now: a step of a running turn, idle before its first turn, or how its last turn ended. */
public enum SessionStatus {
  IDLE, STREAMING, AWAITING_APPROVAL, EXECUTING, DONE, FAILED, GAVE_UP, INTERRUPTED, BLOCKED;

  /** The status after a turn that ended so. */
  public static SessionStatus after(TurnStatus turn) {
    return valueOf(turn.name());
  }

  /** Whether a turn is running. */
  public boolean busy() {
    return this == STREAMING || this == AWAITING_APPROVAL || this == EXECUTING;
  }

  /** The name on the wire and in {@code i4j sessions}: {@code awaiting_approval}, {@code gave_up}, ... */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return wire();
  }
}
