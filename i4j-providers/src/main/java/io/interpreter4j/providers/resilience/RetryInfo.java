package io.interpreter4j.providers.resilience;

import java.time.Duration;

/**
 * A retry about to happen: {@code attempt} is the number of the attempt that will start after {@code delay}
 * (2 for the first retry) out of {@code maxAttempts}; {@code reason} is why the previous one failed.
 */
public record RetryInfo(int attempt, int maxAttempts, String reason, Duration delay) {}
