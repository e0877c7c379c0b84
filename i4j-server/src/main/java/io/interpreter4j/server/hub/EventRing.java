package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.util.ArrayList;
import java.util.List;

/**
 * The last events of one session, deltas included, for replaying to a client that (re)connects: at most
 * {@code capacity} events and about {@code maxBytes} of their text, the oldest dropped first. Older events are
 * only in the journal (which has all but {@code assistant_delta}). Thread-safe: written on the session's thread,
 * read by HTTP requests.
 */
final class EventRing {
  /** Rough memory of an event beyond its text: envelope, record, strings' headers. */
  static final int EVENT_OVERHEAD = 128;

  /** Events after a given seq that the ring still holds, and the oldest seq it holds (0 when empty). */
  record Slice(List<Event> events, long firstSeq) {

    /** Whether events between {@code after} and the ring must be read from the journal first. */
    boolean needsJournal(long after) {
      return firstSeq == 0 || firstSeq > after + 1;
    }
  }

  private final long maxBytes;
  private Event[] slots;
  private int[] weights;
  private int start;
  private int size;
  private long bytes;

  EventRing(int capacity, long maxBytes) {
    if (capacity < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("ring capacity and bytes must be at least 1, not " + capacity + ", "
          + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.slots = new Event[capacity];
    this.weights = new int[capacity];
  }

  synchronized void add(Event event) {
    if (slots.length == 0) {
      return;
    }
    int weight = weigh(event);
    while (size > 0 && (size == slots.length || bytes + weight > maxBytes)) {
      dropOldest();
    }
    int slot = (start + size) % slots.length;
    slots[slot] = event;
    weights[slot] = weight;
    bytes += weight;
    size++;
  }

  /** The events with {@code seq > after}, oldest first. */
  synchronized Slice after(long after) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      Event e = slots[(start + i) % slots.length];
      if (e.seq() > after) {
        out.add(e);
      }
    }
    return new Slice(out, size == 0 ? 0 : slots[start].seq());
  }

  /** Frees the memory of an ended session; its events are then replayed from the journal. */
  synchronized void release() {
    slots = new Event[0];
    weights = new int[0];
    start = 0;
    size = 0;
    bytes = 0;
  }

  synchronized int size() {
    return size;
  }

  private void dropOldest() {
    bytes -= weights[start];
    slots[start] = null;
    start = (start + 1) % slots.length;
    size--;
  }

  /** About how many bytes an event holds on to: its text fields (two bytes a char) plus a fixed overhead. */
  static int weigh(Event event) {
    EventPayload p = event.payload();
    long chars = 0;
    if (p instanceof EventPayload.AssistantDelta d) {
      chars = length(d.text());
    } else if (p instanceof EventPayload.Output o) {
      chars = length(o.text());
    } else if (p instanceof EventPayload.AssistantMessage m) {
      chars = length(m.text());
    } else if (p instanceof EventPayload.UserMessage m) {
      chars = length(m.text());
    } else if (p instanceof EventPayload.CodeBlockEvent c) {
      chars = length(c.code());
    } else if (p instanceof EventPayload.ApprovalRequested a) {
      chars = length(a.code());
    } else if (p instanceof EventPayload.Error e) {
      chars = length(e.message());
    } else if (p instanceof EventPayload.TurnFinished t) {
      chars = length(t.reason());
    } else if (p instanceof EventPayload.Retry r) {
      chars = length(r.reason());
    }
    return (int) Math.min(Integer.MAX_VALUE, EVENT_OVERHEAD + 2 * chars);
  }

  private static long length(String s) {
    return s == null ? 0 : s.length();
  }
}
