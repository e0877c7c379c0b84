package io.interpreter4j.runtime.retry;

import io.interpreter4j.core.healing.HealingBudget;
import io.interpreter4j.runtime.supervision.Faults;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The self-healing controller of one session: after each block and before each model call it says whether
 * the loop may go on, within the bounds of a {@link HealingBudget} that starts afresh with each user message.
 */
public final class RetryController extends AbstractBehavior<RetryController.Command> {

  public interface Command {}

  /** A new user message: the budget starts again. */
  public enum NewMessage implements Command { INSTANCE }

  public record BeforeModelCall(ActorRef<Verdict> replyTo) implements Command {}

  /**
   * A block's result. {@code thenCall}: no block follows it, so the next step is a model call; the verdict then
   * covers that call too (as a {@link BeforeModelCall} right after), which saves the session a round trip per block.
   */
  public record BlockFinished(String code, boolean failed, String output, boolean thenCall, ActorRef<Verdict> replyTo)
      implements Command {
    public BlockFinished(String code, boolean failed, String output, ActorRef<Verdict> replyTo) {
      this(code, failed, output, false, replyTo);
    }
  }

  /**
   * {@code stopReason} present: give up the turn with that reason. {@code crash} present: the controller crashed
   * answering (it is restarted with a fresh budget); the turn cannot be judged and must end.
   */
  public record Verdict(Optional<String> stopReason, int iterations, Optional<String> crash) {
    public Verdict(Optional<String> stopReason, int iterations) {
      this(stopReason, iterations, Optional.empty());
    }

    public boolean goOn() {
      return stopReason.isEmpty() && crash.isEmpty();
    }
  }

  public static Behavior<Command> create(int maxIterations, int maxConsecutiveFailures) {
    return create(maxIterations, maxConsecutiveFailures, Faults.NONE);
  }

  /** {@code faults}: test-only crash points. */
  public static Behavior<Command> create(int maxIterations, int maxConsecutiveFailures, Faults faults) {
    return Behaviors.setup(ctx -> new RetryController(ctx, maxIterations, maxConsecutiveFailures, faults));
  }

  private final Faults faults;
  private final int maxIterations;
  private final int maxConsecutiveFailures;
  private HealingBudget budget;

  private RetryController(ActorContext<Command> context, int maxIterations, int maxConsecutiveFailures,
                          Faults faults) {
    super(context);
    this.faults = faults;
    this.maxIterations = maxIterations;
    this.maxConsecutiveFailures = maxConsecutiveFailures;
    this.budget = new HealingBudget(maxIterations, maxConsecutiveFailures);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(NewMessage.class, this::onNewMessage)
        .onMessage(BeforeModelCall.class, this::onBeforeModelCall)
        .onMessage(BlockFinished.class, this::onBlockFinished)
        .build();
  }

  private Behavior<Command> onNewMessage(NewMessage m) {
    budget = new HealingBudget(maxIterations, maxConsecutiveFailures);
    return this;
  }

  private Behavior<Command> onBeforeModelCall(BeforeModelCall m) {
    return answering(m.replyTo(), () -> {
      faults.hit(Faults.Point.RETRY_BEFORE_CALL);
      return budget.beforeModelCall();
    });
  }

  private Behavior<Command> onBlockFinished(BlockFinished m) {
    return answering(m.replyTo(), () -> {
      faults.hit(Faults.Point.RETRY_BLOCK_FINISHED);
      Optional<String> stop = budget.afterBlock(m.code(), m.failed(), m.output());
      if (stop.isPresent() || !m.thenCall()) {
        return stop;
      }
      faults.hit(Faults.Point.RETRY_BEFORE_CALL);
      return budget.beforeModelCall();
    });
  }

  /** Answers with the budget's verdict; if judging throws, answers that it crashed, then fails (and is restarted). */
  private Behavior<Command> answering(ActorRef<Verdict> replyTo, Supplier<Optional<String>> judge) {
    try {
      Optional<String> stop = judge.get();
      replyTo.tell(new Verdict(stop, budget.iterations()));
      return this;
    } catch (RuntimeException e) {
      replyTo.tell(new Verdict(Optional.empty(), budget.iterations(), Optional.of(String.valueOf(e.getMessage()))));
      throw e;
    }
  }
}
