package io.interpreter4j.runtime.repl;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.Locale;

/**
 * When a session starts its python interpreter ({@code interpreter4j.repl.python.start-with-session}): at its creation,
 * so the start overlaps the first model call, or at its first python block.
 */
public enum PythonStart {
  /** Sessions whose code runs in a sandbox start python at creation (it cannot be forked there); others at a block. */
  SANDBOXED,
  /** Every session starts python at creation. */
  ON,
  /** Every session starts python at its first python block. */
  OFF;

  public static final String KEY = "interpreter4j.repl.python.start-with-session";

  /**
   * The value in {@code root} (a config with reference.conf's defaults; {@link #SANDBOXED} when the key is absent).
   *
   * @throws IllegalArgumentException for a value that is not sandboxed, on or off
   */
  public static PythonStart from(Config root) {
    if (!root.hasPath(KEY)) {
      return SANDBOXED;
    }
    String value;
    try {
      value = root.getString(KEY);
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "sandboxed" -> SANDBOXED;
      case "on", "true", "yes" -> ON;
      case "off", "false", "no" -> OFF;
      default -> throw new IllegalArgumentException(KEY + " must be sandboxed, on or off, not '" + value + "'");
    };
  }

  /** Whether a session whose code runs in {@code sandboxName} ("none" when unsandboxed) starts python at creation. */
  public boolean atCreation(String sandboxName) {
    return this == ON || (this == SANDBOXED && !sandboxName.equals("none"));
  }
}
