package io.interpreter4j.runtime.repl;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Notebook-style shell lines in a python block, which python itself rejects: {@code !cmd}, {@code %pip ...}, and a
 * bare {@code pip install ...} line. Each becomes one line of python that runs it, so line numbers stay the same:
 * {@code !cmd} runs through {@code /bin/sh}; pip runs as {@code sys.executable -m pip}, so it installs into the
 * interpreter that runs the block (the virtual environment, once python runs in one). A command that fails raises
 * {@code CalledProcessError}, which fails the block. Only lines that start a statement are touched: not lines inside
 * strings, brackets or after a backslash. Pure text; no IPython {@code $var}/{@code {expr}} expansion.
 */
final class PythonShellLines {

  private static final List<String> PIP_COMMANDS = List.of("install", "uninstall", "download", "list", "show",
      "freeze", "check", "wheel", "cache", "config", "debug", "hash", "index", "inspect", "search", "help");

  /** {@code !cmd} (not {@code !=}). */
  private static final Pattern BANG = Pattern.compile("^([ \\t]*)!(?!=)(.*?)\\s*$");
  /** {@code %pip args} / {@code %pip3 args}. */
  private static final Pattern MAGIC_PIP = Pattern.compile("^([ \\t]*)%pip3?(?:[ \\t]+(.*?))?\\s*$");
  /** {@code pip install x}, {@code pip3 list}, {@code python -m pip install x}: never valid python. */
  private static final Pattern BARE_PIP = Pattern.compile(
      "^([ \\t]*)(?:pip3?(?:\\.\\d+)?|python3?(?:\\.\\d+)?[ \\t]+-m[ \\t]+pip)[ \\t]+([a-z]+)\\b(.*?)\\s*$");
  /** A shell command that is pip by name: {@code pip}, {@code pip3}, {@code python -m pip} (a path is left alone). */
  private static final Pattern SHELL_PIP = Pattern.compile(
      "^(?:pip3?(?:\\.\\d+)?|python3?(?:\\.\\d+)?\\s+-m\\s+pip)(\\s.*|)$");
  /** pip named next to install anywhere: {@code os.system("pip install x")}, {@code [..., "pip", "install", ...]}. */
  private static final Pattern PIP_INSTALL_TEXT = Pattern.compile("\\bpip3?(?:[\"']\\s*,\\s*[\"']|\\s+)install\\b");

  private PythonShellLines() {}

  /** The block with its shell lines turned into python; the same text when it has none. */
  static String translate(String code) {
    if (code.indexOf('!') < 0 && code.indexOf('%') < 0 && !code.contains("pip")) {
      return code;
    }
    String[] lines = code.split("\n", -1);
    Scanner scanner = new Scanner();
    StringBuilder out = new StringBuilder(code.length() + 64);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String translated = scanner.atStatementStart() ? translateLine(line) : null;
      if (translated != null) {
        out.append(translated);
        scanner.afterShellLine();
      } else {
        out.append(line);
        scanner.scan(line);
      }
      if (i < lines.length - 1) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** Whether the block installs packages with pip: in a shell line, or pip next to install in its text. */
  static boolean installs(String code) {
    return code.contains("pip") && PIP_INSTALL_TEXT.matcher(code).find();
  }

  /** The python for one shell line, or null when the line is not one. */
  static String translateLine(String line) {
    String text = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    Matcher magic = MAGIC_PIP.matcher(text);
    if (magic.matches()) {
      return magic.group(1) + pip(magic.group(2) == null ? "" : magic.group(2));
    }
    Matcher bare = BARE_PIP.matcher(text);
    if (bare.matches() && PIP_COMMANDS.contains(bare.group(2))) {
      return bare.group(1) + pip(bare.group(2) + bare.group(3));
    }
    Matcher bang = BANG.matcher(text);
    if (bang.matches() && !bang.group(2).isBlank()) {
      String command = bang.group(2).strip();
      Matcher shellPip = SHELL_PIP.matcher(command);
      if (shellPip.matches()) {
        return bang.group(1) + pip(shellPip.group(1).strip());
      }
      return bang.group(1) + run(pyString(command));
    }
    return null;
  }

  /** pip of the interpreter running the block. */
  private static String pip(String args) {
    String command = "__import__(\"shlex\").quote(__import__(\"sys\").executable) + "
        + pyString(" -m pip" + (args.isEmpty() ? "" : " " + args));
    return run(command);
  }

  /** Runs a shell command; check_returncode() raises on failure and returns None, which the prompt does not show. */
  private static String run(String commandExpression) {
    return "__import__(\"subprocess\").run(" + commandExpression + ", shell=True).check_returncode()";
  }

  /** A python string literal with the same text. */
  static String pyString(String text) {
    StringBuilder s = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> s.append("\\\\");
        case '"' -> s.append("\\\"");
        case '\n' -> s.append("\\n");
        case '\r' -> s.append("\\r");
        case '\t' -> s.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            s.append(String.format("\\x%02x", (int) c));
          } else {
            s.append(c);
          }
        }
      }
    }
    return s.append('"').toString();
  }

  /** Follows strings, brackets, comments and backslash continuations across lines. */
  private static final class Scanner {
    private String quote; // the open string's delimiter: ' " ''' """, or null
    private int depth;
    private boolean continued;

    boolean atStatementStart() {
      return quote == null && depth == 0 && !continued;
    }

    void afterShellLine() {
      continued = false;
    }

    void scan(String line) {
      continued = false;
      int i = 0;
      int n = line.length();
      while (i < n) {
        char c = line.charAt(i);
        if (quote != null) {
          if (c == '\\') {
            i += 2;
          } else if (line.startsWith(quote, i)) {
            i += quote.length();
            quote = null;
          } else {
            i++;
          }
          continue;
        }
        if (c == '#') {
          break;
        }
        if (c == '"' || c == '\'') {
          String triple = String.valueOf(c).repeat(3);
          quote = line.startsWith(triple, i) ? triple : String.valueOf(c);
          i += quote.length();
          continue;
        }
        if (c == '(' || c == '[' || c == '{') {
          depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
          depth--;
        } else if (c == '\\' && line.substring(i + 1).isBlank()) {
          continued = true;
        }
        i++;
      }
      if (quote != null && quote.length() == 1 && !(line.endsWith("\\") || line.endsWith("\\\r"))) {
        quote = null; // an unterminated one-line string is a syntax error python will report
      }
    }
  }
}
