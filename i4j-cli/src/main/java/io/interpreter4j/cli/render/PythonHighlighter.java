package io.interpreter4j.cli.render;

import java.util.Locale;
import java.util.Set;

/** Python: keywords, builtins, constants, strings (prefixes, triple quotes over lines), comments, decorators. */
final class PythonHighlighter extends KeywordHighlighter {
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
  /** The word before, on this line, with only white space since: a name after def or class is a function. */
  private String previousWord = "";

  PythonHighlighter(Theme theme) {
    super(theme);
  }

  @Override
  int resume(String line, StringBuilder out) {
    previousWord = "";
    if (openTriple == null) {
      return 0;
    }
    int close = line.indexOf(openTriple);
    if (close < 0) {
      out.append(theme.string(line));
      return line.length();
    }
    openTriple = null;
    out.append(theme.string(line.substring(0, close + 3)));
    return close + 3;
  }

  @Override
  int markup(String line, int i, StringBuilder out) {
    char c = line.charAt(i);
    if (c == '#') {
      out.append(theme.comment(line.substring(i)));
      return line.length();
    }
    int quoteAt = stringStart(line, i);
    if (quoteAt >= 0) {
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
      previousWord = "";
      return end;
    }
    if (c == '@' && line.substring(0, i).isBlank()) {
      int j = i + 1;
      while (j < line.length() && (isIdentPart(line.charAt(j)) || line.charAt(j) == '.')) {
        j++;
      }
      out.append(theme.function(line.substring(i, j)));
      return j;
    }
    return -1;
  }

  @Override
  String word(String line, int i, String word) {
    String before = previousWord;
    previousWord = word;
    if (before.equals("def") || before.equals("class")) {
      return theme.function(word);
    } else if (KEYWORDS.contains(word)) {
      return theme.keyword(word);
    } else if (CONSTANTS.contains(word)) {
      return theme.number(word);
    } else if (BUILTINS.contains(word) && (i == 0 || line.charAt(i - 1) != '.')) {
      return theme.builtin(word);
    }
    return word;
  }

  @Override
  void other(char c) {
    if (!Character.isWhitespace(c)) {
      previousWord = "";
    }
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
