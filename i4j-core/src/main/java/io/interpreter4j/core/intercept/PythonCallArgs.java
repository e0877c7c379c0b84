package io.interpreter4j.core.intercept;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The arguments of a Python call written out as text, when every one is a string literal:
 * {@code "python", code='''...'''} gives positional {@code [python]} and named {@code {code=...}}. Literals may
 * be single, double or triple quoted, with prefixes r, b, u, f; escapes are decoded (raw strings keep them).
 * Anything else (a number, a name, an unclosed string) makes the whole parse empty.
 */
record PythonCallArgs(List<String> positional, Map<String, String> named) {

  /** The arguments between a call's parentheses, or empty when one of them is not a string literal. */
  static Optional<PythonCallArgs> parse(String args) {
    List<String> positional = new ArrayList<>();
    Map<String, String> named = new LinkedHashMap<>();
    int i = 0;
    int n = args.length();
    while (true) {
      i = skipBlank(args, i);
      if (i >= n) {
        return Optional.of(new PythonCallArgs(positional, named));
      }
      String name = null;
      int identEnd = i;
      while (identEnd < n && (Character.isLetterOrDigit(args.charAt(identEnd)) || args.charAt(identEnd) == '_')) {
        identEnd++;
      }
      int afterIdent = skipBlank(args, identEnd);
      if (identEnd > i && afterIdent < n && args.charAt(afterIdent) == '=') {
        name = args.substring(i, identEnd);
        i = skipBlank(args, afterIdent + 1);
      }
      int[] end = new int[1];
      Optional<String> value = literal(args, i, end);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      if (name == null) {
        positional.add(value.get());
      } else {
        named.put(name, value.get());
      }
      i = skipBlank(args, end[0]);
      if (i < n && args.charAt(i) != ',') {
        return Optional.empty();
      }
      i++;
    }
  }

  private static int skipBlank(String s, int i) {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /** A string literal at {@code i} (prefixes r, b, u, f), decoded; {@code end[0]} is set past it. */
  private static Optional<String> literal(String s, int i, int[] end) {
    boolean raw = false;
    while (i < s.length() && "rRbBuUfF".indexOf(s.charAt(i)) >= 0) {
      raw |= s.charAt(i) == 'r' || s.charAt(i) == 'R';
      i++;
    }
    if (i >= s.length() || (s.charAt(i) != '"' && s.charAt(i) != '\'')) {
      return Optional.empty();
    }
    char q = s.charAt(i);
    String delimiter = s.startsWith(String.valueOf(q).repeat(3), i) ? String.valueOf(q).repeat(3) : String.valueOf(q);
    int p = i + delimiter.length();
    StringBuilder value = new StringBuilder();
    while (p < s.length()) {
      char c = s.charAt(p);
      if (c == '\\' && p + 1 < s.length()) {
        char e = s.charAt(p + 1);
        p += 2;
        if (raw) {
          value.append('\\').append(e);
          continue;
        }
        switch (e) {
          case 'n' -> value.append('\n');
          case 't' -> value.append('\t');
          case 'r' -> value.append('\r');
          case '0' -> value.append('\0');
          case 'a' -> value.append('\u0007');
          case 'b' -> value.append('\b');
          case 'f' -> value.append('\f');
          case 'v' -> value.append('\u000B');
          case '\\', '\'', '"' -> value.append(e);
          case '\n' -> { }
          case 'x', 'u' -> {
            int digits = e == 'x' ? 2 : 4;
            if (p + digits <= s.length()) {
              try {
                value.append((char) Integer.parseInt(s.substring(p, p + digits), 16));
                p += digits;
                break;
              } catch (NumberFormatException notHex) {
                // kept as written below
              }
            }
            value.append('\\').append(e);
          }
          default -> value.append('\\').append(e);
        }
        continue;
      }
      if (s.startsWith(delimiter, p)) {
        end[0] = p + delimiter.length();
        return Optional.of(value.toString());
      }
      if (c == '\n' && delimiter.length() == 1) {
        return Optional.empty();
      }
      value.append(c);
      p++;
    }
    return Optional.empty();
  }
}
