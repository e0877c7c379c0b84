package io.interpreter4j.providers.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Reads a {@code Retry-After} header (RFC 9110: delay-seconds or an HTTP date) and OpenAI's {@code retry-after-ms}. */
public final class RetryAfter {

  private RetryAfter() {}

  /** The wait the header asks for, measured from {@code now}; empty when absent or unreadable; never negative. */
  public static Optional<Duration> parse(String value, Instant now) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String v = value.strip();
    try {
      double seconds = Double.parseDouble(v);
      if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
        return Optional.empty();
      }
      return Optional.of(Duration.ofMillis(Math.max(0L, Math.round(seconds * 1000))));
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration d = Duration.between(now, at);
        return Optional.of(d.isNegative() ? Duration.ZERO : d);
      } catch (DateTimeParseException notDate) {
        return Optional.empty();
      }
    }
  }

  /** {@code retry-after-ms} when present (more precise), else {@code Retry-After}. */
  public static Optional<Duration> parse(Optional<String> retryAfter, Optional<String> retryAfterMs, Instant now) {
    Optional<Duration> ms = retryAfterMs.flatMap(v -> {
      try {
        return Optional.of(Duration.ofMillis(Math.max(0L, Math.round(Double.parseDouble(v.strip())))));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    });
    return ms.isPresent() ? ms : retryAfter.flatMap(v -> parse(v, now));
  }
}
