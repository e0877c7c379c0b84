package io.interpreter4j.batch.progress;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Whether stderr is a terminal, and how wide it is. */
public final class Terminals {

  private Terminals() {}

  /**
   * On Linux, whether file descriptor 2 points at a terminal device; elsewhere, whether the JVM has a console
   * (stdin and stdout are terminals) and TERM is not {@code dumb}.
   */
  public static boolean stderrIsTerminal(Map<String, String> env) {
    if ("dumb".equals(env.get("TERM"))) {
      return false;
    }
    Path fd = Path.of("/proc/self/fd/2");
    if (Files.exists(fd, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      try {
        String target = Files.readSymbolicLink(fd).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }
    return System.console() != null;
  }

  /** COLUMNS, else 80. */
  public static int columns(Map<String, String> env) {
    try {
      return Integer.parseInt(env.getOrDefault("COLUMNS", "80").strip());
    } catch (NumberFormatException e) {
      return 80;
    }
  }
}
