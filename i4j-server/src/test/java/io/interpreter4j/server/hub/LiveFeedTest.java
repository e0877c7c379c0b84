package io.interpreter4j.server.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.BoundedSourceQueue;
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
    for (int i = 1; i <= 4; i++) {
      assertTrue(feed.offer(i));
    }
    assertTrue(feed.offer(10), "filtered out, not queued");
    assertFalse(feed.offer(5), "no room: the feed ends rather than wait");
    assertEquals(1, overflows.get());
    assertTrue(feed.closed());
    assertFalse(feed.offer(6));
    List<Integer> got = q.second().runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(1, 2, 3, 4), got, "the client gets what was queued, then the end of the stream");
  }
}
