package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.healing.Backoff;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.PromptBuilder;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.DangerAnalyzer;
import io.interpreter4j.runtime.approval.ApprovalGate;
import io.interpreter4j.runtime.approval.ApprovalInputs;
import io.interpreter4j.runtime.llm.LlmStreamer;
import io.interpreter4j.runtime.repl.ExecResult;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import io.interpreter4j.runtime.repl.ReplWorker;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.retry.RetryController;
import io.interpreter4j.runtime.sandbox.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.japi.function.Function;

/**
 * One conversation. Runs one turn at a time ({@link TurnRunner}): model call ({@link LlmStreamer}) -> code blocks ->
 * approval ({@link ApprovalGate}) -> execution ({@link ReplWorker}, one per language, {@link ReplWorkers}) -> result
 * back to the model, for as long as the {@link RetryController} allows. Every step is published as an event, journaled
 * first ({@link SessionEvents}). It alone decides whether a turn may start.
 *
 * <p>Failures: a child that throws is restarted (at most {@link #RESTARTS} times in {@link #WITHIN}) and tells the
 * session first, which ends the turn {@code failed} naming what crashed; past the limit the child stops and the
 * session takes no more turns. A handler of the session itself that throws ends the turn the same way and keeps
 * the conversation. A journal that cannot be written ends the turn and the session's turns for good.
 */
public final class Session extends AbstractBehavior<Session.Command> {

  public interface Command {}

  /**
   * A user message: starts a turn. {@code replyTo}, if not null, hears whether it did; a message refused while a
   * turn runs or after the session failed is answered with an {@code error} event too.
   */
  public record UserMessage(String text, ActorRef<TurnStart> replyTo) implements Command {
    public UserMessage(String text) {
      this(text, null);
    }
  }

  /**
   * Run {@code code} as a block of its own, without a model (the Java API's {@code execute}, {@code i4j mcp}'s
   * {@code execute}): a turn that is the block's approval (the danger analysis, the policy rules, the approval mode and
   * the approver apply as to a model's block) and its run in the session's interpreter of {@code language}, whose
   * state it shares with the model's blocks, then ends: {@code done} when it ran, whatever its exit code, {@code
   * blocked} when it was not allowed, {@code interrupted}. Its events are a {@code code_block}, the {@code approval},
   * its run and the {@code turn_finished} (no {@code user_message}); the conversation does not change. {@code replyTo}
   * (may be null) hears whether it started, as for a {@link UserMessage}; {@code resultTo} (may be null) hears exactly
   * one {@link Executed}: how it ended, or why it did not start.
   */
  public record RunCode(String language, String code, ActorRef<TurnStart> replyTo, ActorRef<Executed> resultTo)
      implements Command {
    public RunCode(String language, String code, ActorRef<TurnStart> replyTo) {
      this(language, code, replyTo, null);
    }
  }

  /**
   * How a {@link RunCode} ended. block: its number (0 when refused before it got one); decision: the gate's verdict,
   * null when it never reached the gate; result: null when the code did not run; reason: why it did not run (refused,
   * denied, unknown language, interrupted or failed before running), else null.
   */
  public record Executed(int block, ApprovalGate.Decision decision, ExecResult result, String reason) {}

  /** Whether a {@link UserMessage} started a turn; {@code reason} says why not. */
  public record TurnStart(Outcome outcome, String reason) {
    public enum Outcome { STARTED, BUSY, EMPTY, FAILED }

    public boolean started() {
      return outcome == Outcome.STARTED;
    }
  }

  /** Interrupt the running turn: cancels the model call, the approval question or the running block. */
  public enum Interrupt implements Command { INSTANCE }

  /** End the session: stops its REPL processes and closes its journal; the transcript stays on disk. */
  public enum Stop implements Command { INSTANCE }

  /** Adds an event subscriber; it hears every event from the next one on. */
  public record Subscribe(Consumer<Event> subscriber) implements Command {}

  public record GetStatus(ActorRef<Status> replyTo) implements Command {}

