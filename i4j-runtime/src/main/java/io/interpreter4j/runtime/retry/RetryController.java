package io.interpreter4j.runtime.retry;

import io.interpreter4j.core.healing.HealingBudget;
import java.util.Optional;
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

  public record BlockFinished(String code, boolean failed, String output, ActorRef<Verdict> replyTo)
      implements Command {}

  /** {@code stopReason} present: give up the turn with that reason. */
  public record Verdict(Optional<String> stopReason, int iterations) {
    public boolean goOn() {
      return stopReason.isEmpty();
    }
  }

  public static Behavior<Command> create(int maxIterations, int maxConsecutiveFailures) {
    return Behaviors.setup(ctx -> new RetryController(ctx, maxIterations, maxConsecutiveFailures));
  }

  private final int maxIterations;
  private final int maxConsecutiveFailures;
  private HealingBudget budget;

  private RetryController(ActorContext<Command> context, int maxIterations, int maxConsecutiveFailures) {
    super(context);
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
    Optional<String> stop = budget.beforeModelCall();
    m.replyTo().tell(new Verdict(stop, budget.iterations()));
    return this;
  }

  private Behavior<Command> onBlockFinished(BlockFinished m) {
    Optional<String> stop = budget.afterBlock(m.code(), m.failed(), m.output());
    m.replyTo().tell(new Verdict(stop, budget.iterations()));
    return this;
  }
}
