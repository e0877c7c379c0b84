package io.interpreter4j.runtime.approval;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.config.Settings.ApprovalMode;
import io.interpreter4j.core.event.EventPayload.RiskFlag;
import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.safety.ApprovalPolicy;
import io.interpreter4j.core.safety.PolicyDecision;
import io.interpreter4j.core.safety.analysis.Risk;
import io.interpreter4j.runtime.supervision.Faults;
import java.util.List;
import java.util.function.Supplier;
import java.util.Locale;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Decides whether a code block runs. Each block gets a danger analysis and is checked against the user's
 * rules; {@link ApprovalPolicy} then says run, ask a person (through the session's {@link Approver}) or deny.
 * Under auto mode ({@code -y}) high-risk blocks are asked about in a terminal and denied elsewhere. One question
 * at a time; the gate moves idle -> awaiting -> idle.
 */
public final class ApprovalGate {

  public interface Command {}

  /**
   * Decide on a block: replyTo hears {@link Asking} if a person is asked, then exactly one {@link Decision}
   * (none if cancelled). A {@code precheck} never asks anyone: it is answered with the {@link Decision} when the
   * analysis and the rules decide alone, else with {@link WouldAsk} (the session sends the block again as a plain
   * review once the events before the question are out). The session prechecks the block that ends a model call
   * while it still journals the call's last events, so the decision is ready when it needs it.
   */
  public record Review(CodeBlock block, ActorRef<Reply> replyTo, boolean precheck) implements Command {
    public Review(CodeBlock block, ActorRef<Reply> replyTo) {
      this(block, replyTo, false);
    }
  }

  /** Withdraw the open question, if any; no decision is sent for it. */
  public enum Cancel implements Command { INSTANCE }

  /** Switch between ask and auto (the %auto_run command, the dashboard). */
  public record SetMode(ApprovalMode mode) implements Command {}

  private record Answered(int block, Approver.Answer answer, Throwable failure) implements Command {}

  /** What the gate tells the session about a block. */
  public sealed interface Reply {
    int block();
  }

  /** The answer to a precheck that needs a person: nobody was asked yet; review the block to ask. */
  public record WouldAsk(int block) implements Reply {}

  /** A person is being asked about this block (the dashboard shows an approval card). */
  public record Asking(int block, String language, String code, String risk, List<RiskFlag> flags) implements Reply {}

  /**
   * The gate crashed while deciding on this block (it is restarted, in its first mode, with no question open): no
   * decision comes for it.
   */
  public record Crashed(int block, String message) implements Reply {}

  /**
   * The verdict on a block. decision: approved | denied | edited; by: auto | user | policy; code is what runs.
   * {@code unanswerable} marks a denial because no one could be asked.
   */
  public record Decision(int block, ApprovalDecision decision, DecidedBy by, String code, String reason,
                         boolean unanswerable, String risk, List<RiskFlag> flags) implements Reply {
    public boolean runs() {
      return decision.runs();
    }
  }

  private static final ApprovalPolicy POLICY = new ApprovalPolicy();

  public static Behavior<Command> create(String sessionId, ApprovalMode mode, Approver approver, ApprovalInputs inputs) {
    return create(sessionId, mode, approver, inputs, Faults.NONE);
  }

  /** {@code faults}: test-only crash points. */
  public static Behavior<Command> create(String sessionId, ApprovalMode mode, Approver approver, ApprovalInputs inputs,
                                         Faults faults) {
    return Behaviors.setup(ctx -> new ApprovalGate(ctx, sessionId, approver, inputs, faults).idle(mode));
  }

  private final ActorContext<Command> context;
  private final Faults faults;
  private final String sessionId;
  private final Approver approver;
  private final ApprovalInputs inputs;

  private ApprovalGate(ActorContext<Command> context, String sessionId, Approver approver, ApprovalInputs inputs,
                       Faults faults) {
    this.context = context;
    this.faults = faults;
    this.sessionId = sessionId;
    this.approver = approver;
    this.inputs = inputs;
  }

  private Behavior<Command> idle(ApprovalMode mode) {
    return Behaviors.receive(Command.class)
        .onMessage(Review.class, review -> crashReported(review, () -> onReview(mode, review)))
        .onMessage(SetMode.class, m -> idle(m.mode()))
        .onMessage(Cancel.class, c -> Behaviors.same())
        .onMessage(Answered.class, stale -> Behaviors.same())
        .build();
  }

  /**
   * Runs a step of the review; if it throws, the session hears {@link Crashed} (and the person's question, if any,
   * is withdrawn) before the exception restarts the gate.
   */
  private Behavior<Command> crashReported(Review review, Supplier<Behavior<Command>> step) {
    try {
      return step.get();
    } catch (RuntimeException e) {
      approver.cancel(sessionId, review.block().index());
      review.replyTo().tell(new Crashed(review.block().index(), String.valueOf(e.getMessage())));
      throw e;
    }
  }

  private Behavior<Command> onReview(ApprovalMode mode, Review review) {
    faults.hit(Faults.Point.GATE_REVIEW);
    CodeBlock block = review.block();
    Risk risk = inputs.analyzer().analyze(block.language(), block.code(), inputs.context());
    PolicyDecision rules = inputs.rules().evaluate(block.language(), block.code());
    ApprovalPolicy.Decision decision = POLICY.decide(
        mode == ApprovalMode.AUTO ? ApprovalPolicy.Mode.AUTO : ApprovalPolicy.Mode.ASK,
        inputs.interactive(), inputs.dangerouslyAllowAll(), rules, risk);
    String level = risk.level().name().toLowerCase(Locale.ROOT);
    List<RiskFlag> flags = risk.flags().stream()
        .map(f -> new RiskFlag(f.level().name().toLowerCase(Locale.ROOT), f.rule(), f.reason()))
        .toList();
    switch (decision.outcome()) {
      case RUN -> {
        boolean byRisk = decision.basis() == ApprovalPolicy.Basis.AUTO_RISK;
        review.replyTo().tell(new Decision(block.index(), ApprovalDecision.APPROVED, byRisk ? DecidedBy.AUTO : DecidedBy.POLICY, block.code(),
            byRisk ? null : decision.reason(), false, level, flags));
        return Behaviors.same();
      }
      case DENY -> {
        review.replyTo().tell(new Decision(block.index(), ApprovalDecision.DENIED, DecidedBy.POLICY, block.code(), decision.reason(), false,
            level, flags));
        return Behaviors.same();
      }
      default -> {
        if (review.precheck()) {
          review.replyTo().tell(new WouldAsk(block.index()));
          return Behaviors.same();
        }
        review.replyTo().tell(new Asking(block.index(), block.language(), block.code(), level, flags));
        context.pipeToSelf(approver.ask(sessionId, block),
            (answer, failure) -> new Answered(block.index(), answer, failure));
        return awaiting(mode, review, level, flags);
      }
    }
  }

  private Behavior<Command> awaiting(ApprovalMode mode, Review review, String level, List<RiskFlag> flags) {
    return Behaviors.receive(Command.class)
        .onMessage(Answered.class, a -> crashReported(review, () -> onAnswered(mode, review, a, level, flags)))
        .onMessage(SetMode.class, m -> awaiting(m.mode(), review, level, flags))
        .onMessage(Cancel.class, c -> onCancel(mode, review))
        .onMessage(Review.class, r -> {
          r.replyTo().tell(new Decision(r.block().index(), ApprovalDecision.DENIED, DecidedBy.POLICY, r.block().code(),
              "another block is waiting for approval", false, "low", List.of()));
          return Behaviors.same();
        })
        .build();
  }

  private Behavior<Command> onAnswered(ApprovalMode mode, Review review, Answered a, String level,
                                       List<RiskFlag> flags) {
    if (a.block() != review.block().index()) {
      return Behaviors.same();
    }
    faults.hit(Faults.Point.GATE_ANSWER);
    CodeBlock block = review.block();
    Decision decision;
    if (a.failure() != null) {
      decision = new Decision(block.index(), ApprovalDecision.DENIED, DecidedBy.USER, block.code(),
          "the approval prompt failed: " + a.failure().getMessage(), true, level, flags);
    } else {
      Approver.Answer answer = a.answer();
      decision = switch (answer.kind()) {
        case YES -> new Decision(block.index(), ApprovalDecision.APPROVED, DecidedBy.USER, block.code(), null, false, level, flags);
        case EDIT -> new Decision(block.index(), ApprovalDecision.EDITED, DecidedBy.USER, answer.code(), null, false, level, flags);
        case NO -> new Decision(block.index(), ApprovalDecision.DENIED, DecidedBy.USER, block.code(), answer.reason(), false, level, flags);
        case NO_ONE -> new Decision(block.index(), ApprovalDecision.DENIED, DecidedBy.USER, block.code(), answer.reason(), true, level,
            flags);
      };
    }
    review.replyTo().tell(decision);
    return idle(mode);
  }

  private Behavior<Command> onCancel(ApprovalMode mode, Review review) {
    approver.cancel(sessionId, review.block().index());
    return idle(mode);
  }
}
