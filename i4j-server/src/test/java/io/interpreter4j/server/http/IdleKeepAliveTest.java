package io.interpreter4j.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Elements pass through unchanged and in order; only a stream with nothing to send gets comments. */
class IdleKeepAliveTest {
  private static final int COMMENT = -1;
  private static ActorSystem<Void> system;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.empty(), "idle-keep-alive-test");
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  @Test
  void passesEveryElementInOrderAndCompletes() throws Exception {
    List<Integer> sent = IntStream.rangeClosed(1, 5_000).boxed().toList();
    List<Integer> got = Source.from(sent)
        .via(new IdleKeepAlive<>(Duration.ofHours(1), COMMENT))
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(sent, got);
  }

  @Test
  void anIdleStreamGetsACommentEachPeriod() throws Exception {
    List<Integer> got = Source.<Integer>never()
        .via(new IdleKeepAlive<>(Duration.ofMillis(20), COMMENT))
        .take(3)
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertEquals(List.of(COMMENT, COMMENT, COMMENT), got);
  }

  @Test
  void elementsBetweenIdlePeriodsKeepTheirOrder() throws Exception {
    // elements 100 ms apart with a 10 ms period: comments come between them, never in place of one
    List<Integer> got = Source.range(1, 5)
        .throttle(1, Duration.ofMillis(100))
        .via(new IdleKeepAlive<>(Duration.ofMillis(10), COMMENT))
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
    List<Integer> elements = new ArrayList<>(got);
    elements.removeIf(e -> e == COMMENT);
    assertEquals(List.of(1, 2, 3, 4, 5), elements);
  }

  @Test
  void aFailureIsPassedOn() {
    ExecutionException failed = assertThrows(ExecutionException.class, () -> Source.<Integer>failed(
            new IllegalStateException("upstream broke"))
        .via(new IdleKeepAlive<>(Duration.ofHours(1), COMMENT))
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS));
    assertEquals("upstream broke", failed.getCause().getMessage());
  }

  @Test
  void refusesAPeriodThatIsNotPositive() {
    assertThrows(IllegalArgumentException.class, () -> new IdleKeepAlive<>(Duration.ZERO, COMMENT));
  }
}
