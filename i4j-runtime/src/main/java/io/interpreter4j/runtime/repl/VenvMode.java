package io.interpreter4j.runtime.repl;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.util.Locale;

/**
 * {@code interpreter4j.python.venv}: where pip installs go when the session's python is not in a virtual
 * environment. AUTO: into {@code WORKDIR/.venv}, created on the first install (see {@link ReplLauncher}); OFF: pip is
 * left alone.
 */
public enum VenvMode {
  AUTO, OFF;

  /** For the system prompt when the mode is AUTO. */
  public static final String PROMPT_SENTENCE = "pip installs go to a virtual environment in the working directory "
      + "(.venv), never to the system Python: in python blocks write `!pip install x` (or `%pip install x`), in bash "
      + "`pip install x`; the first install restarts python inside that environment, so install packages before "
      + "you define variables you need.";

  /** Reads {@code interpreter4j.python.venv} from a config whose defaults come from reference.conf. */
  public static VenvMode from(Config root) {
    try {
      return parse(root.getString("interpreter4j.python.venv"));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  /** "auto" or "off" ("on"/"true" and "false" too), any case. */
  public static VenvMode parse(String value) {
    return switch (value == null ? "" : value.strip().toLowerCase(Locale.ROOT)) {
      case "auto", "on", "true" -> AUTO;
      case "off", "false", "none" -> OFF;
      default -> throw new IllegalArgumentException(
          "interpreter4j.python.venv must be auto or off, not '" + value + "'");
    };
  }

  /** The sentence for the system prompt, or "" when pip is left alone. */
  public String promptSentence() {
    return this == AUTO ? PROMPT_SENTENCE : "";
  }
}
