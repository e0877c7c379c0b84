package io.interpreter4j.cli.render;

import java.util.Locale;
import java.util.Set;

/**
 * A small syntax highlighter for code blocks, one line at a time (a block streams in line by line). Python and bash
 * know their keywords, builtins, strings (also over several lines: triple quotes, heredocs), comments, numbers,
 * and more; other languages get strings, comments, numbers and common keywords. It only colours: the text of a
 * line comes out unchanged once the escape sequences are stripped.
 */
public abstract class Highlighter {

  protected final Theme theme;

  protected Highlighter(Theme theme) {
    this.theme = theme;
  }

  /** A fresh highlighter for one block of {@code language} (its fence's tag). */
  public static Highlighter of(String language, Theme theme) {
    String lang = language == null ? "" : language.toLowerCase(Locale.ROOT);
    return switch (lang) {
      case "python", "py", "python3", "ipython" -> new Python(theme);
      case "bash", "sh", "shell", "zsh", "console", "shell-session" -> new Bash(theme);
      case "text", "txt", "output", "plain", "plaintext", "stdout", "stderr", "log", "" -> new None(theme);
      default -> new Generic(theme);
    };
  }

  /** The line with colours; the highlighter remembers open strings for the next line. */
  public abstract String line(String line);

  // ---- shared scanning helpers ----

