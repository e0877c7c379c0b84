package io.interpreter4j.bench.sse;

import java.nio.charset.StandardCharsets;

/** Reading an SSE data line in place, from its bytes, without making a String of it. */
final class Bytes {
  private static final byte[] TS = "\"ts\":\"".getBytes(StandardCharsets.US_ASCII);

  private Bytes() {}

  static boolean startsWith(byte[] line, int length, byte[] prefix) {
    if (length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (line[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  static int indexOf(byte[] line, int length, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= length; i++) {
      for (int k = 0; k < needle.length; k++) {
        if (line[i + k] != needle[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * The {@code "ts"} of an event's JSON line, {@code 2026-12-02T16:43:35.123456789Z} (UTC, 0 to 9 fraction
   * digits), as nanoseconds since the epoch; -1 when there is none or it is not in that form.
   */
  static long tsNanos(byte[] line, int length) {
    int at = indexOf(line, length, TS);
    if (at < 0) {
      return -1;
    }
    int p = at + TS.length;
    if (p + 20 > length || line[p + 4] != '-' || line[p + 7] != '-' || line[p + 10] != 'T' || line[p + 13] != ':'
        || line[p + 16] != ':') {
      return -1;
    }
    int year = digits(line, p, 4);
    int month = digits(line, p + 5, 2);
    int day = digits(line, p + 8, 2);
    int hour = digits(line, p + 11, 2);
    int minute = digits(line, p + 14, 2);
    int second = digits(line, p + 17, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || minute < 0 || second < 0) {
      return -1;
    }
    int q = p + 19;
    long nanos = 0;
    int scale = 100_000_000;
    if (q < length && line[q] == '.') {
      q++;
      while (q < length && line[q] >= '0' && line[q] <= '9') {
        nanos += (line[q] - '0') * (long) scale;
        scale /= 10;
        q++;
      }
    }
    if (q >= length || line[q] != 'Z') {
      return -1;
    }
    long days = epochDay(year, month, day);
    return ((days * 24 + hour) * 60 + minute) * 60_000_000_000L + second * 1_000_000_000L + nanos;
  }

  private static int digits(byte[] line, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      if (line[i] < '0' || line[i] > '9') {
        return -1;
      }
      value = value * 10 + line[i] - '0';
    }
    return value;
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date (as {@code LocalDate.toEpochDay}, without the object). */
  static long epochDay(int year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = Math.floorDiv(y, 400);
    long yoe = y - era * 400;
    long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146_097 + doe - 719_468;
  }
}
