package io.interpreter4j.providers.http;

import io.interpreter4j.core.model.ModelException;
import java.time.Duration;

/**
 * The endpoint's circuit breaker is open: calls fail fast without touching the network. Retryable (later),
 * but {@link io.interpreter4j.providers.resilience.ResilientProvider} does not wait for it: failing fast is the point.
 */
public final class CircuitOpenException extends ModelException {

  public CircuitOpenException(String baseUrl, int maxFailures, Duration remaining) {
    super(baseUrl + " failed " + maxFailures + " times in a row, so calls to it are paused for another "
        + Math.max(1, (remaining.toMillis() + 999) / 1000) + "s (circuit breaker open); try again then", true,
        remaining);
  }
}
