package io.interpreter4j.server.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A feed never blocks the publisher: when its client is behind by the buffer, it is ended instead. */
class LiveFeedTest {
  private static ActorSystem<Void> system;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "live-feed-test");
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  @Test
  void aFullFeedIsCompletedAfterWhatItQueued() throws Exception {
    Pair<BoundedSourceQueue<Integer>, Source<Integer, NotUsed>> q = Source.<Integer>queue(4).preMaterialize(system);
    AtomicInteger overflows = new AtomicInteger();
    LiveFeed<Integer> feed = new LiveFeed<>(q.first(), i -> i % 10 != 0, overflows::incrementAndGet);
    assertTrue(feed.offer(10), "filtered out, not queued");
    // Nobody reads: past the queue (and the small buffer of the stream behind it) an offer fails at once.
    int accepted = 0;
    for (int i = 1; i < 1_000 && feed.offer(i * 10 + 1); i++) {
      accepted++;
    }
    assertTrue(accepted >= 4 && accepted < 100, "bounded: " + accepted);
    assertEquals(1, overflows.get());
    assertTrue(feed.closed());
    assertFalse(feed.offer(7));
    List<Integer> got = q.second().runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(accepted, got.size(), "the client gets what was queued, then the end of the stream");
    for (int i = 0; i < got.size(); i++) {
      assertEquals((i + 1) * 10 + 1, got.get(i));
    }
  }

  @Test
  void aFeedWhoseClientHasGoneEndsQuietly() throws Exception {
    // a queue whose stream was cancelled by its client (connected in one graph: no publisher hop to wait for)
    BoundedSourceQueue<Integer> queue = Source.<Integer>queue(4).toMat(Sink.cancelled(), Keep.left()).run(system);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    // the queue learns of the cancellation asynchronously; an offer after it answers QueueClosed
    boolean closed = false;
    while (!closed && System.nanoTime() < deadline) {
      closed = queue.isCompleted() || queue.offer(0) == org.apache.pekko.stream.QueueOfferResult.closed();
      if (!closed) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      }
    }
    assertTrue(closed, "the queue saw its stream cancelled");
    LiveFeed<Integer> feed = new LiveFeed<>(queue, i -> true, () -> { });
    assertFalse(feed.offer(1), "nobody reads it any more");
    assertTrue(feed.closed());
    feed.complete();
    LiveFeed<Integer> untouched = new LiveFeed<>(queue, i -> true, () -> { });
    untouched.complete();
    assertTrue(untouched.closed());
  }

  @Test
  void aFeedOfBatchesIsBoundedByTheEventsTheyHoldNotByTheirNumber() throws Exception {
    Pair<BoundedSourceQueue<List<Integer>>, Source<List<Integer>, NotUsed>> q =
        Source.<List<Integer>>queue(100).preMaterialize(system);
    AtomicInteger overflows = new AtomicInteger();
    LiveFeed<List<Integer>> feed = new LiveFeed<>(q.first(), b -> true, overflows::incrementAndGet, List::size, 10);
    assertTrue(feed.offer(List.of(1, 2, 3, 4, 5, 6, 7, 8)));
    assertTrue(feed.offer(List.of(9, 10)), "10 events queued: the bound, not past it");
    assertEquals(10, feed.queuedWeight());
    assertFalse(feed.offer(List.of(11)), "an 11th event is past the bound, though the queue has room for 98 batches");
    assertEquals(1, overflows.get());
    assertTrue(feed.closed());
    List<List<Integer>> got = q.second().map(feed::taken).runWith(Sink.seq(), system)
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(List.of(1, 2, 3, 4, 5, 6, 7, 8), List.of(9, 10)), got);
    assertEquals(0, feed.queuedWeight(), "what the stream took no longer counts");
  }

  @Test
  void anEmptyFeedTakesOneBatchLargerThanItsBoundAndTheStreamTakingItMakesRoom() throws Exception {
    Pair<BoundedSourceQueue<List<Integer>>, Source<List<Integer>, NotUsed>> q =
        Source.<List<Integer>>queue(100).preMaterialize(system);
    LiveFeed<List<Integer>> feed = new LiveFeed<>(q.first(), b -> true, () -> { }, List::size, 4);
    List<Integer> big = List.of(1, 2, 3, 4, 5, 6);
    assertTrue(feed.offer(big), "a client that keeps up is never cut off by one burst");
    assertEquals(6, feed.queuedWeight());
    assertEquals(big, feed.taken(big));
    assertTrue(feed.offer(List.of(7, 8, 9, 10)), "room again once the stream took the burst");
    assertFalse(feed.offer(List.of(11)));
    assertThrows(IllegalArgumentException.class, () -> new LiveFeed<>(q.first(), b -> true, () -> { }, List::size, 0));
  }
}
