package io.interpreter4j.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FailureLimiterTest {

  /** A clock the test moves by hand. */
  static final class HandClock extends Clock {
    Instant now = Instant.parse("2026-12-02T12:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void blocksAnAddressAtTheLimitUntilItsOldestFailureLeavesTheWindow() {
    HandClock clock = new HandClock();
    FailureLimiter limiter = new FailureLimiter(3, Duration.ofMinutes(1), clock);
    for (int i = 0; i < 3; i++) {
      assertEquals(Optional.empty(), limiter.blockedFor("10.0.0.1"));
      limiter.fail("10.0.0.1");
      clock.now = clock.now.plusSeconds(10);
    }
    assertEquals(Optional.of(Duration.ofSeconds(30)), limiter.blockedFor("10.0.0.1"));
    assertEquals(Optional.empty(), limiter.blockedFor("10.0.0.2"), "other addresses are not affected");
    clock.now = clock.now.plusSeconds(30);
    assertEquals(Optional.empty(), limiter.blockedFor("10.0.0.1"), "the first failure left the window");
    limiter.fail("10.0.0.1");
    assertTrue(limiter.blockedFor("10.0.0.1").isPresent());
  }
}
