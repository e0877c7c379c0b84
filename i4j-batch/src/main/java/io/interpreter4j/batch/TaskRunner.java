package io.interpreter4j.batch;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionSpec;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Runs one task: a session of its own (a child, so stopping this actor stops the session and its REPL
 * processes), the prompt as its one user message, a wall-clock limit, and then its {@link TaskResult}. Whatever
 * ends the task (turn finished, time out, the batch stopping) it stops the session and waits for it to end, so
 * the task's processes are gone before the next task takes its slot.
 */
public final class TaskRunner extends AbstractBehavior<TaskRunner.Command> {

  public interface Command {}

  /** The batch is stopping: stop the session; the task gets no result and runs again on resume. */
  public enum Abort implements Command { INSTANCE }

  public interface Reply {
    String taskId();
  }

  /** The session started ({@code session} is null when it could not be created; a Finished follows). */
  public record Started(String taskId, String sessionId, ActorRef<Session.Command> session) implements Reply {}

  public record Finished(String taskId, TaskResult result) implements Reply {}

  /** Stopped by {@link Abort}: no result. */
  public record Aborted(String taskId) implements Reply {}

  private record SessionEvent(EventPayload payload) implements Command {}

  private record TurnAnswer(Session.TurnStart start) implements Command {}

  private enum SessionEnded implements Command { INSTANCE }

  private enum TimedOut implements Command { INSTANCE }

  private enum StopOverdue implements Command { INSTANCE }

  private enum Phase { RUNNING, STOPPING }

  private static final Duration STOP_GRACE = Duration.ofSeconds(15);

  public static Behavior<Command> create(BatchTask task, String sessionId, TaskEnvironment env,
                                         ActorRef<Reply> replyTo) {
    return create(task, sessionId, env, List.of(), replyTo);
  }

