package io.interpreter4j.server.hub;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Hands one session's events to the clients following it, at most once per {@code interval}: an event that comes
 * after a quiet interval goes out at once; events that come faster are held until the interval since the last
 * hand-out has passed, and then go out together as one {@link EventBatch}. Every client's connection then does
 * the work of a delivery (waking its stream, rendering an HTTP chunk, a write to its socket) once per batch instead
 * of once per event: a session printing a line every 2 ms to a hundred clients cost a hundred writes every 2 ms.
 * Events held wait at most {@code interval}; at most {@link #MAX_HELD} are held (more go out at once).
 *
 * <p>{@link #publish} runs on the session's thread, the delayed hand-out on {@code timer}'s; both hold this
 * object's lock while offering, so every client gets the batches in seq order. Offers never wait (the feeds are
 * bounded queues that end their client when full).
 */
final class SessionFanOut {
  /**
   * Events held for one hand-out at most: a burst larger than this goes out without waiting for the interval. With
   * each client's queue of batches, it bounds what a client that falls behind pins (queue size times this).
   */
  static final int MAX_HELD = 64;

  private final Set<LiveFeed<EventBatch>> feeds = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private final long intervalNanos;
  private final List<EventLine> held = new ArrayList<>();
  /** When the last batch went out ({@link System#nanoTime}); long ago at the start. */
  private long lastHandOut;
  private boolean handOutScheduled;

  /**
   * @param interval the shortest time between two hand-outs; zero: every event goes out at once, alone
   * @param timer    runs the delayed hand-outs (one task per session at most is waiting in it)
   */
  SessionFanOut(Duration interval, ScheduledExecutorService timer) {
    if (interval.isNegative()) {
      throw new IllegalArgumentException("the SSE flush interval must not be negative, not " + interval);
    }
    this.intervalNanos = interval.toNanos();
    this.timer = timer;
    this.lastHandOut = System.nanoTime() - intervalNanos;
  }

  /** Whether anyone follows the session (else its events need no line). */
  boolean followed() {
    return !feeds.isEmpty();
  }

  void add(LiveFeed<EventBatch> feed) {
    feeds.add(feed);
  }

  void remove(LiveFeed<EventBatch> feed) {
    feeds.remove(feed);
  }

  /** The session's next event: to its clients now, or with the others of this interval. */
  void publish(EventLine line) {
    synchronized (this) {
      held.add(line);
      if (handOutScheduled && held.size() < MAX_HELD) {
        return;
      }
      long wait = lastHandOut + intervalNanos - System.nanoTime();
      if (wait > 0 && held.size() < MAX_HELD) {
        try {
          timer.schedule(this::handOutHeld, wait, TimeUnit.NANOSECONDS);
          handOutScheduled = true;
          return;
        } catch (RejectedExecutionException stopping) {
          // the server is stopping: hand out now
        }
      }
      handOut();
    }
  }

  /** The delayed hand-out. */
  private void handOutHeld() {
    synchronized (this) {
      handOutScheduled = false;
      handOut();
    }
  }

  /** Hands out what is held, then ends every client's stream after it. */
  void complete() {
    synchronized (this) {
      handOut();
      for (LiveFeed<EventBatch> feed : feeds) {
        feed.complete();
      }
      feeds.clear();
    }
  }

  /** Events waiting for the next hand-out. */
  int heldCount() {
    synchronized (this) {
      return held.size();
    }
  }

  /** Holding the lock. */
  private void handOut() {
    if (held.isEmpty()) {
      return;
    }
    EventBatch batch = new EventBatch(held);
    held.clear();
    lastHandOut = System.nanoTime();
    for (LiveFeed<EventBatch> feed : feeds) {
      if (!feed.offer(batch)) {
        feeds.remove(feed);
      }
    }
  }
}
