package io.interpreter4j.core.config;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/** A duration as written on a command line: "90" (seconds), "90s", "1500ms", "5m", "1h". */
public final class DurationFlags {

  private DurationFlags() {}

  /** Throws {@link IllegalArgumentException} with a message for the user when {@code value} is not a duration. */
  public static Duration parse(String value) {
    return parse(value, IllegalArgumentException::new);
  }

  /** As {@link #parse(String, Function)}, and zero is refused too: a timeout must be positive. */
  public static Duration parsePositive(String value, Function<String, ? extends RuntimeException> invalid) {
    Duration d = parse(value, invalid);
    if (d.isZero() || d.isNegative()) {
      throw invalid.apply("'" + value + "' is not positive: use seconds (90) or a number with ms, s, m or h (90s, 5m)");
    }
    return d;
  }

  /** Throws what {@code invalid} makes of a message for the user when {@code value} is not a duration. */
  public static Duration parse(String value, Function<String, ? extends RuntimeException> invalid) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    try {
      if (v.matches("\\d+")) {
        return Duration.ofSeconds(Long.parseLong(v));
      }
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      }
      long n = Long.parseLong(v.substring(0, v.length() - 1));
      return switch (v.charAt(v.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        default -> throw new NumberFormatException();
      };
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      throw invalid.apply(
          "'" + value + "' is not a duration: use seconds (90) or a number with ms, s, m or h (90s, 5m)");
    }
  }
}
