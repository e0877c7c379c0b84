package io.interpreter4j.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps libraries' log lines off a person's console: JLine's warnings (through java.util.logging) that it made a
 * dumb terminal, and Pekko's stack trace of a failed bind, which i4j says in one line of its own.
 */
final class ConsoleLogging {

  private ConsoleLogging() {}

  /** Call before SLF4J and JLine are first used. */
  static void quiet() {
    quietJline();
    quietPekko();
  }

  /**
   * JLine's part, on the thread that first uses JLine (a chat's terminal opens on a thread of its own): it starts
   * java.util.logging, which reads the JDK's logging.properties (0.04 s of a chat's start).
   */
  static void quietJline() {
    Jline.LOGGER.setLevel(Level.OFF);
  }

  /** Pekko's part; call before SLF4J is first used. */
  static void quietPekko() {
    System.setProperty("org.slf4j.simpleLogger.log.org.apache.pekko.io.TcpListener", "off");
  }

  private static final class Jline {
    /** Held, so that the logger and its level are not garbage-collected. */
    static final Logger LOGGER = Logger.getLogger("org.jline");
  }
}
