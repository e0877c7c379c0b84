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
      case "python", "py", "python3", "ipython" -> new PythonHighlighter(theme);
      case "bash", "sh", "shell", "zsh", "console", "shell-session" -> new BashHighlighter(theme);
      case "text", "txt", "output", "plain", "plaintext", "stdout", "stderr", "log", "" -> new None(theme);
      default -> new GenericHighlighter(theme);
    };
  }

  /** The line with colours; the highlighter remembers open strings for the next line. */
  public abstract String line(String line);

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

  /** End (exclusive) of the identifier starting at {@code i}. */
  static int identEnd(String s, int i) {
    int j = i;
    while (j < s.length() && isIdentPart(s.charAt(j))) {
      j++;
    }
    return j;
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
}
