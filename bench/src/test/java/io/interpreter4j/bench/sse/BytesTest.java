package io.interpreter4j.bench.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class BytesTest {

  private static long parse(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return Bytes.tsNanos(bytes, bytes.length);
  }

  private static long nanos(String iso) {
    Instant t = Instant.parse(iso);
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  @Test
  void readsTheTsOfAnEventLineAsInstantParseDoes() {
    for (String ts : new String[] {"2026-12-02T16:43:35.123456789Z", "2026-12-02T16:43:35Z", "2026-12-02T16:43:35.1Z",
        "2024-02-29T23:59:59.999Z", "1970-01-01T00:00:00Z", "2000-03-01T00:00:00.000001Z"}) {
      assertEquals(nanos(ts), parse("data: {\"session\":\"s\",\"seq\":3,\"ts\":\"" + ts + "\",\"type\":\"output\"}"), ts);
    }
  }

  @Test
  void aLineWithoutAWellFormedTsIsMinusOne() {
    assertEquals(-1, parse("data: {\"seq\":3}"));
    assertEquals(-1, parse("data: {\"ts\":\"yesterday\"}"));
    assertEquals(-1, parse("data: {\"ts\":\"2026-12-02T16:43:35.12\"}")); // no Z
    assertEquals(-1, parse("data: {\"ts\":\"2026-13-02T16:43:35Z\"}"));
  }

  @Test
  void epochDayAgreesWithLocalDate() {
    for (LocalDate d = LocalDate.of(1899, 12, 25); d.isBefore(LocalDate.of(2101, 1, 5)); d = d.plusDays(13)) {
      assertEquals(d.toEpochDay(), Bytes.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth()), d.toString());
    }
  }

  @Test
  void findsPrefixesAndNeedles() {
    byte[] line = "data: {\"type\":\"turn_finished\"}".getBytes(StandardCharsets.US_ASCII);
    assertTrue(Bytes.startsWith(line, line.length, "data:".getBytes(StandardCharsets.US_ASCII)));
    assertFalse(Bytes.startsWith(line, 3, "data:".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(7, Bytes.indexOf(line, line.length, "\"type\"".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(-1, Bytes.indexOf(line, 10, "turn_finished".getBytes(StandardCharsets.US_ASCII)));
  }
}
