package io.interpreter4j.server.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A session's events go to its clients at once after a quiet interval, together when they come faster, always in
 * order and each once. The intervals here are zero or an hour, so what is held is decided by the test, not the clock.
 */
class SessionFanOutTest {
  private static ActorSystem<Void> system;
  private static ScheduledExecutorService timer;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "session-fan-out-test");
    timer = Executors.newSingleThreadScheduledExecutor();
  }

  @AfterAll
  static void stop() {
    timer.shutdownNow();
    system.terminate();
  }

  /** A client: its feed, and what it will have got when its stream ends. */
  private record Client(LiveFeed<EventBatch> feed, CompletionStage<List<EventBatch>> got) {}

  private static Client client(SessionFanOut fanOut) {
    Pair<BoundedSourceQueue<EventBatch>, Source<EventBatch, org.apache.pekko.NotUsed>> q =
        Source.<EventBatch>queue(1_024).preMaterialize(system);
    LiveFeed<EventBatch> feed = new LiveFeed<>(q.first(), b -> true, () -> { });
    fanOut.add(feed);
    return new Client(feed, q.second().runWith(Sink.seq(), system));
  }

  private static EventLine line(long seq) {
    return new EventLine("s", seq, "{\"seq\":" + seq + "}");
  }

  private static List<List<Long>> seqs(Client client) throws Exception {
    List<List<Long>> batches = new ArrayList<>();
    for (EventBatch batch : client.got().toCompletableFuture().get(10, TimeUnit.SECONDS)) {
      batches.add(batch.lines().stream().map(EventLine::seq).toList());
    }
    return batches;
  }

  @Test
  void withoutAnIntervalEveryEventGoesAtOnceAlone() throws Exception {
    SessionFanOut fanOut = new SessionFanOut(Duration.ZERO, timer);
    Client a = client(fanOut);
    Client b = client(fanOut);
    for (long seq = 1; seq <= 5; seq++) {
      fanOut.publish(line(seq));
    }
    fanOut.complete();
    List<List<Long>> expected = List.of(List.of(1L), List.of(2L), List.of(3L), List.of(4L), List.of(5L));
    assertEquals(expected, seqs(a));
    assertEquals(expected, seqs(b));
  }

  @Test
  void eventsThatComeWithinTheIntervalGoTogetherAndNoneIsLost() throws Exception {
    SessionFanOut fanOut = new SessionFanOut(Duration.ofHours(1), timer);
    Client a = client(fanOut);
    fanOut.publish(line(1));
    Client late = client(fanOut);
    fanOut.publish(line(2));
    fanOut.publish(line(3));
    fanOut.publish(line(4));
    // the end hands out what is held before it ends the streams
    fanOut.complete();
    assertEquals(List.of(List.of(1L), List.of(2L, 3L, 4L)), seqs(a), "the first at once, the rest together");
    assertEquals(List.of(List.of(2L, 3L, 4L)), seqs(late), "a client added meanwhile gets what was held");
  }

  @Test
  void aBurstLargerThanWhatIsHeldGoesOutWithoutWaiting() throws Exception {
    SessionFanOut fanOut = new SessionFanOut(Duration.ofHours(1), timer);
    Client a = client(fanOut);
    long last = 1 + SessionFanOut.MAX_HELD;
    for (long seq = 1; seq <= last; seq++) {
      fanOut.publish(line(seq));
    }
    a.feed().complete();
    assertEquals(List.of(List.of(1L), LongStream.rangeClosed(2, last).boxed().toList()), seqs(a));
  }

  @Test
  void heldEventsGoOutOnceTheIntervalHasPassed() throws Exception {
    SessionFanOut fanOut = new SessionFanOut(Duration.ofMillis(1), timer);
    Client a = client(fanOut);
    for (long seq = 1; seq <= 200; seq++) {
      fanOut.publish(line(seq));
    }
    // nothing ends the session here: the timer must hand out what was held
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (fanOut.heldCount() > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    assertEquals(0, fanOut.heldCount(), "handed out by the timer");
    a.feed().complete();
    List<Long> all = new ArrayList<>();
    for (List<Long> batch : seqs(a)) {
      all.addAll(batch);
    }
    assertEquals(LongStream.rangeClosed(1, 200).boxed().toList(), all, "each event once, in order");
  }

  @Test
  void aNegativeIntervalIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new SessionFanOut(Duration.ofMillis(-1), timer));
  }
}
