package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * The last {@code capacity} events of one session, deltas included, for replaying to a client that (re)connects.
 * Older events are only in the journal (which has all but {@code assistant_delta}). Thread-safe: written on the
 * session's thread, read by HTTP requests.
 */
final class EventRing {

  /** Events after a given seq that the ring still holds, and the oldest seq it holds (0 when empty). */
  record Slice(List<Event> events, long firstSeq) {

    /** Whether events between {@code after} and the ring must be read from the journal first. */
    boolean needsJournal(long after) {
      return firstSeq == 0 || firstSeq > after + 1;
    }
  }

  private Event[] slots;
  private int start;
  private int size;

  EventRing(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("ring capacity must be at least 1, not " + capacity);
    }
    this.slots = new Event[capacity];
  }

  synchronized void add(Event event) {
    if (slots.length == 0) {
      return;
    }
    if (size < slots.length) {
      slots[(start + size) % slots.length] = event;
      size++;
    } else {
      slots[start] = event;
      start = (start + 1) % slots.length;
    }
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
    start = 0;
    size = 0;
  }

  synchronized int size() {
    return size;
  }
}
