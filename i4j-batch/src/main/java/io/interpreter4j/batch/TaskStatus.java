package io.interpreter4j.batch;

import io.interpreter4j.core.event.TurnStatus;

import java.util.Locale;

/** How a task ended, as written in the results file. */
public enum TaskStatus {
  /** The model answered without a code block. */
  DONE,
  /** A model call failed for good. */
  FAILED,
  /** The self-healing bounds stopped the loop. */
  GAVE_UP,
  /** The task ran past its wall-clock limit; its session and processes were stopped. */
  TIMEOUT,
  /** A block needed approval and no one could give it (a batch without -y). */
  BLOCKED,
  /** The session could not start, crashed, or was interrupted by someone else. */
  ERROR;

  /** The name in JSON: {@code done}, {@code gave_up}, ... */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TaskStatus fromWire(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT));
  }

  /**
   * The task status for a session's {@code turn_finished} status; {@code interrupted} is a timeout when the
   * batch interrupted it for that, else an error (someone else interrupted it).
   */
  public static TaskStatus fromTurn(TurnStatus turnStatus, boolean timedOut) {
    return switch (turnStatus) {
      case DONE -> DONE;
      case FAILED -> FAILED;
      case GAVE_UP -> GAVE_UP;
      case BLOCKED -> BLOCKED;
      case INTERRUPTED -> timedOut ? TIMEOUT : ERROR;
    };
  }
}
