package io.interpreter4j.api;

/** How a turn ended: the {@code status} of the {@code turn_finished} event (docs/events.md). */
public enum TurnStatus {
  /** The model answered without a code block. */
  DONE,
  /** A model call failed for good, or the session could not go on. */
  FAILED,
  /** The self-healing bounds stopped the loop (too many model calls or failed blocks). */
  GAVE_UP,
  /** The turn was interrupted ({@link Session#interrupt()}, or the session was closed). */
  INTERRUPTED,
  /** A block needed a person's approval and no one could answer (no approver, auto-run off). */
  BLOCKED
}
