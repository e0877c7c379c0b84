package io.interpreter4j.core.healing;

import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;

/** Exponential backoff with jitter for retried model calls; a server's Retry-After wins when it is given. */
public final class Backoff {
  private final Duration min;
  private final Duration max;
  private final double factor;
  private final double jitter;
  private final DoubleSupplier random;

  /** Doubling delays, each between half and all of its exponential value. */
  public Backoff(Duration min, Duration max, RandomGenerator random) {
    this(min, max, 2, 0.5, random::nextDouble);
  }

  /**
   * @param factor how much each delay grows on the one before, at least 1
   * @param jitter the part of each delay drawn at random, in [0, 1], so that many clients don't retry in step
   * @param random a draw in [0, 1)
   */
  public Backoff(Duration min, Duration max, double factor, double jitter, DoubleSupplier random) {
    this.min = min;
    this.max = max;
    this.factor = factor;
    this.jitter = jitter;
    this.random = random;
  }

  /**
   * The wait before attempt {@code attempt + 1}, where {@code attempt} (1-based) just failed:
   * {@code min * factor^(attempt-1)}, capped at max, times a random factor in [1 - jitter, 1.0]
   * (by default {@code min * 2^(attempt-1)} times [0.5, 1.0]).
   */
  public Duration delayAfter(int attempt, Optional<Duration> retryAfter) {
    if (retryAfter.isPresent() && !retryAfter.get().isNegative()) {
      return retryAfter.get().compareTo(max) > 0 ? max : retryAfter.get();
    }
    return exponential(attempt);
  }

  /**
   * As {@link #delayAfter}, but a server's Retry-After is a floor under the exponential delay, and one longer than
   * max gives empty: waiting silently that long is worse than failing with the server's reason.
   */
  public Optional<Duration> delayAtLeast(int attempt, Optional<Duration> retryAfter) {
    Duration backoff = exponential(attempt);
    if (retryAfter.isEmpty()) {
      return Optional.of(backoff);
    }
    Duration asked = retryAfter.get();
    if (asked.compareTo(max) > 0) {
      return Optional.empty();
    }
    return Optional.of(asked.compareTo(backoff) > 0 ? asked : backoff);
  }

  private Duration exponential(int attempt) {
    double exp = min.toMillis() * Math.pow(factor, Math.max(0, attempt - 1));
    double capped = Math.min(exp, max.toMillis());
    double jittered = capped * ((1.0 - jitter) + random.getAsDouble() * jitter);
    return Duration.ofMillis(Math.round(jittered));
  }
}
