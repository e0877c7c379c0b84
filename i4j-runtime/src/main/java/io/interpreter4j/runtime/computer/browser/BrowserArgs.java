package io.interpreter4j.runtime.computer.browser;

import io.interpreter4j.runtime.computer.ComputerAction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The arguments of a browser action, read with a clear error for the model when one is missing or malformed. */
final class BrowserArgs {

  private static final Pattern REF = Pattern.compile("^\\[?(?:ref=)?(e\\d+)]?$");

  private BrowserArgs() {}

  /** {@code ref}: "e3", also as "[ref=e3]" or "ref=e3" copied from a snapshot. */
  static String ref(ComputerAction action) {
    Object value = action.args().get("ref");
    String given = value == null ? "" : String.valueOf(value).strip();
    Matcher m = REF.matcher(given);
    if (!m.matches()) {
      throw new IllegalArgumentException(given.isEmpty()
          ? action.action() + " needs a ref from snapshot(), such as \"e3\""
          : "'" + given + "' is no ref: a ref is eN, as snapshot() shows it in [ref=eN]");
    }
    return m.group(1);
  }

  /** {@code url}; an address without a scheme ("example.com/a") is taken as https. */
  static String url(ComputerAction action) {
    String url = string(action, "url").strip();
    if (!url.contains("://") && !url.startsWith("about:")) {
      url = "https://" + url;
    }
    return url;
  }

  static String string(ComputerAction action, String name) {
    Object value = action.args().get(name);
    if (value == null) {
      throw new IllegalArgumentException(action.action() + " needs " + name);
    }
    return String.valueOf(value);
  }

  /** A flag: true, or "true" in any case; false when absent. */
  static boolean flag(ComputerAction action, String name) {
    Object value = action.args().get(name);
    return value instanceof Boolean b ? b : value != null && Boolean.parseBoolean(String.valueOf(value));
  }
}
