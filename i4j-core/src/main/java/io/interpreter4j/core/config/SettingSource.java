package io.interpreter4j.core.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;

/**
 * Says where a setting came from in the user's own words, for error messages: the environment variable and what it
 * holds ({@code I4J_TIMEOUT=abc}), the file and line ({@code config.conf:3: execution.timeout = 0s}), or the path and
 * value when neither is known.
 */
public final class SettingSource {

  /** The origin description {@link ConfigLoader} gives the layer of command-line flags. */
  public static final String FLAGS = "command-line flags";

  private SettingSource() {}

  /** {@code path} is the full path ({@code interpreter4j.execution.timeout}); the value must be present. */
  public static String of(Config root, String path) {
    if (!root.hasPathOrNull(path)) {
      return path;
    }
    ConfigValue value = root.getValue(path);
    String typed = String.valueOf(value.unwrapped());
    ConfigOrigin origin = value.origin();
    String shortPath = path.startsWith("interpreter4j.") ? path.substring("interpreter4j.".length()) : path;
    if (origin.filename() != null && origin.lineNumber() > 0) {
      return origin.filename() + ":" + origin.lineNumber() + ": " + shortPath + " = " + typed;
    }
    String description = origin.description();
    if (description != null && description.startsWith("I4J_")) {
      return description + "=" + typed;
    }
    return path + " = " + typed;
  }
}
