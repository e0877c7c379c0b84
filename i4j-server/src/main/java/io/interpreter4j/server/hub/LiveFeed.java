package io.interpreter4j.server.hub;

import java.util.function.Predicate;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.QueueOfferResult;

/**
 * One client's live events: a bounded queue between the session's thread (which only offers, never waits) and
 * the client's HTTP stream. When the client falls behind and the queue is full, the feed is completed: the
 * client gets what was queued, then the end of the stream, and reconnects with {@code Last-Event-ID}.
 *
 * @param <T> what the feed carries
 */
public final class LiveFeed<T> {
  private final BoundedSourceQueue<T> queue;
  private final Predicate<T> filter;
  private final Runnable onOverflow;
  private volatile boolean closed;

  LiveFeed(BoundedSourceQueue<T> queue, Predicate<T> filter, Runnable onOverflow) {
    this.queue = queue;
    this.filter = filter;
    this.onOverflow = onOverflow;
  }

  /** Offers an element without blocking; false once the feed is closed (the caller drops it). */
  boolean offer(T element) {
    if (closed) {
      return false;
    }
    if (!filter.test(element)) {
      return true;
    }
    QueueOfferResult result = queue.offer(element);
    if (result.isEnqueued()) {
      return true;
    }
    if (result == QueueOfferResult.dropped()) {
      onOverflow.run();
    }
    complete();
    return false;
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
