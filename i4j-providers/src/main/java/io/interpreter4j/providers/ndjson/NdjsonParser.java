package io.interpreter4j.providers.ndjson;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Incremental splitter of newline-delimited JSON (one JSON value per line, as Ollama streams its replies). Feed it
 * bytes cut anywhere, even inside a UTF-8 character: lines are cut at the byte {@code \n}, which never occurs inside
 * a multi-byte character, and decoded whole. A trailing {@code \r} and blank lines are dropped; a line still open
 * when the stream ends is never returned (the stream was cut, and half a JSON value is no value). Not thread-safe:
 * one per stream.
 */
public final class NdjsonParser {

  private final int maxLineBytes;
  private byte[] line = new byte[256];
  private int length;

  /** {@code maxLineBytes} bounds one line, so a stream without line ends can't exhaust memory. */
  public NdjsonParser(int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be positive: " + maxLineBytes);
    }
    this.maxLineBytes = maxLineBytes;
  }

  /** The lines completed by {@code bytes} (read from position to limit), stripped, blank ones left out. */
  public List<String> feed(ByteBuffer bytes) {
    List<String> lines = new ArrayList<>(1);
    while (bytes.hasRemaining()) {
      byte b = bytes.get();
      if (b == '\n') {
        String text = new String(line, 0, length, StandardCharsets.UTF_8).strip();
        length = 0;
        if (!text.isEmpty()) {
          lines.add(text);
        }
      } else {
        if (length == maxLineBytes) {
          throw new NdjsonException("a line longer than " + maxLineBytes + " bytes (no line end); raise "
              + "interpreter4j.providers.max-event-size if the server's lines are that long");
        }
        if (length == line.length) {
          line = Arrays.copyOf(line, Math.min(maxLineBytes, line.length * 2));
        }
        line[length++] = b;
      }
    }
    return lines;
  }

  /** As {@link #feed(ByteBuffer)}. */
  public List<String> feed(byte[] bytes) {
    return feed(ByteBuffer.wrap(bytes));
  }

  /** A stream that is not NDJSON within the bounds. */
  public static final class NdjsonException extends RuntimeException {
    public NdjsonException(String message) {
      super(message);
    }
  }
}
