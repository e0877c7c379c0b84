package io.interpreter4j.runtime.computer;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.safety.SecretRedactor;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The session's way to the computer: takes each action of the python API ({@link ComputerChannel}) and of tool
 * calls, checks it ({@link ActionCatalog}), hands it as a {@link Perform} to its target (the {@link DisplayActor}
 * for display, mouse and keyboard; the actor that a registered factory makes for {@code browser}), and publishes
 * a {@code computer_action} event for each one, whatever became of it. The display is spawned at once (its screen
 * must be there before a block starts a program on it); other targets on their first action; a target that stopped
 * is spawned again on the next. A target that does not answer within {@link #ACTION_TIMEOUT}
 * fails the action.
 */
public final class ComputerRouter extends AbstractBehavior<ComputerRouter.Command> {

  public interface Command {}

  /** Perform {@code action} of {@code target}; {@code replyTo} hears the outcome once. */
  public record Act(String target, String action, Map<String, Object> args, ActorRef<ActionOutcome> replyTo)
      implements Command {}

  /** The block now running: the actions that follow belong to it. */
  public record BlockRunning(long block) implements Command {}

  private record Finished(long id, ActionOutcome outcome, Throwable failure) implements Command {}

  /** An action sent to a target and not answered yet. */
  private record Pending(String targetName, ComputerAction action, ActorRef<ActionOutcome> replyTo) {}

  private record TargetStopped(String name, ActorRef<ComputerCommand> ref) implements Command {}

  /** Long enough for a person to answer an ask-before question. */
  static final Duration ACTION_TIMEOUT = Duration.ofMinutes(15);

  static final String NO_BROWSER = "no browser is available in this session: computer.browser needs the browser "
      + "target (Playwright with Chromium); use the screen (computer.display, mouse, keyboard) instead";

  /**
   * @param targets target name -> factory of its actor; {@code display} serves display, mouse and keyboard
   * @param gate    asks before the kinds of action in {@code interpreter4j.computer.ask-before}
   * @param events  publishes the session's events
   */
  public static Behavior<Command> create(Map<String, Supplier<Behavior<ComputerCommand>>> targets, ActionGate gate,
                                         Consumer<EventPayload> events) {
    return Behaviors.setup(ctx -> new ComputerRouter(ctx, targets, gate, events));
  }

  private final Map<String, Supplier<Behavior<ComputerCommand>>> factories;
  private final Map<String, ActorRef<ComputerCommand>> running = new HashMap<>();
  private final ActionGate gate;
  private final Consumer<EventPayload> events;
  /** Actions sent and not answered, by id: answered at once when their target stops. */
  private final Map<Long, Pending> pending = new HashMap<>();
  private long block;
  private int spawned;
  private long nextId;

  private ComputerRouter(ActorContext<Command> context, Map<String, Supplier<Behavior<ComputerCommand>>> targets,
                         ActionGate gate, Consumer<EventPayload> events) {
    super(context);
    this.factories = Map.copyOf(targets);
    this.gate = gate;
    this.events = events;
    if (factories.containsKey("display")) {
      running.put("display", spawn("display")); // the screen is up before a block starts a program on it
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Act.class, this::onAct)
        .onMessage(BlockRunning.class, this::onBlockRunning)
        .onMessage(Finished.class, this::onFinished)
        .onMessage(TargetStopped.class, this::onTargetStopped)
        .build();
  }

  private Behavior<Command> onBlockRunning(BlockRunning m) {
    block = m.block();
    return this;
  }

  private Behavior<Command> onAct(Act m) {
    ComputerAction action = new ComputerAction(block, m.target(), m.action(), m.args() == null ? Map.of() : m.args());
    Optional<String> problem = ActionCatalog.check(m.target(), m.action());
    String targetName = ActionCatalog.DISPLAY_TARGETS.contains(m.target()) ? "display" : m.target();
    if (problem.isEmpty() && !factories.containsKey(targetName)) {
      problem = Optional.of(targetName.equals("browser") ? NO_BROWSER
          : "computer use is off in this session: there is no screen to act on");
    }
    if (problem.isPresent()) {
      finish(action, ActionOutcome.failed(problem.get()), m.replyTo());
      return this;
    }
    ActorRef<ComputerCommand> target = running.computeIfAbsent(targetName, this::spawn);
    long id = ++nextId;
    pending.put(id, new Pending(targetName, action, m.replyTo()));
    getContext().ask(ActionOutcome.class, target, ACTION_TIMEOUT, replyTo -> new Perform(action, gate, replyTo),
        (outcome, failure) -> new Finished(id, outcome, failure));
    return this;
  }

  private ActorRef<ComputerCommand> spawn(String name) {
    ActorRef<ComputerCommand> ref = getContext().spawn(factories.get(name).get(), name + "-" + (++spawned));
    getContext().watchWith(ref, new TargetStopped(name, ref));
    return ref;
  }

  private Behavior<Command> onFinished(Finished m) {
    Pending p = pending.remove(m.id());
    if (p == null) {
      return this; // answered when its target stopped
    }
    ActionOutcome outcome = m.failure() != null
        ? ActionOutcome.failed("the " + p.action().target() + " did not answer within " + ACTION_TIMEOUT.toMinutes()
            + " minutes; the action may or may not have happened")
        : m.outcome();
    finish(p.action(), outcome, p.replyTo());
    return this;
  }

  private void finish(ComputerAction action, ActionOutcome outcome, ActorRef<ActionOutcome> replyTo) {
    events.accept(event(action, outcome));
    replyTo.tell(outcome);
  }

  private Behavior<Command> onTargetStopped(TargetStopped m) {
    running.remove(m.name(), m.ref());
    pending.entrySet().removeIf(e -> {
      if (!e.getValue().targetName().equals(m.name())) {
        return false;
      }
      finish(e.getValue().action(), ActionOutcome.failed("the " + m.name() + " stopped (it failed too often); the "
          + "action may or may not have happened; the next action starts it again"), e.getValue().replyTo());
      return true;
    });
    getContext().getLog().warn("the computer's {} target stopped; the next action starts it again", m.name());
    return this;
  }

  /** The {@code computer_action} event of one action: model coordinates, the text typed (redacted later), the result. */
  static EventPayload.ComputerAction event(ComputerAction a, ActionOutcome outcome) {
    Map<String, Object> args = a.args();
    Integer x = integer(args.containsKey("x") ? args.get("x") : args.get("x1"));
    Integer y = integer(args.containsKey("y") ? args.get("y") : args.get("y1"));
    Object text = args.containsKey("text") ? args.get("text") : args.get("keys");
    if (Boolean.TRUE.equals(args.get("secret")) && text != null) {
      text = SecretRedactor.REDACTED; // a password the model marked; known secrets are redacted by the session
    }
    Object ref = args.get("ref");
    String url = outcome.url().orElse(args.get("url") instanceof String u ? u : null);
    String result = outcome.text();
    if (result != null && result.length() > 500) {
      result = result.substring(0, 500) + "...";
    }
    return new EventPayload.ComputerAction((int) a.block(), a.target() + "." + a.action(), x, y,
        text == null ? null : String.valueOf(text), ref == null ? null : String.valueOf(ref), url, outcome.ok(), result);
  }

  private static Integer integer(Object v) {
    return v instanceof Number n ? (int) Math.floor(n.doubleValue()) : null;
  }
}
