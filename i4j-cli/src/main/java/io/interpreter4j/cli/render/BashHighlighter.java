package io.interpreter4j.cli.render;

import java.util.Set;

/** Bash: keywords, builtins, the command word, options, variables, quoted strings, comments, heredocs. */
final class BashHighlighter extends Highlighter {
  private static final Set<String> KEYWORDS = Set.of("if", "then", "else", "elif", "fi", "for", "while", "until",
      "do", "done", "case", "esac", "in", "function", "select", "time", "!", "[[", "]]");
  private static final Set<String> BUILTINS = Set.of("echo", "cd", "printf", "read", "source", ".", "test", "[",
      "set", "unset", "shift", "trap", "eval", "exec", "exit", "return", "export", "local", "readonly", "declare",
      "alias", "type", "command", "builtin", "pwd", "pushd", "popd", "wait", "true", "false", "let", "break",
      "continue", "getopts", "ulimit", "umask", "hash", "jobs", "kill");

  /** Delimiter of a heredoc being read, or null. */
  private String heredoc;
  /** A double-quoted string open at the end of the last line. */
  private boolean inDouble;
  /** A single-quoted string open at the end of the last line. */
  private boolean inSingle;

  BashHighlighter(Theme theme) {
    super(theme);
  }

  @Override
  public String line(String line) {
    if (heredoc != null) {
      if (line.strip().equals(heredoc)) {
        heredoc = null;
        return theme.keyword(line);
      }
      return theme.string(line);
    }
    StringBuilder out = new StringBuilder();
    int i = 0;
    if (inSingle) {
      int close = line.indexOf('\'');
      if (close < 0) {
        return theme.string(line);
      }
      out.append(theme.string(line.substring(0, close + 1)));
      inSingle = false;
      i = close + 1;
    } else if (inDouble) {
      i = doubleQuoted(line, -1, out);
    }
    boolean commandPosition = i == 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == '#' && (i == 0 || " \t;|&(".indexOf(line.charAt(i - 1)) >= 0)) {
        out.append(theme.comment(line.substring(i)));
        break;
      }
      if (c == '\'') {
        int end = quotedEnd(line, i, '\'', false);
        if (end < 0) {
          inSingle = true;
          end = line.length();
        }
        out.append(theme.string(line.substring(i, end)));
        i = end;
        commandPosition = false;
        continue;
      }
      if (c == '"') {
        i = doubleQuoted(line, i, out);
        commandPosition = false;
        continue;
      }
      if (c == '$') {
        int end = variableEnd(line, i);
        out.append(theme.variable(line.substring(i, end)));
        i = end;
        commandPosition = line.startsWith("$(", end - 2);
        continue;
      }
      if (c == '<' && line.startsWith("<<", i) && !line.startsWith("<<<", i)) {
        int j = i + 2;
        if (j < line.length() && line.charAt(j) == '-') {
          j++;
        }
        while (j < line.length() && line.charAt(j) == ' ') {
          j++;
        }
        int k = j;
        while (k < line.length() && " ;|&>".indexOf(line.charAt(k)) < 0) {
          k++;
        }
        String word = line.substring(j, k).replace("'", "").replace("\"", "");
        if (!word.isEmpty()) {
          heredoc = word;
        }
        out.append(theme.keyword(line.substring(i, k)));
        i = k;
        continue;
      }
      if (";|&(){}`".indexOf(c) >= 0) {
        out.append(c);
        i++;
        commandPosition = c != ')' && c != '}';
        continue;
      }
      if (Character.isWhitespace(c)) {
        out.append(c);
        i++;
        continue;
      }
      int j = i;
      while (j < line.length() && " \t;|&()<>\"'$`".indexOf(line.charAt(j)) < 0) {
        j++;
      }
      if (j == i) {
        out.append(c);
        i++;
        continue;
      }
      String word = line.substring(i, j);
      if (KEYWORDS.contains(word)) {
        out.append(theme.keyword(word));
        commandPosition = !word.equals("in");
      } else if (commandPosition && word.contains("=") && !word.startsWith("=")) {
        int eq = word.indexOf('=');
        out.append(theme.variable(word.substring(0, eq))).append(word.substring(eq));
      } else if (commandPosition) {
        out.append(BUILTINS.contains(word) ? theme.builtin(word) : theme.bold(word));
        commandPosition = false;
      } else if (word.startsWith("-")) {
        out.append(theme.option(word));
      } else if (word.chars().allMatch(Character::isDigit)) {
        out.append(theme.number(word));
      } else {
        out.append(word);
      }
      i = j;
    }
    return out.toString();
  }

  /** Appends a double-quoted string from {@code quote} (-1: continuing one) with its variables; returns its end. */
  private int doubleQuoted(String line, int quote, StringBuilder out) {
    int start = Math.max(quote, 0);
    int j = quote + 1;
    int segment = start;
    while (j < line.length()) {
      char c = line.charAt(j);
      if (c == '\\') {
        j += 2;
        continue;
      }
      if (c == '"') {
        out.append(theme.string(line.substring(segment, j + 1)));
        inDouble = false;
        return j + 1;
      }
      if (c == '$') {
        out.append(theme.string(line.substring(segment, j)));
        int end = variableEnd(line, j);
        out.append(theme.variable(line.substring(j, end)));
        j = end;
        segment = j;
        continue;
      }
      j++;
    }
    out.append(theme.string(line.substring(Math.min(segment, line.length()))));
    inDouble = true;
    return line.length();
  }

  /** End of a {@code $NAME}, {@code ${...}}, {@code $(}, {@code $1}, {@code $?} starting at {@code i}. */
  private static int variableEnd(String line, int i) {
    int j = i + 1;
    if (j >= line.length()) {
      return j;
    }
    char c = line.charAt(j);
    if (c == '{') {
      int close = line.indexOf('}', j);
      return close < 0 ? line.length() : close + 1;
    }
    if (c == '(') {
      return j + 1;
    }
    if ("?@#*!$-0123456789".indexOf(c) >= 0) {
      return j + 1;
    }
    while (j < line.length() && isIdentPart(line.charAt(j))) {
      j++;
    }
    return j;
  }
}