  /**
   * As above; {@code alsoTell} get every event of the task's session too (a server's hub, so that the session is
   * listed and followed like any other).
   */
  public static Behavior<Command> create(BatchTask task, String sessionId, TaskEnvironment env,
                                         List<Consumer<Event>> alsoTell, ActorRef<Reply> replyTo) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      long start = System.nanoTime();
      ActorRef<Command> self = ctx.getSelf();
      Consumer<Event> forward = event -> {
        if (TaskOutcome.relevant(event.payload())) {
          self.tell(new SessionEvent(event.payload()));
        }
      };
      SessionSpec spec;
      try {
        spec = sessionSpec(task, sessionId, env, forward, alsoTell);
      } catch (RuntimeException e) {
        replyTo.tell(new Started(task.id(), sessionId, null));
        replyTo.tell(new Finished(task.id(), TaskResult.error(task.id(), null, elapsedMs(start),
            "the session could not start: " + e.getMessage())));
        return Behaviors.stopped();
      }
      return new TaskRunner(ctx, timers, task, spec, env.defaultTimeout(), replyTo, start);
    }));
  }

  private static SessionSpec sessionSpec(BatchTask task, String sessionId, TaskEnvironment env,
                                         Consumer<Event> subscriber, List<Consumer<Event>> alsoTell) {
    Settings settings = env.settings().forTask(task);
    String model = settings.model();
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException("no model: give the batch -m MODEL, or the task a \"model\" or "
          + "\"cassette\"");
    }
    ModelProvider provider = env.models().apply(model);
    if (provider == null) {
      throw new IllegalArgumentException("no provider for model " + model);
    }
    HostInfo h = env.host();
    HostInfo host = new HostInfo(h.osName(), h.osVersion(), h.arch(), h.user(), settings.workdir().toString(),
        h.shell(), h.pythonVersion(), h.languages());
    List<Consumer<Event>> subscribers = new java.util.ArrayList<>(alsoTell);
    subscribers.add(subscriber);
    return new SessionSpec(sessionId, settings, provider, Approver.NOBODY, host, List.copyOf(subscribers));
  }

  private final TimerScheduler<Command> timers;
  private final BatchTask task;
  private final String sessionId;
  private final ActorRef<Reply> replyTo;
  private final ActorRef<Session.Command> session;
  private final Duration timeout;
  private final long start;
  private final TaskOutcome outcome = new TaskOutcome();

  private Phase phase = Phase.RUNNING;
  private boolean timedOut;
  private boolean endedByTurn;
  private boolean aborting;

  private TaskRunner(ActorContext<Command> context, TimerScheduler<Command> timers, BatchTask task, SessionSpec spec,
                     Duration defaultTimeout, ActorRef<Reply> replyTo, long start) {
    super(context);
    this.timers = timers;
    this.task = task;
    this.sessionId = spec.id();
    this.replyTo = replyTo;
    this.start = start;
    this.timeout = task.timeout() != null ? task.timeout() : defaultTimeout;
    // Resumed on failure as under the SessionManager: a session keeps its conversation through a bug.
    this.session = context.spawn(
        Behaviors.supervise(Session.create(spec)).onFailure(SupervisorStrategy.resume()), "session");
    context.watchWith(session, SessionEnded.INSTANCE);
    timers.startSingleTimer(TimedOut.INSTANCE, timeout);
    replyTo.tell(new Started(task.id(), sessionId, session));
    session.tell(new Session.UserMessage(task.prompt(),
        context.messageAdapter(Session.TurnStart.class, TurnAnswer::new)));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(SessionEvent.class, this::onSessionEvent)
        .onMessage(TurnAnswer.class, this::onTurnAnswer)
        .onMessage(TimedOut.class, this::onTimedOut)
        .onMessage(Abort.class, this::onAbort)
        .onMessage(SessionEnded.class, this::onSessionEnded)
        .onMessage(StopOverdue.class, this::onStopOverdue)
        .build();
  }

  private Behavior<Command> onSessionEvent(SessionEvent m) {
    outcome.accept(m.payload());
    if (phase == Phase.RUNNING && outcome.turnFinished()) {
      endedByTurn = true;
      stopSession();
    }
    return this;
  }

  /** The session refused the task's message (e.g. its journal cannot be written): the task failed, saying why. */
  private Behavior<Command> onTurnAnswer(TurnAnswer m) {
    if (!m.start().started() && phase == Phase.RUNNING) {
      outcome.refused(m.start().reason());
      endedByTurn = true;
      stopSession();
    }
    return this;
  }

  private Behavior<Command> onTimedOut(TimedOut m) {
    if (phase == Phase.RUNNING) {
      timedOut = true;
      stopSession();
    }
    return this;
  }

  private Behavior<Command> onAbort(Abort m) {
    aborting = true;
    if (phase == Phase.RUNNING) {
      stopSession();
    }
    return this;
  }

  /** Stops the session (a running turn ends interrupted); the result follows when it has stopped. */
  private void stopSession() {
    phase = Phase.STOPPING;
    timers.cancel(TimedOut.INSTANCE);
    session.tell(Session.Stop.INSTANCE);
    timers.startSingleTimer(StopOverdue.INSTANCE, STOP_GRACE);
  }

  private Behavior<Command> onSessionEnded(SessionEnded m) {
    // Stopped as asked, or by itself while running (it could not start, or failed for good).
    timers.cancel(TimedOut.INSTANCE);
    return report();
  }

  private Behavior<Command> onStopOverdue(StopOverdue m) {
    getContext().getLog().warn("task {}: session {} did not stop within {}; stopping it forcibly", task.id(),
        sessionId, STOP_GRACE);
    return report();
  }

  /** Tells the batch how the task ended and stops; the session, if still there, stops with this actor. */
  private Behavior<Command> report() {
    if (aborting && !endedByTurn && !timedOut) {
      replyTo.tell(new Aborted(task.id()));
    } else {
      TaskResult result = outcome.result(task.id(), sessionId, timedOut ? timeout : null, elapsedMs(start));
      replyTo.tell(new Finished(task.id(), result));
    }
    return Behaviors.stopped();
  }

  private static long elapsedMs(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }
}
