package io.interpreter4j.core.safety.python;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IPython's shell lines in a python block: {@code !cmd}, {@code x = !cmd}, {@code %pip}, {@code %%bash} cells. Each
 * shell command is handed to the bash analysis; the lines are blanked so that what is left is plain python.
 */
final class IPythonMagics {

  private static final Pattern SHELL_ASSIGN = Pattern.compile("^\\s*[A-Za-z_][\\w, ]*=\\s*!(.*)$");

  private IPythonMagics() {}

  /** The python left of {@code code} once its shell lines are handed, in order, to {@code runShell}. */
  static String strip(String code, Consumer<String> runShell) {
    String[] lines = code.split("\n", -1);
    int first = 0;
    while (first < lines.length && lines[first].isBlank()) {
      first++;
    }
    if (first < lines.length) {
      String head = lines[first].strip();
      if (head.startsWith("%%bash") || head.startsWith("%%sh") || head.startsWith("%%script bash")
          || head.startsWith("%%script sh") || head.startsWith("%%system")) {
        runShell.accept(String.join("\n", Arrays.copyOfRange(lines, first + 1, lines.length)));
        return "";
      }
      if (head.startsWith("%%writefile") || head.startsWith("%%html") || head.startsWith("%%javascript")
          || head.startsWith("%%markdown") || head.startsWith("%%latex")) {
        return "";
      }
      if (head.startsWith("%%")) {
        lines[first] = "";
      }
    }
    StringBuilder out = new StringBuilder(code.length());
    for (String line : lines) {
      String s = line.strip();
      if (s.startsWith("!")) {
        runShell.accept(s.substring(1));
        line = "";
      } else if (s.startsWith("%")) {
        int sp = s.indexOf(' ');
        String magic = sp < 0 ? s : s.substring(0, sp);
        String rest = sp < 0 ? "" : s.substring(sp + 1);
        switch (magic) {
          case "%pip" -> runShell.accept("pip " + rest);
          case "%conda", "%mamba" -> runShell.accept("conda " + rest);
          case "%system", "%sx", "%sh", "%bash" -> runShell.accept(rest);
          case "%cd" -> runShell.accept("cd " + rest);
          default -> {
            // other line magics (%time, %matplotlib, ...) run no shell
          }
        }
        line = "";
      } else if (s.indexOf('!') > 0) {
        Matcher m = SHELL_ASSIGN.matcher(line);
        if (m.matches()) {
          runShell.accept(m.group(1));
          line = "";
        }
      }
      out.append(line).append('\n');
    }
    return out.toString();
  }
}
