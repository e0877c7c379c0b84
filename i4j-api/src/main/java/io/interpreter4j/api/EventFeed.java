package io.interpreter4j.api;

import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * The events of one session for {@link Session#events()}. The session's journal on disk is the source of truth; in
 * memory there is only a ring of the last {@code capacity} events, shared by all subscribers. A subscriber gets
 * events as it requests them: from the ring while it keeps up, from disk ({@link JournalCursor}) once it fell
 * further behind than the ring holds. So the session never waits for a subscriber, no event is dropped, and memory
 * stays at the ring plus one open cursor per lagging subscriber. Because the journal leaves out
 * {@code assistant_delta}, the feed writes those to a file of its own next to it ({@code api-deltas.jsonl}).
 *
 * <p>{@link #accept} runs on the session's thread: it writes a delta line, puts the event in the ring and signals the
 * subscriptions, which deliver on {@code executor}.
 */
final class EventFeed {

  private final Path journal;
  private final Path deltas;
  private final Executor executor;
  private final Event[] ring;
  private final Set<EventSubscription> subscriptions = new CopyOnWriteArraySet<>();
  private OutputStream deltaOut;
  /** Sequence numbers of the oldest and newest events in the ring (first > last: empty). */
  private long first = 1;
  private long last;
  private boolean closed;
  private String deltaFailure;

  EventFeed(Path sessionDir, int capacity, Executor executor) {
    if (capacity < 1) {
      throw new IllegalArgumentException("the event buffer must hold at least 1 event, not " + capacity);
    }
    this.journal = sessionDir.resolve("events.jsonl");
    this.deltas = sessionDir.resolve("api-deltas.jsonl");
    this.executor = executor;
    this.ring = new Event[capacity];
  }

  /** Takes one event of the session (on its thread) and returns it as the API's record. */
  Event accept(io.interpreter4j.core.event.Event event) {
    if (event.payload() instanceof EventPayload.AssistantDelta) {
      writeDelta(event);
    }
    Event mapped = EventMapping.of(event);
    synchronized (this) {
      ring[(int) (mapped.seq() % ring.length)] = mapped;
      last = mapped.seq();
      first = Math.max(first, last - ring.length + 1);
    }
    subscriptions.forEach(EventSubscription::signal);
    return mapped;
  }

  private void writeDelta(io.interpreter4j.core.event.Event event) {
    if (deltaFailure != null) {
      return;
    }
    try {
      if (deltaOut == null) {
        Files.createDirectories(deltas.getParent());
        deltaOut = Files.newOutputStream(deltas, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
      deltaOut.write((EventCodec.toJson(event) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // a subscriber that falls behind misses these deltas; the assistant_message after them has their text
      deltaFailure = e.getMessage();
    }
  }

  /** The event with this number if the ring still holds it, else null. */
  synchronized Event inRing(long seq) {
    return seq >= first && seq <= last ? ring[(int) (seq % ring.length)] : null;
  }

  /** The oldest event number the ring holds (greater than {@link #last()} while empty). */
  synchronized long first() {
    return first;
  }

  /** The newest event number so far (0 before the first). */
  synchronized long last() {
    return last;
  }

  /** How many events the ring holds now (at most its capacity). */
  synchronized int buffered() {
    return (int) Math.max(0, last - first + 1);
  }

  synchronized boolean closed() {
    return closed;
  }

  /** The session ended: no more events; subscribers complete once they have read all. */
  void close() {
    synchronized (this) {
      closed = true;
      try {
        if (deltaOut != null) {
          deltaOut.close();
        }
      } catch (IOException e) {
        // every line was written whole before
      }
    }
    subscriptions.forEach(EventSubscription::signal);
  }

  /** A cursor over the events on disk, for a subscriber behind the ring. */
  JournalCursor cursor() {
    return new JournalCursor(journal, deltas);
  }

  /** A publisher of all the session's events, from its first, to each subscriber at its own pace. */
  Flow.Publisher<Event> publisher() {
    return subscriber -> {
      EventSubscription s = new EventSubscription(this, subscriber, executor);
      subscriptions.add(s);
      s.start();
    };
  }

  void remove(EventSubscription subscription) {
    subscriptions.remove(subscription);
  }
}
