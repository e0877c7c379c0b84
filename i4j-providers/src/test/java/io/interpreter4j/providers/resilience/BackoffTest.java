package io.interpreter4j.providers.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.providers.ProviderSettings;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Core's {@link io.interpreter4j.core.healing.Backoff} as the providers' retry settings make it. */
class BackoffTest {

  private static final ProviderSettings DEFAULTS = ProviderSettings.defaults();

  private static Optional<Duration> delay(int retry, ProviderSettings s, Optional<Duration> retryAfter, double draw) {
    return s.backoff(() -> draw).delayAtLeast(retry, retryAfter);
  }

  @Test
  void growsByTheFactorUpToTheCap() {
    ProviderSettings noJitter = DEFAULTS.withJitter(0);
    assertEquals(Duration.ofMillis(500), delay(1, noJitter, Optional.empty(), 0.7).orElseThrow());
    assertEquals(Duration.ofMillis(1000), delay(2, noJitter, Optional.empty(), 0.7).orElseThrow());
    assertEquals(Duration.ofMillis(2000), delay(3, noJitter, Optional.empty(), 0.7).orElseThrow());
    assertEquals(Duration.ofSeconds(30), delay(12, noJitter, Optional.empty(), 0.7).orElseThrow());
  }

  @Test
  void jitterDrawsWithinTheUpperPartOfTheDelay() {
    // jitter 0.5: between half and all of the exponential delay
    assertEquals(Duration.ofMillis(500), delay(2, DEFAULTS, Optional.empty(), 0.0).orElseThrow());
    assertEquals(Duration.ofMillis(750), delay(2, DEFAULTS, Optional.empty(), 0.5).orElseThrow());
  }

  @Test
  void retryAfterIsAFloorAndTooLongARetryAfterGivesUp() {
    assertEquals(Duration.ofSeconds(7), delay(1, DEFAULTS, Optional.of(Duration.ofSeconds(7)), 0.5).orElseThrow());
    assertEquals(Duration.ofMillis(1500),
        delay(3, DEFAULTS.withJitter(0).withRetry(4, Duration.ofMillis(375), Duration.ofSeconds(30)),
            Optional.of(Duration.ofSeconds(1)), 0.5).orElseThrow());
    assertEquals(Optional.empty(), delay(1, DEFAULTS, Optional.of(Duration.ofMinutes(5)), 0.5));
  }

  @Test
  void defaultsAreThoseOfTheIssue() {
    assertEquals(4, DEFAULTS.maxAttempts());
    assertEquals(Duration.ofMillis(500), DEFAULTS.baseBackoff());
    assertEquals(2.0, DEFAULTS.backoffFactor());
    assertEquals(Duration.ofSeconds(30), DEFAULTS.maxBackoff());
    assertEquals(Duration.ofSeconds(60), DEFAULTS.stallTimeout());
    assertEquals(8, DEFAULTS.maxConcurrentRequests());
    assertEquals(10_000, DEFAULTS.maxQueuedRequests());
    assertEquals(5, DEFAULTS.breakerMaxFailures());
    assertEquals(4096, DEFAULTS.maxTokens());
  }
}