  /** {@code failure}: why the session takes no more turns (a journal that cannot be written, a child that kept crashing), else null. */
  public record Status(String id, SessionStatus status, String title, String model, int iterations, Instant started,
                       Instant lastActivity, long inputTokens, long outputTokens, Path journal, String failure) {}

  // Conversation edits between turns (%reset, %undo, %load, resume); each is refused while a turn runs.

  /** Start a new conversation: only the system prompt is kept, and the REPL processes are restarted. */
  public record Reset(ActorRef<Changed> replyTo) implements Command {}

  /** Remove the user's last message and everything after it; the REPL processes keep their state. */
  public record Undo(ActorRef<Changed> replyTo) implements Command {}

  /**
   * Replace the conversation with restored messages (system prompts among them are dropped) and restart the REPL
   * processes. reason: load | resume; source: where the messages came from (a file, a session id); note, if not
   * null, is added to the system prompt (e.g. that the REPL state of the restored blocks was not kept).
   */
  public record Restore(List<ChatMessage> messages, String reason, String source, String note,
                        ActorRef<Changed> replyTo) implements Command {}

  /** done: whether the conversation changed; message: what happened, for a person; messages: the conversation now. */
  public record Changed(boolean done, String message, List<ChatMessage> messages) {}

  /** The conversation as the model gets it on the next call, system prompt first. */
  public record GetHistory(ActorRef<History> replyTo) implements Command {}

  public record History(List<ChatMessage> messages) {}

  /**
   * Switch the approval gate between ask and auto (%auto_run, the dashboard). When the session's containment puts
   * auto-run code in a sandbox the session does not run in yet, switching to auto restarts the REPL processes inside
   * it (their state is reset and the model is told so); while a turn runs, the switch waits for it to end. Switching
   * back to ask keeps the sandbox. {@code replyTo}, if not null, hears what happened.
   */
  public record SetApprovalMode(Settings.ApprovalMode mode, ActorRef<ModeSet> replyTo) implements Command {
    public SetApprovalMode(Settings.ApprovalMode mode) {
      this(mode, null);
    }
  }

  /**
   * The answer to {@link SetApprovalMode}: the sandbox the code runs in from now on ("none": unconfined), whether the
   * REPL processes were restarted into it, and whether the switch waits for the running turn to end.
   */
  public record ModeSet(Settings.ApprovalMode mode, String sandbox, boolean restarted, boolean deferred) {}

  private record FromStreamer(LlmStreamer.Reply reply) implements Command {}

  private record FromGate(ApprovalGate.Reply reply) implements Command {}

  private record FromWorker(ReplWorker.Reply reply) implements Command {}

  private record FromRetry(RetryController.Verdict verdict) implements Command {}

  /** The retry controller's answer to the {@code ask}-th question did not come in time. */
  record VerdictTimedOut(int ask) implements Command {}

  enum LanguagesFound implements Command { INSTANCE }

  private record ChildStopped(String child) implements Command {}

  private record WorkerStopped(String language, ActorRef<ReplWorker.Command> worker) implements Command {}

  private record JournalFailed(String message) implements Command {}

  /** An event of the computer router ({@code computer_action}), published on the session's thread. */
  private record ComputerEvent(EventPayload payload) implements Command {}

  /** How often the streamer, the gate and the retry controller may be restarted in {@link #WITHIN}. */
  static final int RESTARTS = 3;
  static final Duration WITHIN = Duration.ofMinutes(1);

  /** The installed languages with their versions, for the system prompt: "python 3.11.7", "bash 5.2.15", ... */
  public static List<String> languages() {
    return LanguageRegistry.shared().labels();
  }

  public static Behavior<Command> create(SessionSpec spec) {
    return Behaviors.setup(ctx -> {
      Path dir = spec.settings().dataDir().resolve("sessions").resolve(spec.id());
      SessionEvents events;
      try {
        events = new SessionEvents(spec.id(), dir.resolve("events.jsonl"), Clock.systemUTC());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create the session folder " + dir + ": " + e.getMessage(), e);
      }
      spec.subscribers().forEach(events::subscribe);
      return new Session(ctx, spec, dir, events);
    });
  }

