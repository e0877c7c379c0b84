package io.interpreter4j.core.safety.shell;

import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;

/**
 * Facts about shell source text that need no reader state: where a bracketed group closes, what a {@code ${...}}
 * expansion guards, which characters end a word, and the source with quotes and comments masked.
 */
final class ShellSyntax {

  private ShellSyntax() {}

  /** {@code ${NAME}}, {@code ${NAME:?msg}}, {@code ${NAME:-default}}, {@code ${#NAME}}: only the guards matter. */
  static Part braceVariable(String inner, boolean quoted) {
    if (inner.startsWith("#") && inner.length() > 1) {
      return new Part(PartKind.VAR, inner, quoted, false);
    }
    int end = 0;
    while (end < inner.length() && (Character.isLetterOrDigit(inner.charAt(end)) || inner.charAt(end) == '_')) {
      end++;
    }
    if (end == 0 && !inner.isEmpty() && "@*#?$!-".indexOf(inner.charAt(0)) >= 0) {
      end = 1;
    }
    String name = inner.substring(0, end);
    String op = inner.substring(end);
    boolean mayBeEmpty = true;
    String fallback = null;
    if (op.startsWith(":?") || op.startsWith("?")) {
      mayBeEmpty = false;
    } else if (op.startsWith(":-") || op.startsWith(":=")) {
      mayBeEmpty = op.length() <= 2;
      fallback = op.substring(2);
    } else if (op.startsWith("-") || op.startsWith("=")) {
      fallback = op.substring(1);
    }
    return new Part(PartKind.VAR, name, quoted, mayBeEmpty, fallback);
  }

  /** Index of the {@code close} matching an {@code open} whose content starts at {@code from}; the length when unterminated. */
  static int closing(String s, int from, char open, char close) {
    int depth = 1;
    int j = from;
    int len = s.length();
    while (j < len) {
      char c = s.charAt(j);
      if (c == '\\') {
        j += 2;
        continue;
      }
      if (c == '\'') {
        int end = s.indexOf('\'', j + 1);
        j = end < 0 ? len : end + 1;
        continue;
      }
      if (c == '"') {
        j++;
        while (j < len && s.charAt(j) != '"') {
          j += s.charAt(j) == '\\' ? 2 : 1;
        }
        j++;
        continue;
      }
      if (c == open) {
        depth++;
      } else if (c == close) {
        depth--;
        if (depth == 0) {
          return j;
        }
      }
      j++;
    }
    return len;
  }

  /** The redirection operator starting at {@code i} ({@code <<<}, {@code <<-}, {@code >>}, {@code >&}...). */
  static String redirectOperator(String src, int i) {
    String op;
    if (src.charAt(i) == '<') {
      if (src.startsWith("<<<", i)) {
        op = "<<<";
      } else if (src.startsWith("<<-", i)) {
        op = "<<-";
      } else if (src.startsWith("<<", i)) {
        op = "<<";
      } else if (src.startsWith("<>", i)) {
        op = "<>";
      } else if (src.startsWith("<&", i)) {
        op = "<&";
      } else {
        op = "<";
      }
    } else if (src.startsWith(">>", i)) {
      op = ">>";
    } else if (src.startsWith(">|", i)) {
      op = ">|";
    } else if (src.startsWith(">&", i)) {
      op = ">&";
    } else {
      op = ">";
    }
    return op;
  }

  /** A heredoc's delimiter word as bash compares it: quotes removed. */
  static String unquoted(Word w) {
    StringBuilder sb = new StringBuilder();
    for (Part p : w.parts()) {
      sb.append(p.kind() == PartKind.VAR ? "$" + p.text() : p.text());
    }
    return sb.toString();
  }

  /** Characters that end a run of plain word characters. */
  static boolean isSpecial(char c) {
    return switch (c) {
      case ' ', '\t', '\r', '\n', '\\', '#', '\'', '"', '`', '$', ';', '&', '|', '(', ')', '<', '>' -> true;
      default -> false;
    };
  }

  static boolean isDigits(CharSequence s) {
    if (s.length() == 0) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      if (!Character.isDigit(s.charAt(k))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The source with the inside of quotes and comments blanked out, same length: lets text patterns (fork bombs)
   * look at code without matching what is merely echoed or commented.
   */
  static String maskQuotesAndComments(String s) {
    char[] out = s.toCharArray();
    int len = s.length();
    int j = 0;
    boolean wordStart = true;
    while (j < len) {
      char c = s.charAt(j);
      if (c == '\\') {
        j += 2;
        wordStart = false;
        continue;
      }
      if (c == '\'' || c == '"') {
        int k = j + 1;
        while (k < len && s.charAt(k) != c) {
          if (c == '"' && s.charAt(k) == '\\') {
            out[k] = ' ';
            k++;
          }
          if (k < len) {
            out[k] = ' ';
          }
          k++;
        }
        j = k + 1;
        wordStart = false;
        continue;
      }
      if (c == '#' && wordStart) {
        while (j < len && s.charAt(j) != '\n') {
          out[j] = ' ';
          j++;
        }
        continue;
      }
      wordStart = Character.isWhitespace(c) || c == ';' || c == '&' || c == '|' || c == '(' || c == ')';
      j++;
    }
    return new String(out);
  }
}
