package io.interpreter4j.core.safety.analysis;

/** How dangerous a code block is: LOW and MEDIUM may auto-run, HIGH needs a human (or is refused unattended). */
public enum Level {
  LOW,
  MEDIUM,
  HIGH;

  /** The more dangerous of the two. */
  public Level max(Level other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