  private final SessionSpec spec;
  private final SessionEvents events;
  private final ActorRef<LlmStreamer.Command> streamer;
  private final ActorRef<ApprovalGate.Command> gate;
  private final ReplWorkers workers;
  private final Conversation conversation;
  private final TurnRunner turn;
  private final ConversationCommands edits;
  private final Instant started;
  /** Computer use ({@code --computer}), or null when it is off. */
  private final ComputerUse computer;
  private Settings.ApprovalMode approvalMode;
  /** Where the code runs now; the workers start their interpreters in it. */
  private Sandbox sandbox;
  /** The sandbox a switch to auto waits to move into when the running turn ends, or null. */
  private Sandbox pendingAutoRun;
  private Instant lastActivity;
  private long inputTokens;
  private long outputTokens;
  /** Why the session takes no more turns, or null. */
  private String failure;

  private Session(ActorContext<Command> context, SessionSpec spec, Path sessionDir, SessionEvents events) {
    super(context);
    this.spec = spec;
    this.events = events;
    this.started = Instant.now();
    this.lastActivity = started;
    Settings settings = spec.settings();
    this.approvalMode = settings.approvalMode();
    this.sandbox = spec.sandbox();
    Backoff backoff = new Backoff(settings.minBackoff(), settings.maxBackoff(), new Random());
    this.streamer = spawnWatched(LlmStreamer.create(spec.provider(), settings.defaultLanguage(),
        settings.modelAttempts(), backoff, context.messageAdapter(LlmStreamer.Reply.class, FromStreamer::new),
        spec.faults()), "llm-streamer", "LLM streamer");
    this.gate = spawnWatched(ApprovalGate.create(spec.id(), settings.approvalMode(), spec.approver(),
        new ApprovalInputs(new DangerAnalyzer(), settings.approvalRules(),
            AnalysisContext.of(settings.workdir(), Path.of(System.getProperty("user.home")))
                // with isolated installs, pip lands in WORKDIR/.venv: not a global install
                .withVenvActive(spec.venv() == VenvMode.AUTO || AnalysisContext.current().venvActive()),
            spec.approver().interactive(), settings.dangerouslyAllowAll()), spec.faults()),
        "approval-gate", "approval gate");
    ActorRef<RetryController.Command> retry = spawnWatched(RetryController.create(settings.maxIterations(),
        settings.maxConsecutiveFailures(), spec.faults()), "retry-controller", "retry controller");
    // the configuration the system was started with may add languages; installed ones are found in the background
    LanguageRegistry languages = LanguageRegistry.of(context.getSystem().settings().config());
    languages.discovery();
    this.workers = new ReplWorkers(context, spec, sandbox, sessionDir, languages, WorkerStopped::new);
    ActorRef<Command> me = context.getSelf();
    this.computer = ComputerUse.start(context, spec, sessionDir, payload -> me.tell(new ComputerEvent(payload)));
    List<String> rules = new ArrayList<>(List.of(sandbox.promptSentence(), spec.venv().promptSentence()));
    if (computer != null) {
      workers.extraEnv(computer::env);
      rules.add(computer.promptSentence());
      events.subscribe(e -> {
        if (e.payload() instanceof EventPayload.ExecStarted started) {
          computer.blockRunning(started.block());
        }
      });
    }
    workers.startPythonEarly(context.getSystem().settings().config()); // overlaps the first model call
    this.conversation = new Conversation(PromptBuilder.systemPrompt(spec.host(), LocalDate.now(),
        settings.customInstructions(), rules));
    this.turn = new TurnRunner(context, settings, events, conversation, new TurnRunner.Children(streamer, gate, retry,
        workers, context.messageAdapter(ApprovalGate.Reply.class, FromGate::new),
        context.messageAdapter(ReplWorker.Reply.class, FromWorker::new),
        context.messageAdapter(RetryController.Verdict.class, FromRetry::new)), languages, spec.faults());
    this.edits = new ConversationCommands(conversation, workers, events, turn::busy, this::touch);
    ActorRef<Command> self = context.getSelf();
    events.onJournalFailure(message -> self.tell(new JournalFailed(message)));
    events.publish(new EventPayload.SessionStarted(spec.provider().name(), settings.workdir().toString()));
  }

