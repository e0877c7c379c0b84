package io.interpreter4j.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationFlagsTest {

  @Test
  void aBareNumberIsSeconds() {
    assertEquals(Duration.ofSeconds(90), DurationFlags.parse("90"));
    assertEquals(Duration.ZERO, DurationFlags.parse("0"));
  }

  @Test
  void aNumberWithAUnit() {
    assertEquals(Duration.ofMillis(1500), DurationFlags.parse("1500ms"));
    assertEquals(Duration.ofSeconds(90), DurationFlags.parse("90s"));
    assertEquals(Duration.ofMinutes(5), DurationFlags.parse("5m"));
    assertEquals(Duration.ofHours(1), DurationFlags.parse("1h"));
  }

  @Test
  void spacesAroundAndUpperCaseUnitsAreAccepted() {
    assertEquals(Duration.ofMinutes(5), DurationFlags.parse(" 5M "));
    assertEquals(Duration.ofMillis(250), DurationFlags.parse("250MS"));
    assertEquals(Duration.ofHours(2), DurationFlags.parse("2H"));
  }

  @Test
  void anythingElseIsRefusedWithTheValueAndTheFormsThatWork() {
    for (String bad : new String[] {"", "  ", "s", "ms", "5d", "1.5s", "five", "5 m", "m5"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DurationFlags.parse(bad), bad);
      assertEquals("'" + bad + "' is not a duration: use seconds (90) or a number with ms, s, m or h (90s, 5m)",
          e.getMessage());
    }
  }

  @Test
  void theCallerChoosesWhatIsThrown() {
    assertEquals(Duration.ofSeconds(3), DurationFlags.parse("3s", IllegalStateException::new));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> DurationFlags.parse("soon", IllegalStateException::new));
    assertEquals("'soon' is not a duration: use seconds (90) or a number with ms, s, m or h (90s, 5m)", e.getMessage());
  }
}
