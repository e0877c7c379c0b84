package io.interpreter4j.providers.tools;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads one JSON object that arrives in pieces (a tool call's arguments as they stream) and reports the decoded text
 * of its top-level string fields piece by piece, so code can be shown while it is being written. An escape cut
 * between two pieces ({@code \n}, {@code \"}, {@code \\}, {@code \u00e9}, a surrogate pair's two halves) is decoded
 * once it is whole. Values that are not strings, nested objects and arrays included, are skipped. Input that is not a
 * JSON object makes it {@link #invalid()}; it then reports nothing more. Pure; one instance per object.
 */
public final class StreamingJsonFields {

  /** What a piece of input revealed. */
  public sealed interface Event {}

  /** More decoded text of the string value of {@code field}. */
  public record FieldText(String field, String text) implements Event {}

  /** The string value of {@code field} is complete. */
  public record FieldEnd(String field) implements Event {}

  /** The object's closing brace arrived. */
  public record ObjectEnd() implements Event {}

  private enum State { BEFORE_OBJECT, BEFORE_KEY, KEY, AFTER_KEY, BEFORE_VALUE, STRING_VALUE, OTHER_VALUE, AFTER_VALUE,
    DONE, INVALID }

  private State state = State.BEFORE_OBJECT;
  private final StringBuilder key = new StringBuilder();
  private String field;
  /** Decoded text of the current string value not reported yet. */
  private final StringBuilder text = new StringBuilder();

  // String decoding, shared by keys and values.
  private boolean escape;
  private int unicodeDigits = -1;
  private int unicodeValue;
  private char highSurrogate;

  // Skipping a value that is not a string.
  private int depth;
  private boolean otherInString;
  private boolean otherEscape;

  private List<Event> out = new ArrayList<>();

  /** Consumes the next piece; returns what it completed or revealed, in order. */
  public List<Event> feed(String piece) {
    for (int i = 0; i < piece.length() && state != State.INVALID; i++) {
      accept(piece.charAt(i));
    }
    flushText();
    List<Event> result = out;
    out = new ArrayList<>();
    return result;
  }

  /** The closing brace of the object arrived. */
  public boolean complete() {
    return state == State.DONE;
  }

  /** The input is not a JSON object (or is broken); nothing more is reported. */
  public boolean invalid() {
    return state == State.INVALID;
  }

  private void accept(char c) {
    switch (state) {
      case BEFORE_OBJECT -> {
        if (c == '{') {
          state = State.BEFORE_KEY;
        } else if (!isWhitespace(c)) {
          state = State.INVALID;
        }
      }
      case BEFORE_KEY -> {
        if (c == '"') {
          key.setLength(0);
          state = State.KEY;
        } else if (c == '}') {
          finishObject();
        } else if (!isWhitespace(c) && c != ',') {
          state = State.INVALID;
        }
      }
      case KEY -> {
        if (!escape && unicodeDigits < 0 && c == '"') {
          releaseSurrogate(key);
          state = State.AFTER_KEY;
        } else {
          decode(c, key);
        }
      }
      case AFTER_KEY -> {
        if (c == ':') {
          state = State.BEFORE_VALUE;
        } else if (!isWhitespace(c)) {
          state = State.INVALID;
        }
      }
      case BEFORE_VALUE -> {
        if (c == '"') {
          field = key.toString();
          state = State.STRING_VALUE;
        } else if (!isWhitespace(c)) {
          depth = 0;
          otherInString = false;
          otherEscape = false;
          state = State.OTHER_VALUE;
          skip(c);
        }
      }
      case STRING_VALUE -> {
        if (!escape && unicodeDigits < 0 && c == '"') {
          releaseSurrogate(text);
          flushText();
          out.add(new FieldEnd(field));
          state = State.AFTER_VALUE;
        } else {
          decode(c, text);
        }
      }
      case OTHER_VALUE -> skip(c);
      case AFTER_VALUE -> {
        if (c == ',') {
          state = State.BEFORE_KEY;
        } else if (c == '}') {
          finishObject();
        } else if (!isWhitespace(c)) {
          state = State.INVALID;
        }
      }
      case DONE, INVALID -> { }
    }
  }

  /** Skips a number, literal, object or array; a top-level ',' or '}' ends it. */
  private void skip(char c) {
    if (otherInString) {
      if (otherEscape) {
        otherEscape = false;
      } else if (c == '\\') {
        otherEscape = true;
      } else if (c == '"') {
        otherInString = false;
      }
      return;
    }
    switch (c) {
      case '"' -> otherInString = true;
      case '{', '[' -> depth++;
      case '}', ']' -> {
        if (depth == 0) {
          if (c == '}') {
            finishObject();
          } else {
            state = State.INVALID;
          }
        } else {
          depth--;
        }
      }
      case ',' -> {
        if (depth == 0) {
          state = State.BEFORE_KEY;
        }
      }
      default -> { }
    }
  }

  /** One character inside a JSON string (after the opening quote, before the closing one). */
  private void decode(char c, StringBuilder into) {
    if (unicodeDigits >= 0) {
      int digit = Character.digit(c, 16);
      if (digit < 0) {
        state = State.INVALID;
        return;
      }
      unicodeValue = unicodeValue * 16 + digit;
      if (++unicodeDigits == 4) {
        unicodeDigits = -1;
        appendChar((char) unicodeValue, into);
      }
      return;
    }
    if (escape) {
      escape = false;
      switch (c) {
        case 'n' -> appendChar('\n', into);
        case 't' -> appendChar('\t', into);
        case 'r' -> appendChar('\r', into);
        case 'b' -> appendChar('\b', into);
        case 'f' -> appendChar('\f', into);
        case 'u' -> {
          unicodeDigits = 0;
          unicodeValue = 0;
        }
        default -> appendChar(c, into); // \" \\ \/ and, leniently, any other character as itself
      }
      return;
    }
    if (c == '\\') {
      escape = true;
      return;
    }
    appendChar(c, into);
  }

  /** Keeps a high surrogate back until its low half arrives, so no text is reported with half a character. */
  private void appendChar(char c, StringBuilder into) {
    if (highSurrogate != 0) {
      char high = highSurrogate;
      highSurrogate = 0;
      into.append(high);
      if (Character.isLowSurrogate(c)) {
        into.append(c);
        return;
      }
    }
    if (Character.isHighSurrogate(c)) {
      highSurrogate = c;
    } else {
      into.append(c);
    }
  }

  /** A high surrogate left at the end of a string is kept as it is. */
  private void releaseSurrogate(StringBuilder into) {
    if (highSurrogate != 0) {
      into.append(highSurrogate);
      highSurrogate = 0;
    }
  }

  private void finishObject() {
    state = State.DONE;
    out.add(new ObjectEnd());
  }

  private void flushText() {
    if (text.length() > 0) {
      out.add(new FieldText(field, text.toString()));
      text.setLength(0);
    }
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
}
