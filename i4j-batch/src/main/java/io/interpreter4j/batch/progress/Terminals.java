package io.interpreter4j.batch.progress;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

  /** COLUMNS, else what {@code stty size} says of the controlling terminal, else 80. */
  public static int columns(Map<String, String> env) {
    try {
      if (env.containsKey("COLUMNS")) {
        return Integer.parseInt(env.get("COLUMNS").strip());
      }
    } catch (NumberFormatException e) {
      // fall through to the terminal
    }
    Path tty = Path.of("/dev/tty");
    if (!Files.isReadable(tty)) {
      return 80;
    }
    try {
      Process p = new ProcessBuilder("stty", "size").redirectInput(tty.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(2, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return 80;
      }
      String[] rowsCols = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().split("\\s+");
      return rowsCols.length == 2 ? Integer.parseInt(rowsCols[1]) : 80;
    } catch (IOException | NumberFormatException e) {
      return 80;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 80;
    }
  }
}
