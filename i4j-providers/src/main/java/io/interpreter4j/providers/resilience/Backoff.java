package io.interpreter4j.providers.resilience;

import io.interpreter4j.providers.ProviderSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * Delays between attempts: exponential ({@code base * factor^(retry-1)}, capped), with part of each delay drawn at
 * random so that many clients don't retry in step, and never shorter than a server's Retry-After.
 */
public final class Backoff {

  private Backoff() {}

  /**
   * The delay before retry number {@code retry} (1 = the first retry), or empty when the server's Retry-After
   * is longer than the cap: waiting silently that long is worse than failing with the server's reason.
   *
   * @param random a draw in [0, 1)
   */
  public static Optional<Duration> delay(int retry, ProviderSettings s, Optional<Duration> retryAfter,
                                         DoubleSupplier random) {
    double exp = s.baseBackoff().toMillis() * Math.pow(s.backoffFactor(), Math.max(0, retry - 1));
    double capped = Math.min(exp, s.maxBackoff().toMillis());
    long jittered = Math.round(capped * (1.0 - s.jitter()) + capped * s.jitter() * random.getAsDouble());
    Duration backoff = Duration.ofMillis(jittered);
    if (retryAfter.isEmpty()) {
      return Optional.of(backoff);
    }
    Duration asked = retryAfter.get();
    if (asked.compareTo(s.maxBackoff()) > 0) {
      return Optional.empty();
    }
    return Optional.of(asked.compareTo(backoff) > 0 ? asked : backoff);
  }
}
