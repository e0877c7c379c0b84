package io.interpreter4j.server.hub;

import java.util.List;
import org.apache.pekko.util.ByteString;
import org.apache.pekko.util.ByteStringBuilder;

/**
 * Events of one session that go to its clients together, in seq order: what the session published within one
 * flush interval ({@link SessionFanOut}), or a run of replayed history. Their Server-Sent-Events frames are joined
 * once, on first use, and shared by every client: a connection writes one chunk per batch, not one per event,
 * and the bytes are those of the frames one after the other.
 */
public final class EventBatch {
  private final List<EventLine> lines;
  /** The joined frames with and without {@code id:}, made on first use (a race makes one twice, harmlessly). */
  private volatile ByteString framesWithId;
  private volatile ByteString framesWithoutId;

  /**
   * @param lines at least one, in ascending seq order
   * @throws IllegalArgumentException if {@code lines} is empty
   */
  public EventBatch(List<EventLine> lines) {
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("a batch of events needs at least one event");
    }
    this.lines = List.copyOf(lines);
  }

  public static EventBatch of(EventLine line) {
    return new EventBatch(List.of(line));
  }

  public List<EventLine> lines() {
    return lines;
  }

  public long firstSeq() {
    return lines.get(0).seq();
  }

  public long lastSeq() {
    return lines.get(lines.size() - 1).seq();
  }

  /** This batch without the events up to {@code seq} (a client has them already); null when none is left. */
  public EventBatch after(long seq) {
    if (firstSeq() > seq) {
      return this;
    }
    if (lastSeq() <= seq) {
      return null;
    }
    int from = 1;
    while (lines.get(from).seq() <= seq) {
      from++;
    }
    return new EventBatch(lines.subList(from, lines.size()));
  }

  /** The events' frames ({@link EventLine#sseFrame}) one after the other, as one compact string of bytes. */
  public ByteString sseFrames(boolean withId) {
    ByteString frames = withId ? framesWithId : framesWithoutId;
    if (frames == null) {
      frames = join(withId);
      if (withId) {
        framesWithId = frames;
      } else {
        framesWithoutId = frames;
      }
    }
    return frames;
  }

  private ByteString join(boolean withId) {
    if (lines.size() == 1) {
      return lines.get(0).sseFrame(withId);
    }
    ByteStringBuilder joined = ByteString.createBuilder();
    for (EventLine line : lines) {
      joined.append(line.sseFrame(withId));
    }
    return joined.result().compact();
  }

  @Override
  public String toString() {
    return "EventBatch[" + lines.get(0).session() + "#" + firstSeq() + ".." + lastSeq() + "]";
  }
}