  private <T> ActorRef<T> spawnWatched(Behavior<T> behavior, String name, String what) {
    ActorRef<T> child = getContext().spawn(Behaviors.supervise(behavior)
        .onFailure(SupervisorStrategy.restart().withLimit(RESTARTS, WITHIN)), name);
    getContext().watchWith(child, new ChildStopped(what));
    return child;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(UserMessage.class, guarded(this::onUserMessage))
        .onMessage(RunCode.class, guarded(this::onRunCode))
        .onMessage(Interrupt.class, guarded(this::onInterrupt))
        .onMessage(Stop.class, this::onStop)
        .onMessage(Subscribe.class, this::onSubscribe)
        .onMessage(GetStatus.class, this::onGetStatus)
        .onMessage(Reset.class, guarded(m -> edit(() -> edits.reset(m.replyTo()))))
        .onMessage(Undo.class, guarded(m -> edit(() -> edits.undo(m.replyTo()))))
        .onMessage(Restore.class, guarded(m -> edit(() -> edits.restore(m))))
        .onMessage(GetHistory.class, m -> edit(() -> m.replyTo().tell(new History(List.copyOf(conversation.forModel())))))
        .onMessage(SetApprovalMode.class, guarded(this::onSetApprovalMode))
        .onMessage(FromStreamer.class, guarded(this::onStreamer))
        .onMessage(FromGate.class, guarded(this::onGate))
        .onMessage(FromWorker.class, guarded(m -> step(() -> turn.onWorker(m.reply()))))
        .onMessage(FromRetry.class, guarded(m -> step(() -> turn.onVerdict(m.verdict()))))
        .onMessage(VerdictTimedOut.class, guarded(m -> step(() -> turn.onVerdictTimedOut(m.ask()))))
        .onMessage(LanguagesFound.class, guarded(m -> step(turn::onLanguagesFound)))
        .onMessage(ChildStopped.class, this::onChildStopped)
        .onMessage(WorkerStopped.class, this::onWorkerStopped)
        .onMessage(JournalFailed.class, this::onJournalFailed)
        .onMessage(ComputerEvent.class, m -> edit(() -> events.publish(m.payload())))
        .onSignal(PostStop.class, this::onPostStop)
        .build();
  }

  /**
   * A handler that cannot take the session down: if it throws, the running turn ends {@code failed} with a reason
   * naming the step, a running block's worker is stopped, and the conversation is kept for the next message.
   */
  private <M> Function<M, Behavior<Command>> guarded(Function<M, Behavior<Command>> handler) {
    return message -> {
      TurnRunner.Phase phase = turn.phase();
      try {
        switchWhenIdle();
        Behavior<Command> next = handler.apply(message);
        switchWhenIdle();
        return next;
      } catch (RuntimeException e) {
        getContext().getLog().error("session {} crashed while {}", spec.id(), describe(phase), e);
        String reason = "the session crashed while " + describe(phase) + " (" + e.getMessage() + ")";
        events.publish(new EventPayload.Error("internal error: " + reason
            + "; the turn was stopped, the conversation is kept: send your message again"));
        turn.fail(reason);
        return this;
      }
    };
  }

  private Behavior<Command> edit(Runnable action) {
    action.run();
    return this;
  }

  private Behavior<Command> step(Runnable action) {
    touch();
    action.run();
    return this;
  }

