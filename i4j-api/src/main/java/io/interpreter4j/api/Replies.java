package io.interpreter4j.api;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Short-lived actors that turn a session's answers into futures without a timeout: the session answers every request
 * exactly once, and if it stops first the future fails instead of waiting for ever.
 */
final class Replies {

  private static final AtomicLong NAMES = new AtomicLong();

  private Replies() {}

  /** An address whose first message completes {@code future}; it fails if {@code watched} stops first. */
  static <T> ActorRef<T> once(ActorSystem<?> system, ActorRef<?> watched, CompletableFuture<T> future) {
    Behavior<T> behavior = Behaviors.setup(ctx -> {
      ctx.watch(watched);
      return Behaviors.<T>receive((c, message) -> {
        future.complete(message);
        return Behaviors.stopped();
      }, (c, signal) -> {
        if (signal instanceof Terminated) {
          future.completeExceptionally(new IllegalStateException("the session ended before it answered"));
          return Behaviors.stopped();
        }
        return Behaviors.same();
      });
    });
    return system.systemActorOf(behavior, "i4j-api-reply-" + NAMES.incrementAndGet(), Props.empty());
  }

  /** Completes when {@code watched} has stopped (its children, the REPL workers, stopped before it). */
  static CompletableFuture<Void> terminated(ActorSystem<?> system, ActorRef<?> watched) {
    CompletableFuture<Void> ended = new CompletableFuture<>();
    system.systemActorOf(Behaviors.<Void>setup(ctx -> {
      ctx.watch(watched);
      return Behaviors.<Void>receiveSignal((c, signal) -> {
        if (signal instanceof Terminated) {
          ended.complete(null);
          return Behaviors.stopped();
        }
        return Behaviors.same();
      });
    }), "i4j-api-watch-" + NAMES.incrementAndGet(), Props.empty());
    return ended;
  }
}
