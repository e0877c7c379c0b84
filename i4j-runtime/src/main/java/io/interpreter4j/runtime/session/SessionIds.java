package io.interpreter4j.runtime.session;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Session ids that sort by creation time and never collide: {@code 20261202-131500-4f9a2c}. */
public final class SessionIds {
  private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  private static final SecureRandom RANDOM = new SecureRandom();

  private SessionIds() {}

  public static String next() {
    byte[] b = new byte[3];
    RANDOM.nextBytes(b);
    return FORMAT.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + HexFormat.of().formatHex(b);
  }

  /** Whether a string is safe to use as a folder name for a session. */
  public static boolean isValid(String id) {
    return id != null && id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  }
}