  static boolean isIdentStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  static boolean isIdentPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /** End (exclusive) of a number literal starting at {@code i}: digits, hex, underscores, a fraction, an exponent. */
  static int numberEnd(String s, int i) {
    int j = i;
    if (s.startsWith("0x", j) || s.startsWith("0X", j) || s.startsWith("0b", j) || s.startsWith("0o", j)) {
      j += 2;
      while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
        j++;
      }
      return j;
    }
    while (j < s.length() && (Character.isDigit(s.charAt(j)) || s.charAt(j) == '_' || s.charAt(j) == '.')) {
      j++;
    }
    if (j < s.length() && (s.charAt(j) == 'e' || s.charAt(j) == 'E')) {
      int k = j + 1;
      if (k < s.length() && (s.charAt(k) == '+' || s.charAt(k) == '-')) {
        k++;
      }
      if (k < s.length() && Character.isDigit(s.charAt(k))) {
        j = k;
        while (j < s.length() && Character.isDigit(s.charAt(j))) {
          j++;
        }
      }
    }
    if (j < s.length() && (s.charAt(j) == 'j' || s.charAt(j) == 'L' || s.charAt(j) == 'f')) {
      j++;
    }
    return j;
  }

  /** End (exclusive) of a quoted string opened at {@code i}, honouring backslash escapes; -1 if the line ends first. */
  static int quotedEnd(String s, int i, char quote, boolean escapes) {
    for (int j = i + 1; j < s.length(); j++) {
      char c = s.charAt(j);
      if (escapes && c == '\\') {
        j++;
      } else if (c == quote) {
        return j + 1;
      }
    }
    return -1;
  }

  /** Code without colours (text, output). */
  static final class None extends Highlighter {
    None(Theme theme) {
      super(theme);
    }

    @Override
    public String line(String line) {
      return line;
    }
  }

  /** Python: keywords, builtins, constants, strings (prefixes, triple quotes over lines), comments, decorators. */
  static final class Python extends Highlighter {
    private static final Set<String> KEYWORDS = Set.of("and", "as", "assert", "async", "await", "break", "class",
        "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
        "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "match",
        "case");
    private static final Set<String> CONSTANTS = Set.of("True", "False", "None", "self", "cls");
    private static final Set<String> BUILTINS = Set.of("print", "len", "range", "open", "int", "str", "float",
        "list", "dict", "set", "tuple", "bool", "bytes", "enumerate", "zip", "map", "filter", "sorted", "reversed",
        "sum", "min", "max", "abs", "round", "isinstance", "issubclass", "type", "super", "input", "repr", "any",
        "all", "iter", "next", "getattr", "setattr", "hasattr", "format", "id", "hash", "vars", "dir", "help",
        "Exception", "ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError", "OSError",
        "FileNotFoundError", "ImportError", "StopIteration", "ZeroDivisionError", "NotImplementedError");

    /** The closing delimiter of a triple-quoted string still open at the end of the last line, or null. */
    private String openTriple;

    Python(Theme theme) {
      super(theme);
    }

    @Override
    public String line(String line) {
      StringBuilder out = new StringBuilder();
      int i = 0;
      if (openTriple != null) {
        int close = line.indexOf(openTriple);
        if (close < 0) {
          return theme.string(line);
        }
        i = close + 3;
        out.append(theme.string(line.substring(0, i)));
        openTriple = null;
      }
      String previousWord = "";
      while (i < line.length()) {
        char c = line.charAt(i);
        if (c == '#') {
          out.append(theme.comment(line.substring(i)));
          break;
        }
        int stringStart = stringStart(line, i);
        if (stringStart >= 0) {
          int quoteAt = stringStart;
          char q = line.charAt(quoteAt);
          String triple = String.valueOf(q).repeat(3);
          int end;
          if (line.startsWith(triple, quoteAt)) {
            int close = line.indexOf(triple, quoteAt + 3);
            if (close < 0) {
              openTriple = triple;
              end = line.length();
            } else {
              end = close + 3;
            }
          } else {
            boolean raw = line.substring(i, quoteAt).toLowerCase(Locale.ROOT).contains("r");
            end = quotedEnd(line, quoteAt, q, !raw);
            if (end < 0) {
              end = line.length();
            }
          }
          out.append(theme.string(line.substring(i, end)));
          i = end;
          previousWord = "";
          continue;
        }
        if (c == '@' && line.substring(0, i).isBlank()) {
          int j = i + 1;
          while (j < line.length() && (isIdentPart(line.charAt(j)) || line.charAt(j) == '.')) {
            j++;
          }
          out.append(theme.function(line.substring(i, j)));
          i = j;
          continue;
        }
        if (Character.isDigit(c) && (i == 0 || !isIdentPart(line.charAt(i - 1)))) {
          int j = numberEnd(line, i);
          out.append(theme.number(line.substring(i, j)));
          i = j;
          continue;
        }
        if (isIdentStart(c)) {
          int j = i;
          while (j < line.length() && isIdentPart(line.charAt(j))) {
            j++;
          }
          String word = line.substring(i, j);
          if (previousWord.equals("def") || previousWord.equals("class")) {
            out.append(theme.function(word));
          } else if (KEYWORDS.contains(word)) {
            out.append(theme.keyword(word));
          } else if (CONSTANTS.contains(word)) {
            out.append(theme.number(word));
          } else if (BUILTINS.contains(word) && (i == 0 || line.charAt(i - 1) != '.')) {
            out.append(theme.builtin(word));
          } else {
            out.append(word);
          }
          previousWord = word;
          i = j;
          continue;
        }
        if (!Character.isWhitespace(c)) {
          previousWord = "";
        }
        out.append(c);
        i++;
      }
      return out.toString();
    }

    /** Index of the quote if a string literal (with an optional r/b/f/u prefix) starts at {@code i}, else -1. */
    private static int stringStart(String line, int i) {
      if (i > 0 && isIdentPart(line.charAt(i - 1))) {
        return -1;
      }
      int j = i;
      while (j < line.length() && j - i < 2 && "rRbBfFuU".indexOf(line.charAt(j)) >= 0) {
        j++;
      }
      return j < line.length() && (line.charAt(j) == '"' || line.charAt(j) == '\'') ? j : -1;
    }
  }

  /** Bash: keywords, builtins, the command word, options, variables, quoted strings, comments, heredocs. */
  static final class Bash extends Highlighter {
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

    Bash(Theme theme) {
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

  /** Other languages: strings, // and # comments, numbers and keywords most C-like and scripting languages share. */
  static final class Generic extends Highlighter {
    private static final Set<String> KEYWORDS = Set.of("if", "else", "for", "while", "do", "return", "function",
        "const", "let", "var", "class", "new", "import", "from", "export", "default", "def", "end", "switch", "case",
        "break", "continue", "try", "catch", "finally", "throw", "throws", "null", "nil", "true", "false", "void",
        "int", "long", "double", "float", "boolean", "char", "string", "public", "private", "protected", "static",
        "final", "package", "interface", "extends", "implements", "async", "await", "fn", "func", "struct", "enum",
        "impl", "use", "mod", "pub", "mut", "match", "type", "this", "self", "require", "module", "undefined",
        "select", "where", "insert", "update", "delete", "create", "table", "into", "values", "and", "or", "not");

    Generic(Theme theme) {
      super(theme);
    }

    @Override
    public String line(String line) {
      StringBuilder out = new StringBuilder();
      int i = 0;
      while (i < line.length()) {
        char c = line.charAt(i);
        if (line.startsWith("//", i) || line.startsWith("--", i) && line.substring(0, i).isBlank()
            || c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
          out.append(theme.comment(line.substring(i)));
          break;
        }
        if (c == '"' || c == '\'' || c == '`') {
          int end = quotedEnd(line, i, c, true);
          end = end < 0 ? line.length() : end;
          out.append(theme.string(line.substring(i, end)));
          i = end;
          continue;
        }
        if (Character.isDigit(c) && (i == 0 || !isIdentPart(line.charAt(i - 1)))) {
          int j = numberEnd(line, i);
          out.append(theme.number(line.substring(i, j)));
          i = j;
          continue;
        }
        if (isIdentStart(c)) {
          int j = i;
          while (j < line.length() && isIdentPart(line.charAt(j))) {
            j++;
          }
          String word = line.substring(i, j);
          out.append(KEYWORDS.contains(word.toLowerCase(Locale.ROOT)) ? theme.keyword(word) : word);
          i = j;
          continue;
        }
        out.append(c);
        i++;
      }
      return out.toString();
    }
  }
}