  private static String describe(TurnRunner.Phase phase) {
    return switch (phase) {
      case IDLE -> "idle";
      case STREAMING -> "streaming the model's answer";
      case AWAITING_APPROVAL -> "awaiting approval";
      case EXECUTING -> "running a block";
      case CHECKING -> "checking a block's result";
    };
  }

  // ---- user commands ----

  private Behavior<Command> onUserMessage(UserMessage m) {
    TurnStart refusal = refusal(m.text());
    if (refusal == null) {
      try {
        turn.start(m.text()); // its user_message event is out before the answer: a caller reading events sees it
      } finally {
        reply(m.replyTo(), new TurnStart(TurnStart.Outcome.STARTED, null));
      }
    } else {
      reply(m.replyTo(), refusal);
    }
    return this;
  }

  private Behavior<Command> onRunCode(RunCode m) {
    TurnStart refusal = m.language() == null || m.language().isBlank()
        ? new TurnStart(TurnStart.Outcome.EMPTY, "no language given; say which interpreter runs the code")
        : refusal(m.code());
    if (refusal == null) {
      try {
        turn.startBlock(m.language(), m.code(), m.resultTo()); // its code_block event is out before the answer
      } finally {
        reply(m.replyTo(), new TurnStart(TurnStart.Outcome.STARTED, null));
      }
    } else {
      reply(m.replyTo(), refusal);
      if (m.resultTo() != null) {
        m.resultTo().tell(new Executed(0, null, null, refusal.reason()));
      }
    }
    return this;
  }

  /** Why a turn with {@code text} cannot start now (published as an error event too), or null when it can. */
  private TurnStart refusal(String text) {
    touch();
    TurnStart refusal = null;
    if (failure != null) {
      refusal = new TurnStart(TurnStart.Outcome.FAILED, "the session takes no more turns: " + failure);
    } else if (turn.busy()) {
      refusal = new TurnStart(TurnStart.Outcome.BUSY,
          "a turn is still running; wait for it to finish or interrupt it before sending another message");
    } else if (text == null || text.isBlank()) {
      refusal = new TurnStart(TurnStart.Outcome.EMPTY, "the message is empty; say what you want done");
    }
    if (refusal != null) {
      events.publish(new EventPayload.Error(refusal.reason()));
    }
    return refusal;
  }

  private static void reply(ActorRef<TurnStart> replyTo, TurnStart answer) {
    if (replyTo != null) {
      replyTo.tell(answer);
    }
  }

  private Behavior<Command> onInterrupt(Interrupt m) {
    touch();
    turn.interrupt();
    return this;
  }

  private Behavior<Command> onStop(Stop m) {
    turn.stop();
    return Behaviors.stopped();
  }

  private Behavior<Command> onPostStop(PostStop signal) {
    // Children (REPL workers, the computer's display) are stopped with us; their stop hooks kill their processes.
    if (computer != null) {
      computer.close();
    }
    events.closeAndForgetIfSilent();
    return this;
  }

  private Behavior<Command> onSubscribe(Subscribe m) {
    events.subscribe(m.subscriber());
    return this;
  }

  private Behavior<Command> onGetStatus(GetStatus m) {
    SessionStatus status = failure != null && !turn.busy() ? SessionStatus.FAILED : turn.status();
    m.replyTo().tell(new Status(spec.id(), status, conversation.title(), spec.provider().name(), turn.iterations(),
        started, lastActivity, inputTokens, outputTokens, events.journalFile(), failure));
    return this;
  }

  private Behavior<Command> onStreamer(FromStreamer m) {
    if (m.reply() instanceof LlmStreamer.Final f) {
      // the call's last piece, usage and end at once (the streamer waits for no ack of it); its block goes to the gate
      // first, which decides while the events are journaled
      turn.precheck(f);
      for (LlmStreamer.Reply part : f.parts()) {
        onStreamerReply(part, false);
      }
    } else {
      onStreamerReply(m.reply(), true);
    }
    return this;
  }

