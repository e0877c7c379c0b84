package io.interpreter4j.cli;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Where the configuration's warnings (settings no module knows) go: stderr, each once per process however often the
 * configuration is loaded ({@code i4j resume} reads it twice).
 */
final class ConfigWarnings {

  private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

  /** Prints "i4j: warning: MESSAGE" on stderr unless said already; {@code prefix} is "i4j" or "i4j batch". */
  static Consumer<String> stderr(String prefix) {
    return message -> {
      if (SAID.add(message)) {
        System.err.println(prefix + ": warning: " + message);
      }
    };
  }

  private ConfigWarnings() {}
}
