package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.interpreter4j.batch.cli.BatchCommand;
import io.interpreter4j.core.config.DurationFlags;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code --timeout} and {@code i4j batch --task-timeout} accept the same durations and refuse others alike. */
class DurationConvertersTest {

  private static final List<ITypeConverter<Duration>> CONVERTERS =
      List.of(new CommonOptions.DurationConverter(), new BatchCommand.DurationConverter());

  @Test
  void convertWhatDurationFlagsParses() throws Exception {
    for (ITypeConverter<Duration> converter : CONVERTERS) {
      for (String value : List.of("90", "1500ms", "90s", " 5M ", "1h")) {
        assertEquals(DurationFlags.parse(value), converter.convert(value), value);
      }
    }
  }

  @Test
  void refuseWithTheMessagePicocliShows() {
    for (ITypeConverter<Duration> converter : CONVERTERS) {
      TypeConversionException e = assertThrows(TypeConversionException.class, () -> converter.convert("5d"));
      assertEquals("'5d' is not a duration: use seconds (90) or a number with ms, s, m or h (90s, 5m)", e.getMessage());
    }
  }
}
