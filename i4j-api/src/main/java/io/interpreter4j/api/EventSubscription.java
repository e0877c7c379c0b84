package io.interpreter4j.api;

import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One subscriber's place in an {@link EventFeed}: the next event number it wants and how many events it asked for.
 * It delivers on the executor, one drain at a time (so {@code onNext} is never called concurrently, and a
 * {@code request} from inside {@code onNext} only adds demand), from the ring or, behind it, from disk.
 */
final class EventSubscription implements Flow.Subscription {

  private final EventFeed feed;
  private final Flow.Subscriber<? super Event> subscriber;
  private final Executor executor;
  private final AtomicLong demand = new AtomicLong();
  private final AtomicInteger pending = new AtomicInteger();
  private volatile boolean cancelled;
  private volatile Throwable badRequest;
  /** Touched by the drain only. */
  private long next = 1;
  private JournalCursor cursor;
  private boolean done;

  EventSubscription(EventFeed feed, Flow.Subscriber<? super Event> subscriber, Executor executor) {
    this.feed = feed;
    this.subscriber = subscriber;
    this.executor = executor;
  }

  void start() {
    subscriber.onSubscribe(this);
    signal();
  }

  @Override
  public void request(long n) {
    if (n <= 0) {
      badRequest = new IllegalArgumentException("request(" + n + "): demand must be positive (Reactive Streams 3.9)");
    } else {
      demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
    }
    signal();
  }

  @Override
  public void cancel() {
    cancelled = true;
    signal();
  }

  /** Something changed (new event, demand, end): drain on the executor unless a drain is already on its way. */
  void signal() {
    if (pending.getAndIncrement() == 0) {
      executor.execute(this::drain);
    }
  }

  private void drain() {
    int missed = 1;
    do {
      if (!done) {
        deliver();
      }
      missed = pending.addAndGet(-missed);
    } while (missed != 0);
  }

  private void deliver() {
    try {
      while (!cancelled && badRequest == null && demand.get() > 0) {
        Event e = nextEvent();
        if (e == null) {
          break;
        }
        next = e.seq() + 1;
        demand.decrementAndGet();
        subscriber.onNext(e);
      }
      if (cancelled) {
        end();
      } else if (badRequest != null) {
        end();
        subscriber.onError(badRequest);
      } else if (feed.closed() && next > feed.last()) {
        end();
        subscriber.onComplete();
      }
    } catch (RuntimeException e) {
      // a subscriber that throws is cancelled (Reactive Streams 2.13); a journal that cannot be read ends the stream
      end();
      if (!cancelled) {
        subscriber.onError(e);
      }
    }
  }

  /** The next event for this subscriber, or null when it has read all there is now. */
  private Event nextEvent() {
    while (true) {
      Event e = feed.inRing(next);
      if (e != null) {
        closeCursor();
        return e;
      }
      long first = feed.first();
      if (next > feed.last()) {
        return null;
      }
      if (next >= first) {
        continue; // the ring moved on between the two looks
      }
      if (cursor == null) {
        cursor = feed.cursor();
      }
      Event behind = cursor.next(next, first);
      if (behind != null) {
        return behind;
      }
      next = first; // not on disk either (the journal could not be written): go on with what the ring holds
    }
  }

  private void end() {
    done = true;
    closeCursor();
    feed.remove(this);
  }

  private void closeCursor() {
    if (cursor != null) {
      cursor.close();
      cursor = null;
    }
  }
}
