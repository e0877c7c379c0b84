package io.interpreter4j.core.healing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private final Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), new Random(42));

  @Test
  void growsExponentiallyWithJitterWithinBounds() {
    for (int attempt = 1; attempt <= 10; attempt++) {
      long expected = Math.min(500L << (attempt - 1), 30_000L);
      long d = backoff.delayAfter(attempt, Optional.empty()).toMillis();
      assertTrue(d >= expected / 2 && d <= expected, "attempt " + attempt + " gave " + d);
    }
  }

  @Test
  void retryAfterWinsButIsCapped() {
    assertEquals(Duration.ofSeconds(3), backoff.delayAfter(1, Optional.of(Duration.ofSeconds(3))));
    assertEquals(Duration.ofSeconds(30), backoff.delayAfter(1, Optional.of(Duration.ofMinutes(5))));
  }

  @Test
  void delayAtLeastTakesRetryAfterAsAFloorAndGivesUpBeyondTheCap() {
    Backoff fixed = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), 3, 0.5, () -> 0.5);
    assertEquals(Optional.of(Duration.ofMillis(3375)), fixed.delayAtLeast(3, Optional.empty()));
    assertEquals(Optional.of(Duration.ofSeconds(7)), fixed.delayAtLeast(1, Optional.of(Duration.ofSeconds(7))));
    assertEquals(Optional.of(Duration.ofMillis(3375)), fixed.delayAtLeast(3, Optional.of(Duration.ofSeconds(1))));
    assertEquals(Optional.empty(), fixed.delayAtLeast(1, Optional.of(Duration.ofMinutes(5))));
  }
}
