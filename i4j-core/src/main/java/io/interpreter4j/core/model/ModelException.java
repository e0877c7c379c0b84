package io.interpreter4j.core.model;

import java.time.Duration;
import java.util.Optional;

/**
 * A model call failed. {@code retryable} says whether trying again may help (429, 5xx, reset);
 * {@code retryAfter} carries a server's Retry-After hint.
 */
public class ModelException extends RuntimeException {
  private final boolean retryable;
  private final Duration retryAfter;

  public ModelException(String message, boolean retryable, Duration retryAfter) {
    super(message);
    this.retryable = retryable;
    this.retryAfter = retryAfter;
  }

  public ModelException(String message, boolean retryable) {
    this(message, retryable, null);
  }

  public boolean retryable() { return retryable; }

  public Optional<Duration> retryAfter() { return Optional.ofNullable(retryAfter); }
}
