package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import org.apache.pekko.util.ByteString;

/**
 * An event as it goes to clients: its session, its seq (the SSE id) and its JSON object on one line. One line is
 * shared by every client of the event, and so is its Server-Sent-Events frame, made once on first use: a hundred
 * clients cost one JSON string and one frame per event, not a hundred.
 */
public final class EventLine {
  private final String session;
  private final long seq;
  private final String json;
  /** The SSE frames with and without {@code id:}, made on first use (a race makes one twice, harmlessly). */
  private volatile ByteString frameWithId;
  private volatile ByteString frameWithoutId;

  public EventLine(String session, long seq, String json) {
    this.session = session;
    this.seq = seq;
    this.json = json;
  }

  public static EventLine of(Event event) {
    return new EventLine(event.session(), event.seq(), EventCodec.toJson(event));
  }

  public String session() {
    return session;
  }

  public long seq() {
    return seq;
  }

  public String json() {
    return json;
  }

  /**
   * The event as one Server-Sent-Events frame: {@code id: SEQ} (when {@code withId}) and {@code data: JSON}, then a
   * blank line. Compact JSON has no line break; should one come anyway, each line becomes its own data line.
   */
  public ByteString sseFrame(boolean withId) {
    ByteString frame = withId ? frameWithId : frameWithoutId;
    if (frame == null) {
      frame = makeFrame(withId);
      if (withId) {
        frameWithId = frame;
      } else {
        frameWithoutId = frame;
      }
    }
    return frame;
  }

  private ByteString makeFrame(boolean withId) {
    StringBuilder sb = new StringBuilder(json.length() + 32);
    if (withId) {
      sb.append("id: ").append(seq).append('\n');
    }
    if (json.indexOf('\n') < 0 && json.indexOf('\r') < 0) {
      sb.append("data: ").append(json).append('\n');
    } else {
      for (String part : json.split("\r\n|\r|\n", -1)) {
        sb.append("data: ").append(part).append('\n');
      }
    }
    return ByteString.fromString(sb.append('\n').toString());
  }

  @Override
  public String toString() {
    return "EventLine[" + session + "#" + seq + "]";
  }
}
