package io.interpreter4j.runtime.repl;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.internal.UnstashException;

/**
 * Remembers what one incarnation of a {@link ReplWorker} threw while handling a message or signal, then lets it
 * propagate to the supervisor: {@code PreRestart} and {@code PostStop} carry no cause, and the worker names it in the
 * notice of the block it was running. Used on the actor's thread only.
 */
final class CrashRecorder extends BehaviorInterceptor<ReplWorker.Command, ReplWorker.Command> {

  private Throwable failure;

  CrashRecorder() {
    super(ReplWorker.Command.class);
  }

  /** The last exception thrown, or null. */
  Throwable failure() {
    return failure;
  }

  @Override
  public Behavior<ReplWorker.Command> aroundReceive(TypedActorContext<ReplWorker.Command> ctx,
      ReplWorker.Command msg, ReceiveTarget<ReplWorker.Command> target) {
    try {
      return target.apply(ctx, msg);
    } catch (RuntimeException e) {
      record(e);
      throw e;
    }
  }

  @Override
  public Behavior<ReplWorker.Command> aroundSignal(TypedActorContext<ReplWorker.Command> ctx, Signal signal,
      SignalTarget<ReplWorker.Command> target) {
    try {
      return target.apply(ctx, signal);
    } catch (RuntimeException e) {
      record(e);
      throw e;
    }
  }

  private void record(RuntimeException e) {
    // a report handled while the stash is emptied fails wrapped in Pekko's UnstashException; name the report's cause
    failure = UnstashException.unwrap(e);
  }
}
