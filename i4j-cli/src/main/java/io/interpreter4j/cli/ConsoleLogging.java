package io.interpreter4j.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps libraries' log lines off a person's console: JLine's warnings (through java.util.logging) that it made a
 * dumb terminal, and Pekko's stack trace of a failed bind, which i4j says in one line of its own.
 */
final class ConsoleLogging {

  /** Held, so that the logger and its level are not garbage-collected. */
  private static final Logger JLINE = Logger.getLogger("org.jline");

  private ConsoleLogging() {}

  /** Call before SLF4J and JLine are first used. */
  static void quiet() {
    JLINE.setLevel(Level.OFF);
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.pekko.io.TcpListener", "off");
  }
}
