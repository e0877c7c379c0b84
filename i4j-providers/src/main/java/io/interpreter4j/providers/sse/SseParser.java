package io.interpreter4j.providers.sse;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Incremental parser of a {@code text/event-stream} (WHATWG HTML, "Server-sent events", parsing rules).
 * Feed it bytes or text in pieces cut anywhere, even inside a UTF-8 sequence or between CR and LF; it returns
 * the events completed by each piece. Lines end with CRLF, LF or CR; {@code :} lines are comments; an event
 * still open when the stream ends is dropped, as the specification says. Not thread-safe: one per stream.
 */
public final class SseParser {

  private final int maxEventChars;
  private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPLACE)
      .onUnmappableCharacter(CodingErrorAction.REPLACE);
  /** Bytes of a UTF-8 sequence cut by the end of the previous piece (at most 3). */
  private ByteBuffer pendingBytes = ByteBuffer.allocate(0);
  private final StringBuilder line = new StringBuilder();
  private final StringBuilder data = new StringBuilder();
  private String eventType = "";
  private String lastEventId = "";
  private boolean dataSeen;
  private boolean previousWasCr;
  private boolean startOfStream = true;

  /** {@code maxEventChars} bounds one line and one event's data, so a stream without line ends can't exhaust memory. */
  public SseParser(int maxEventChars) {
    if (maxEventChars < 1) {
      throw new IllegalArgumentException("maxEventChars must be positive: " + maxEventChars);
    }
    this.maxEventChars = maxEventChars;
  }

  /** Decodes a piece of UTF-8 bytes; a multi-byte character cut at the end is kept for the next piece. */
  public List<SseEvent> feed(byte[] bytes) {
    return feed(ByteBuffer.wrap(bytes));
  }

  /** As {@link #feed(byte[])}; the buffer is read from its position to its limit. */
  public List<SseEvent> feed(ByteBuffer bytes) {
    ByteBuffer in = bytes;
    if (pendingBytes.hasRemaining()) {
      in = ByteBuffer.allocate(pendingBytes.remaining() + bytes.remaining()).put(pendingBytes).put(bytes).flip();
    }
    CharBuffer out = CharBuffer.allocate(in.remaining() + 1);
    CoderResult result = utf8.decode(in, out, false);
    if (result.isError()) {
      // REPLACE makes this unreachable; keep the contract visible if the actions change.
      throw new IllegalStateException(new CharacterCodingException());
    }
    pendingBytes = in.hasRemaining() ? ByteBuffer.allocate(in.remaining()).put(in).flip() : ByteBuffer.allocate(0);
    return feed(out.flip());
  }

  /** Parses a piece of text. */
  public List<SseEvent> feed(CharSequence text) {
    List<SseEvent> events = new ArrayList<>(1);
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (startOfStream) {
        startOfStream = false;
        if (c == '\uFEFF') {
          continue;
        }
      }
      if (c == '\n' && previousWasCr) {
        previousWasCr = false;
        continue;
      }
      previousWasCr = c == '\r';
      if (c == '\r' || c == '\n') {
        processLine(events);
        line.setLength(0);
      } else {
        if (line.length() >= maxEventChars) {
          throw new SseException("an SSE line is longer than " + maxEventChars + " characters");
        }
        line.append(c);
      }
    }
    return events;
  }

  private void processLine(List<SseEvent> events) {
    if (line.length() == 0) {
      dispatch(events);
      return;
    }
    if (line.charAt(0) == ':') {
      return;
    }
    int colon = line.indexOf(":");
    String field;
    String value;
    if (colon < 0) {
      field = line.toString();
      value = "";
    } else {
      field = line.substring(0, colon);
      int start = colon + 1;
      if (start < line.length() && line.charAt(start) == ' ') {
        start++;
      }
      value = line.substring(start);
    }
    switch (field) {
      case "data" -> {
        if (data.length() + value.length() + 1 > maxEventChars) {
          throw new SseException("an SSE event is larger than " + maxEventChars + " characters");
        }
        if (dataSeen) {
          data.append('\n');
        }
        data.append(value);
        dataSeen = true;
      }
      case "event" -> eventType = value;
      case "id" -> {
        if (value.indexOf('\0') < 0) {
          lastEventId = value;
        }
      }
      default -> { /* "retry" and unknown fields carry nothing a model client needs */ }
    }
  }

  private void dispatch(List<SseEvent> events) {
    if (dataSeen) {
      events.add(new SseEvent(eventType.isEmpty() ? SseEvent.DEFAULT_TYPE : eventType, data.toString(), lastEventId));
    }
    data.setLength(0);
    dataSeen = false;
    eventType = "";
  }

  /** The stream broke the parser's bounds. */
  public static final class SseException extends RuntimeException {
    public SseException(String message) {
      super(message);
    }
  }
}
