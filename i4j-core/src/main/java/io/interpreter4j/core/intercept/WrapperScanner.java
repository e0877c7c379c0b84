package io.interpreter4j.core.intercept;

import java.util.Set;

/**
 * Finds where a candidate ends, one character at a time, without holding more than it must: JSON objects (string
 * aware, and rejected early when their first key is not a wrapper's), calls (brackets and Python strings,
 * triple-quoted ones included), and the same inside {@code <tool_call>} tags or a {@code json} fence. Lenient: it
 * only tracks strings and brackets; whether the text is valid JSON is for {@link WrappedCode} to find out.
 */
final class WrapperScanner {

  /** After a character: the candidate goes on, has ended, or is no wrapper. */
  enum Result { MORE, COMPLETE, REJECTED }

  /** Keys a wrapper's JSON may start with; JSON starting with another key is rejected at once. */
  static final Set<String> WRAPPER_KEYS = Set.of("language", "lang", "code", "name", "arguments",
      "parameters", "function", "type", "tool", "tool_name", "input", "args", "id");

  private enum Phase { NAME, ARGS, OBJECT_START, FIRST_KEY, OBJECT, AFTER, FENCE_INFO, BEFORE_OBJECT }

  private Phase phase;
  private final boolean python;
  private final String closing;
  private final boolean fence;
  private int depth;
  /** The open string's quote character (0 = outside strings) and length (1, or 3 for Python's triple quotes). */
  private char quote;
  private int quoteLength;
  private boolean escape;
  /** Quotes in a row: outside a string (Python) to tell one from two from three; inside, towards the closing ones. */
  private int quotes;
  private char quoteChar;
  private final StringBuilder key = new StringBuilder();
  private final StringBuilder tail = new StringBuilder();

  private WrapperScanner(Phase phase, boolean python, String closing, boolean fence) {
    this.phase = phase;
    this.python = python;
    this.closing = closing;
    this.fence = fence;
  }

  /** After "{". */
  static WrapperScanner object() {
    WrapperScanner s = new WrapperScanner(Phase.OBJECT_START, false, null, false);
    s.depth = 1;
    return s;
  }

  /** After "functions.": a name, then "(". */
  static WrapperScanner namedCall() {
    return new WrapperScanner(Phase.NAME, true, null, false);
  }

  /** After "execute(". */
  static WrapperScanner call() {
    WrapperScanner s = new WrapperScanner(Phase.ARGS, true, null, false);
    s.depth = 1;
    return s;
  }

  /** After an opening tag: an object, then {@code closing}. */
  static WrapperScanner wrapped(String closing) {
    return new WrapperScanner(Phase.BEFORE_OBJECT, false, closing, false);
  }

  /** After "```json": the rest of the line, an object, then a closing fence. */
  static WrapperScanner jsonFence() {
    return new WrapperScanner(Phase.FENCE_INFO, false, null, true);
  }

  Result feed(char c) {
    switch (phase) {
      case NAME -> {
        if (c == '(') {
          phase = Phase.ARGS;
          depth = 1;
          return Result.MORE;
        }
        return Character.isLetterOrDigit(c) || c == '_' ? Result.MORE : Result.REJECTED;
      }
      case FENCE_INFO -> {
        if (c == '\n') {
          phase = Phase.BEFORE_OBJECT;
          return Result.MORE;
        }
        return c == ' ' || c == '\t' || c == '\r' ? Result.MORE : Result.REJECTED;
      }
      case BEFORE_OBJECT -> {
        if (c == '{') {
          phase = Phase.OBJECT_START;
          depth = 1;
          return Result.MORE;
        }
        return Character.isWhitespace(c) ? Result.MORE : Result.REJECTED;
      }
      case OBJECT_START -> {
        if (c == '"') {
          phase = Phase.FIRST_KEY;
          return Result.MORE;
        }
        return Character.isWhitespace(c) ? Result.MORE : Result.REJECTED;
      }
      case FIRST_KEY -> {
        if (escape) {
          escape = false;
          key.append(c);
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          if (!WRAPPER_KEYS.contains(key.toString())) {
            return Result.REJECTED;
          }
          phase = Phase.OBJECT;
        } else if (key.length() > 40) {
          return Result.REJECTED;
        } else {
          key.append(c);
        }
        return Result.MORE;
      }
      case OBJECT, ARGS -> {
        return nested(c);
      }
      case AFTER -> {
        tail.append(c);
        String t = tail.toString().strip();
        if (fence) {
          if (c == '\n' && t.matches("`{3,}")) {
            return Result.COMPLETE;
          }
          return t.isEmpty() || t.matches("`{1,}") ? Result.MORE : Result.REJECTED;
        }
        if (t.equals(closing)) {
          return Result.COMPLETE;
        }
        return closing.startsWith(t) ? Result.MORE : Result.REJECTED;
      }
    }
    return Result.MORE;
  }

  /** Inside brackets: strings skipped, the candidate ends when the outermost bracket closes. */
  private Result nested(char c) {
    if (quote != 0) {
      if (escape) {
        escape = false;
      } else if (c == '\\') {
        escape = true;
        quotes = 0;
      } else if (c == quote) {
        quotes++;
        if (quotes == quoteLength) {
          quote = 0;
          quotes = 0;
        }
      } else {
        quotes = 0;
      }
      return Result.MORE;
    }
    if (python && quotes > 0) {
      // Quotes in a row outside a string: "" is an empty string, """ opens a triple-quoted one.
      char q = quoteChar;
      if (c == q && quotes < 3) {
        quotes++;
        if (quotes == 3) {
          quote = q;
          quoteLength = 3;
          quotes = 0;
        }
        return Result.MORE;
      }
      if (quotes == 1) {
        quote = q;
        quoteLength = 1;
        quotes = 0;
        return nested(c);
      }
      quotes = 0; // an empty string, closed; c is outside it
    }
    switch (c) {
      case '"', '\'' -> {
        if (python) {
          quoteChar = c;
          quotes = 1;
        } else if (c == '"') {
          quote = c;
          quoteLength = 1;
        }
      }
      case '{', '[', '(' -> depth++;
      case '}', ']', ')' -> {
        depth--;
        if (depth == 0) {
          if (closing == null && !fence) {
            return Result.COMPLETE;
          }
          phase = Phase.AFTER;
        }
      }
      default -> { }
    }
    return Result.MORE;
  }
}
