package io.interpreter4j.cli.render;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The size of the controlling terminal when no line editor owns it ({@code i4j run}): {@code COLUMNS} and
 * {@code LINES} if set, else {@code stty size} on {@code /dev/tty}, else 80 by 24.
 */
public record TerminalSize(int columns, int rows) {

  public static TerminalSize probe(Map<String, String> env) {
    int columns = number(env.get("COLUMNS"));
    int rows = number(env.get("LINES"));
    if (columns > 0 && rows > 0) {
      return new TerminalSize(columns, rows);
    }
    try {
      Process p = new ProcessBuilder(List.of("stty", "size")).redirectInput(new File("/dev/tty"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0) {
        String[] parts = out.split("\\s+");
        if (parts.length == 2) {
          return new TerminalSize(Math.max(20, number(parts[1])), Math.max(5, number(parts[0])));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.io.IOException | RuntimeException e) {
      // no terminal to ask
    }
    return new TerminalSize(columns > 0 ? columns : 80, rows > 0 ? rows : 24);
  }

  private static int number(String s) {
    try {
      return s == null ? 0 : Integer.parseInt(s.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
