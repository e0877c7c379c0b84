package io.interpreter4j.server.hub;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.QueueOfferResult;

/**
 * One client's live events: a bounded queue between the session's thread (which only offers, never waits) and
 * the client's HTTP stream. When the client falls behind and the queue is full, the feed is completed: the
 * client gets what was queued, then the end of the stream, and reconnects with {@code Last-Event-ID}.
 *
 * <p>An element may weigh more than one (a batch of events weighs its events): the feed then also counts the weight
 * queued and not yet {@link #taken taken} by the client's stream, and is full past {@code maxWeight}. One element
 * is always accepted into an empty feed, whatever its weight, so what a client that falls behind pins is at most
 * {@code maxWeight} plus one element.
 *
 * @param <T> what the feed carries
 */
public final class LiveFeed<T> {
  private final BoundedSourceQueue<T> queue;
  private final Predicate<T> filter;
  private final Runnable onOverflow;
  private final ToIntFunction<T> weight;
  private final int maxWeight;
  /** Weight offered and not yet taken by the client's stream. */
  private final AtomicInteger queuedWeight = new AtomicInteger();
  private volatile boolean closed;

  /** A feed whose elements weigh one each: the queue's own bound is the only one. */
  LiveFeed(BoundedSourceQueue<T> queue, Predicate<T> filter, Runnable onOverflow) {
    this(queue, filter, onOverflow, e -> 1, Integer.MAX_VALUE);
  }

  /**
   * @param weight    what an element weighs (at least 1)
   * @param maxWeight the weight queued beyond which the feed is full (at least 1)
   */
  LiveFeed(BoundedSourceQueue<T> queue, Predicate<T> filter, Runnable onOverflow, ToIntFunction<T> weight,
      int maxWeight) {
    if (maxWeight < 1) {
      throw new IllegalArgumentException("a feed's weight bound must be at least 1, not " + maxWeight);
    }
    this.queue = queue;
    this.filter = filter;
    this.onOverflow = onOverflow;
    this.weight = weight;
    this.maxWeight = maxWeight;
  }

  /** Offers an element without blocking; false once the feed is closed (the caller drops it). */
  boolean offer(T element) {
    if (closed) {
      return false;
    }
    if (!filter.test(element)) {
      return true;
    }
    int w = weight.applyAsInt(element);
    int before = queuedWeight.getAndAdd(w);
    if (before > 0 && before + w > maxWeight) {
      queuedWeight.addAndGet(-w);
      onOverflow.run();
      complete();
      return false;
    }
    QueueOfferResult result = queue.offer(element);
    if (result.isEnqueued()) {
      return true;
    }
    queuedWeight.addAndGet(-w);
    if (result == QueueOfferResult.dropped()) {
      onOverflow.run();
    }
    complete();
    return false;
  }

  /** The client's stream took {@code element} from the queue: its weight no longer counts. */
  T taken(T element) {
    queuedWeight.addAndGet(-weight.applyAsInt(element));
    return element;
  }

  /** Weight offered and not yet taken. */
  int queuedWeight() {
    return queuedWeight.get();
  }

  /**
   * Ends the feed after what is queued. Quiet when the client's stream has ended first (the client left): its queue
   * is then completed already, and completing it again would throw, on the session's thread or in the clean-up of
   * the stream, which then left the client subscribed and counted.
   */
  void complete() {
    if (!closed) {
      closed = true;
      if (!queue.isCompleted()) {
        try {
          queue.complete();
        } catch (IllegalStateException endedMeanwhile) {
          // the client's stream ended between the check and the call: nothing is left to complete
        }
      }
    }
  }

  boolean closed() {
    return closed;
  }
}