  private void onStreamerReply(LlmStreamer.Reply reply, boolean ackPieces) {
    boolean ack = ackPieces && reply instanceof LlmStreamer.Piece;
    if (!turn.current(reply)) {
      if (ack) {
        streamer.tell(new LlmStreamer.Ack(reply.callId()));
      }
      return;
    }
    touch();
    if (reply instanceof LlmStreamer.Usage u) {
      inputTokens += u.inputTokens();
      outputTokens += u.outputTokens();
    }
    turn.onStreamer(reply);
    if (ack) {
      streamer.tell(new LlmStreamer.Ack(reply.callId()));
    }
  }

  private Behavior<Command> onGate(FromGate m) {
    if (m.reply() instanceof ApprovalGate.Crashed) {
      gate.tell(new ApprovalGate.SetMode(approvalMode)); // the restarted gate starts in the session's first mode
    }
    return step(() -> turn.onDecision(m.reply()));
  }

  // ---- failures that end the session's turns ----

  private Behavior<Command> onChildStopped(ChildStopped m) {
    endForGood("its " + m.child() + " crashed " + (RESTARTS + 1) + " times within " + WITHIN.toMinutes()
        + " minute(s) and was stopped");
    return this;
  }

  private Behavior<Command> onWorkerStopped(WorkerStopped m) {
    if (workers.stoppedByItself(m.language(), m.worker())) {
      events.publish(new EventPayload.Error("the " + m.language() + " worker crashed " + (ReplWorkers.RESTARTS + 1)
          + " times within " + ReplWorkers.WITHIN.toMinutes() + " minute(s) and was stopped; the next "
          + m.language() + " block starts a new one"));
      turn.onWorkerStopped(m.language());
    }
    return this;
  }

  private Behavior<Command> onJournalFailed(JournalFailed m) {
    endForGood(m.message());
    return this;
  }

  /** The session cannot go on: says so, ends the running turn {@code failed} and refuses further turns. */
  private void endForGood(String why) {
    if (failure != null) {
      return;
    }
    failure = why;
    events.publish(new EventPayload.Error("the session takes no more turns: " + why));
    turn.fail(why);
  }

  private Behavior<Command> onSetApprovalMode(SetApprovalMode m) {
    if (m.mode() == Settings.ApprovalMode.AUTO) {
      Sandbox target = spec.containment().forAutoRun(); // probed once per process; the front doors probe at start
      if (target != sandbox) {
        boolean busy = turn.busy();
        if (busy) {
          pendingAutoRun = target; // the running turn's blocks keep the current mode and sandbox
        } else {
          moveIntoSandbox(target);
        }
        answer(m, new ModeSet(m.mode(), target.name(), !busy, busy));
        return this;
      }
    }
    pendingAutoRun = null;
    approvalMode = m.mode();
    gate.tell(new ApprovalGate.SetMode(m.mode()));
    answer(m, new ModeSet(m.mode(), sandbox.name(), false, false));
    return this;
  }

  /**
   * Auto-run from now on, with the REPL processes restarted inside {@code target}: the model is told where its code
   * may write and that the state of earlier blocks is gone.
   */
  private void moveIntoSandbox(Sandbox target) {
    pendingAutoRun = null;
    sandbox = target;
    workers.restartAll(target);
    conversation.amendSystemPrompt("Auto-run was switched on during this conversation. " + target.promptSentence()
        + " The REPL processes were restarted inside the sandbox then: variables, imports and definitions of the "
        + "blocks before are gone; define again what you need.");
    approvalMode = Settings.ApprovalMode.AUTO;
    gate.tell(new ApprovalGate.SetMode(approvalMode));
  }

  /** A switch to auto that waited for the running turn happens once the session is idle, before a new turn. */
  private void switchWhenIdle() {
    if (pendingAutoRun != null && !turn.busy()) {
      moveIntoSandbox(pendingAutoRun);
    }
  }

  private static void answer(SetApprovalMode m, ModeSet answer) {
    if (m.replyTo() != null) {
      m.replyTo().tell(answer);
    }
  }

  private void touch() {
    lastActivity = Instant.now();
  }
}
