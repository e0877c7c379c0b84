package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Session#events()}: backpressure. A subscriber that asks for one event at a time, and asks for the next only
 * after the turn is over, sees every event in order, while the session neither waits for it nor holds more than its
 * ring in memory.
 */
class SessionEventsTest {

  private static final int RING = 4;

  @TempDir
  Path tmp;

  /** A subscriber driven by the test: it requests only when told, and hands each event over. */
  static final class SlowSubscriber implements Flow.Subscriber<Event> {
    final BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    final CompletableFuture<Flow.Subscription> subscription = new CompletableFuture<>();

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription.complete(s);
    }

    @Override
    public void onNext(Event item) {
      received.add(item);
    }

    @Override
    public void onError(Throwable throwable) {
      received.add(throwable);
    }

    @Override
    public void onComplete() {
      received.add("complete");
    }

    Object next() throws InterruptedException {
      subscription.join().request(1);
      Object o = received.poll(60, TimeUnit.SECONDS);
      assertNotNull(o, "no event within 60 s after request(1)");
      return o;
    }
  }

  @Test
  void aSubscriberFarBehindTheSessionSeesEveryEventInOrder() throws Exception {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).eventBuffer(RING).build()) {
      Session s = i4j.newSession();
      SlowSubscriber slow = new SlowSubscriber();
      s.events().subscribe(slow);
      assertTrue(slow.next() instanceof Event.SessionStarted);

      // the whole turn runs while the subscriber has asked for no more than that one event
      TurnResult r = s.chat("mean of 3 5 8 13").toCompletableFuture().get(60, TimeUnit.SECONDS);
      assertEquals(TurnStatus.DONE, r.status(), r.toString());
      assertTrue(s.bufferedEvents() <= RING, "the ring holds " + s.bufferedEvents() + " events");
      assertTrue(slow.received.isEmpty(), "events came without being requested: " + slow.received);

      List<Event> seen = new ArrayList<>();
      seen.add(null); // seq 1 was taken above
      Object o;
      while (!((o = slow.next()) instanceof Event.TurnFinished)) {
        seen.add((Event) o);
      }
      seen.add((Event) o);
      long last = ((Event) o).seq();
      assertTrue(last > 4 * RING, "too few events to fall behind the ring: " + last);
      assertEquals(LongStream.rangeClosed(2, last).boxed().toList(),
          seen.subList(1, seen.size()).stream().map(Event::seq).toList());
      // the model's answer streamed in pieces; those missed by the ring came from disk, all of them
      String streamed = seen.stream().filter(e -> e instanceof Event.AssistantDelta)
          .map(e -> ((Event.AssistantDelta) e).text()).reduce("", String::concat);
      assertTrue(streamed.contains("nums = [3, 5, 8, 13]") && streamed.endsWith("is **7.25**."), streamed);

      // a fast subscriber sees the same events
      s.close();
      assertEquals(TurnStatus.DONE, r.status());
      List<Event> all = s.eventSource().runWith(Sink.seq(), SharedSystem.current()).toCompletableFuture()
          .get(60, TimeUnit.SECONDS);
      assertEquals(all.subList(1, all.size()), seen.subList(1, seen.size()));
      assertEquals("complete", slow.next());
    }
  }

  @Test
  void aSubscriberReadsToTheEndAfterTheInterpreterClosed() throws Exception {
    Session s;
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).eventBuffer(RING).build()) {
      s = i4j.newSession();
      assertEquals(TurnStatus.DONE, s.chat("mean of 3 5 8 13").toCompletableFuture().get(60, TimeUnit.SECONDS)
          .status());
    }
    assertEquals(null, SharedSystem.current());
    SlowSubscriber late = new SlowSubscriber();
    s.events().subscribe(late);
    List<String> types = new ArrayList<>();
    Object o;
    while ((o = late.next()) instanceof Event e) {
      types.add(e.type());
    }
    assertEquals("complete", o);
    assertEquals("session_started", types.get(0));
    assertEquals("turn_finished", types.get(types.size() - 1));
    assertTrue(types.contains("assistant_delta") && types.contains("exec_finished"), types.toString());
  }

  @Test
  void aNonPositiveRequestEndsTheSubscriptionWithAnError() throws Exception {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build();
         Session s = i4j.newSession()) {
      SlowSubscriber sub = new SlowSubscriber();
      s.events().subscribe(sub);
      sub.subscription.join().request(0);
      Object o = sub.received.poll(60, TimeUnit.SECONDS);
      assertTrue(o instanceof IllegalArgumentException, String.valueOf(o));
    }
  }
}
