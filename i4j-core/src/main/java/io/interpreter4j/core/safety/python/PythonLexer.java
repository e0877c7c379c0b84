package io.interpreter4j.core.safety.python;

import io.interpreter4j.core.safety.code.CodeToken;
import io.interpreter4j.core.safety.code.TokenKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Tokens of a python program, closely enough for the danger analysis: names, numbers, operators, logical newlines
 * (also {@code ;}, none inside brackets) and string literals with their escapes read (f-strings marked). Comments
 * are skipped. Never fails: what it cannot read becomes operators.
 */
final class PythonLexer {

  /** One token; {@code line} counts from 0, {@code fstring} marks an f-string literal. */
  record Tok(TokenKind kind, String text, int line, boolean fstring) implements CodeToken {}

  private PythonLexer() {}

  /** Each line's indentation (spaces and tabs), by line number. */
  static int[] indents(String s) {
    String[] lines = s.split("\n", -1);
    int[] out = new int[lines.length + 1];
    for (int k = 0; k < lines.length; k++) {
      String l = lines[k];
      int n = 0;
      while (n < l.length() && (l.charAt(n) == ' ' || l.charAt(n) == '\t')) {
        n++;
      }
      out[k] = n;
    }
    return out;
  }

  static List<Tok> lex(String s) {
    List<Tok> out = new ArrayList<>();
    int n = s.length();
    int i = 0;
    int depth = 0;
    int line = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (c == '\n') {
        if (depth == 0 && !out.isEmpty() && out.get(out.size() - 1).kind() != TokenKind.NEWLINE) {
          out.add(new Tok(TokenKind.NEWLINE, "\n", line, false));
        }
        line++;
        i++;
      } else if (c == '\\' && i + 1 < n && s.charAt(i + 1) == '\n') {
        line++;
        i += 2;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        i++;
      } else if (c == '#') {
        while (i < n && s.charAt(i) != '\n') {
          i++;
        }
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
          i++;
        }
        String word = s.substring(start, i);
        if (i < n && (s.charAt(i) == '\'' || s.charAt(i) == '"') && word.length() <= 2 && isStringPrefix(word)) {
          int[] pos = {i, line};
          String value = readString(s, pos, word);
          boolean f = word.indexOf('f') >= 0 || word.indexOf('F') >= 0;
          out.add(new Tok(TokenKind.STRING, value, line, f));
          i = pos[0];
          line = pos[1];
        } else {
          out.add(new Tok(TokenKind.NAME, word, line, false));
        }
      } else if (c == '\'' || c == '"') {
        int[] pos = {i, line};
        String value = readString(s, pos, "");
        out.add(new Tok(TokenKind.STRING, value, line, false));
        i = pos[0];
        line = pos[1];
      } else if (Character.isDigit(c)) {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '.')) {
          i++;
        }
        out.add(new Tok(TokenKind.NUMBER, s.substring(start, i), line, false));
      } else {
        if (c == '(' || c == '[' || c == '{') {
          depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
          depth--;
        }
        if (c == ';' && depth == 0) {
          out.add(new Tok(TokenKind.NEWLINE, ";", line, false));
          i++;
          continue;
        }
        String op = String.valueOf(c);
        if (i + 1 < n) {
          char d = s.charAt(i + 1);
          if (d == '=' && "=!<>:+-*/%&|^".indexOf(c) >= 0 || (c == '*' && d == '*') || (c == '/' && d == '/')
              || (c == '-' && d == '>')) {
            op = s.substring(i, i + 2);
          }
        }
        out.add(new Tok(TokenKind.OP, op, line, false));
        i += op.length();
      }
    }
    out.add(new Tok(TokenKind.NEWLINE, "\n", line, false));
    return out;
  }

  private static boolean isStringPrefix(String w) {
    for (int k = 0; k < w.length(); k++) {
      if ("rRbBuUfF".indexOf(w.charAt(k)) < 0) {
        return false;
      }
    }
    return true;
  }

  /** Reads a string literal at pos[0]; leaves pos[0] after it and pos[1] at the line it ends on. */
  private static String readString(String s, int[] pos, String prefix) {
    boolean raw = prefix.indexOf('r') >= 0 || prefix.indexOf('R') >= 0;
    int n = s.length();
    int i = pos[0];
    char q = s.charAt(i);
    String tripleQuote = q == '"' ? "\"\"\"" : "'''";
    boolean triple = s.startsWith(tripleQuote, i);
    i += triple ? 3 : 1;
    StringBuilder sb = new StringBuilder();
    while (i < n) {
      char c = s.charAt(i);
      if (triple ? c == q && s.startsWith(tripleQuote, i) : c == q) {
        i += triple ? 3 : 1;
        break;
      }
      if (!triple && c == '\n') {
        break;
      }
      if (c == '\\' && i + 1 < n) {
        char e = s.charAt(i + 1);
        if (raw) {
          sb.append(c).append(e);
        } else {
          switch (e) {
            case 'n' -> sb.append('\n');
            case 't' -> sb.append('\t');
            case '\\', '\'', '"' -> sb.append(e);
            case '\n' -> { }
            default -> sb.append(c).append(e);
          }
        }
        if (e == '\n') {
          pos[1]++;
        }
        i += 2;
        continue;
      }
      if (c == '\n') {
        pos[1]++;
      }
      sb.append(c);
      i++;
    }
    pos[0] = i;
    return sb.toString();
  }
}
