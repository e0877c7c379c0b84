package io.interpreter4j.core.healing;

import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** Exponential backoff with jitter for retried model calls; a server's Retry-After wins when it is given. */
public final class Backoff {
  private final Duration min;
  private final Duration max;
  private final RandomGenerator random;

  public Backoff(Duration min, Duration max, RandomGenerator random) {
    this.min = min;
    this.max = max;
    this.random = random;
  }

  /**
   * The wait before attempt {@code attempt + 1}, where {@code attempt} (1-based) just failed:
   * {@code min * 2^(attempt-1)}, capped at max, times a random factor in [0.5, 1.0].
   */
  public Duration delayAfter(int attempt, Optional<Duration> retryAfter) {
    if (retryAfter.isPresent() && !retryAfter.get().isNegative()) {
      return retryAfter.get().compareTo(max) > 0 ? max : retryAfter.get();
    }
    double exp = min.toMillis() * Math.pow(2, Math.max(0, attempt - 1));
    double capped = Math.min(exp, max.toMillis());
    double jittered = capped * (0.5 + random.nextDouble() * 0.5);
    return Duration.ofMillis(Math.round(jittered));
  }
}
