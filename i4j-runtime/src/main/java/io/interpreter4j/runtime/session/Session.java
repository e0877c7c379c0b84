package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.config.Settings.InterceptorMode;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.healing.Backoff;
import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.MarkdownReply;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.core.prompt.PromptBuilder;
import io.interpreter4j.core.safety.AnalysisContext;
import io.interpreter4j.core.safety.DangerAnalyzer;
import io.interpreter4j.runtime.approval.ApprovalGate;
import io.interpreter4j.runtime.approval.Safety;
import io.interpreter4j.runtime.llm.LlmStreamer;
import io.interpreter4j.runtime.repl.ExecResult;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import io.interpreter4j.runtime.repl.ReplConfig;
import io.interpreter4j.runtime.repl.ReplWorker;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.retry.RetryController;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

/**
 * One conversation. Runs one turn at a time: model call (via {@link LlmStreamer}) -> code blocks -> approval
 * ({@link ApprovalGate}) -> execution ({@link ReplWorker}, one per language, started lazily) -> result back to
 * the model, for as long as the {@link RetryController} allows. Every step is published as an event.
 */
public final class Session extends AbstractBehavior<Session.Command> {

  public interface Command {}

  /** A user message: starts a turn (refused with an error event while one is running). */
  public record UserMessage(String text) implements Command {}

  /** Interrupt the running turn: cancels the model call, the approval question or the running block. */
  public enum Interrupt implements Command { INSTANCE }

  /** End the session: stops its REPL processes and closes its journal; the transcript stays on disk. */
  public enum Stop implements Command { INSTANCE }

  /** Adds an event subscriber; it hears every event from the next one on. */
  public record Subscribe(Consumer<Event> subscriber) implements Command {}

  public record GetStatus(ActorRef<Status> replyTo) implements Command {}

  /** status: streaming | awaiting_approval | executing | idle | done | failed | gave_up | interrupted | blocked. */
  public record Status(String id, String status, String title, String model, int iterations, Instant started,
                       Instant lastActivity, long inputTokens, long outputTokens, Path journal) {}

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

  /** Switch the approval gate between ask and auto (%auto_run, the dashboard). */
  public record SetApprovalMode(Settings.ApprovalMode mode) implements Command {}

  private record FromStreamer(LlmStreamer.Reply reply) implements Command {}

  private record FromGate(ApprovalGate.Reply reply) implements Command {}

  private record FromWorker(ReplWorker.Reply reply) implements Command {}

  private record Verdict(boolean beforeCall, RetryController.Verdict verdict, Throwable failure) implements Command {}

  private enum LanguagesFound implements Command { INSTANCE }

  private enum Phase { IDLE, STREAMING, AWAITING_APPROVAL, EXECUTING, CHECKING }

  /** The installed languages with their versions, for the system prompt: "python 3.11.7", "bash 5.2.15", ... */
  public static List<String> languages() {
    return LanguageRegistry.shared().labels();
  }

  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

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
  private final Settings settings;
  private final Path sessionDir;
  private final SessionEvents events;
  private final ActorRef<LlmStreamer.Command> streamer;
  private final ActorRef<ApprovalGate.Command> gate;
  private final ActorRef<RetryController.Command> retry;
  private final ActorRef<ApprovalGate.Reply> decisionAdapter;
  private final ActorRef<ReplWorker.Reply> workerAdapter;
  private final Map<String, ActorRef<ReplWorker.Command>> workers = new HashMap<>();
  private final LanguageRegistry languages;
  private boolean awaitingLanguages;
  private final List<ChatMessage> history = new ArrayList<>();
  /** The user's messages in this conversation, oldest first: what %undo takes back. */
  private final Deque<String> userTexts = new ArrayDeque<>();
  private final String systemPrompt;
  /** Bumped when the REPL processes are restarted, so new workers never clash with stopping ones by name. */
  private int replGeneration;
  private final Instant started;

  private Phase phase = Phase.IDLE;
  private String lastStatus = "idle";
  private String title = "";
  private Instant lastActivity;
  private int iterations;
  private long inputTokens;
  private long outputTokens;
  private int callId;
  private int nextBlockIndex = 1;
  private int callFirstBlockIndex = 1;
  private final StringBuilder deltaText = new StringBuilder();
  private final List<Object> replyParts = new ArrayList<>();
  private final Deque<CodeBlock> pendingBlocks = new ArrayDeque<>();
  private final List<String> results = new ArrayList<>();
  private CodeBlock awaitingBlock;
  private CodeBlock runningBlock;
  private String runningCode;
  private ActorRef<ReplWorker.Command> runningWorker;
  private boolean interruptRequested;
  private boolean lastBlockFailed;

  private Session(ActorContext<Command> context, SessionSpec spec, Path sessionDir, SessionEvents events) {
    super(context);
    this.spec = spec;
    this.settings = spec.settings();
    this.sessionDir = sessionDir;
    this.events = events;
    this.started = Instant.now();
    this.lastActivity = started;
    ActorRef<LlmStreamer.Reply> streamerAdapter = context.messageAdapter(LlmStreamer.Reply.class, FromStreamer::new);
    this.decisionAdapter = context.messageAdapter(ApprovalGate.Reply.class, FromGate::new);
    this.workerAdapter = context.messageAdapter(ReplWorker.Reply.class, FromWorker::new);
    Backoff backoff = new Backoff(settings.minBackoff(), settings.maxBackoff(), new Random());
    this.streamer = context.spawn(
        Behaviors.supervise(LlmStreamer.create(spec.provider(), settings.defaultLanguage(), settings.modelAttempts(),
            backoff, streamerAdapter)).onFailure(SupervisorStrategy.restart()),
        "llm-streamer");
    this.gate = context.spawn(
        Behaviors.supervise(ApprovalGate.create(spec.id(), settings.approvalMode(), spec.approver(),
                new Safety(new DangerAnalyzer(), settings.approvalRules(),
                    AnalysisContext.of(settings.workdir(), Path.of(System.getProperty("user.home")))
                        // with isolated installs, pip lands in WORKDIR/.venv: not a global install
                        .withVenvActive(spec.venv() == VenvMode.AUTO || AnalysisContext.current().venvActive()),
                    spec.approver().interactive(), settings.dangerouslyAllowAll())))
            .onFailure(SupervisorStrategy.restart()),
        "approval-gate");
    this.retry = context.spawn(
        Behaviors.supervise(RetryController.create(settings.maxIterations(), settings.maxConsecutiveFailures()))
            .onFailure(SupervisorStrategy.restart()),
        "retry-controller");
    // the configuration the system was started with may add languages; installed ones are found in the background
    this.languages = LanguageRegistry.of(context.getSystem().settings().config());
    languages.discovery();
    this.systemPrompt = PromptBuilder.systemPrompt(spec.host(), LocalDate.now(), settings.customInstructions(),
        List.of(spec.sandbox().promptSentence(), spec.venv().promptSentence()));
    history.add(ChatMessage.system(systemPrompt));
    events.publish(new EventPayload.SessionStarted(spec.provider().name(), settings.workdir().toString()));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(UserMessage.class, this::onUserMessage)
        .onMessage(Interrupt.class, this::onInterrupt)
        .onMessage(Stop.class, this::onStop)
        .onMessage(Subscribe.class, this::onSubscribe)
        .onMessage(GetStatus.class, this::onGetStatus)
        .onMessage(Reset.class, this::onReset)
        .onMessage(Undo.class, this::onUndo)
        .onMessage(Restore.class, this::onRestore)
        .onMessage(GetHistory.class, this::onGetHistory)
        .onMessage(SetApprovalMode.class, this::onSetApprovalMode)
        .onMessage(FromStreamer.class, this::onStreamer)
        .onMessage(FromGate.class, this::onDecision)
        .onMessage(FromWorker.class, this::onWorker)
        .onMessage(Verdict.class, this::onVerdict)
        .onMessage(LanguagesFound.class, this::onLanguagesFound)
        .onSignal(PostStop.class, this::onPostStop)
        .build();
  }

  // ---- user commands ----

  private Behavior<Command> onUserMessage(UserMessage m) {
    touch();
    if (phase != Phase.IDLE) {
      events.publish(new EventPayload.Error(
          "a turn is still running; wait for it to finish or interrupt it before sending another message"));
      return this;
    }
    if (m.text() == null || m.text().isBlank()) {
      events.publish(new EventPayload.Error("the message is empty; say what you want done"));
      return this;
    }
    if (title.isEmpty()) {
      setTitle(m.text());
    }
    events.publish(new EventPayload.UserMessage(m.text()));
    addUser(m.text());
    userTexts.push(m.text());
    interruptRequested = false;
    iterations = 0;
    retry.tell(RetryController.NewMessage.INSTANCE);
    requestModelCall();
    return this;
  }

  private Behavior<Command> onInterrupt(Interrupt m) {
    touch();
    switch (phase) {
      case STREAMING -> {
        streamer.tell(LlmStreamer.Cancel.INSTANCE);
        String partial = deltaText.toString();
        if (!partial.isBlank()) {
          events.publish(new EventPayload.AssistantMessage(partial));
          history.add(ChatMessage.assistant(partial));
        }
        finishTurn("interrupted", "interrupted by the user while the model was writing");
      }
      case AWAITING_APPROVAL -> {
        gate.tell(ApprovalGate.Cancel.INSTANCE);
        finishTurn("interrupted", "interrupted by the user while waiting for approval");
      }
      case EXECUTING -> {
        interruptRequested = true;
        runningWorker.tell(ReplWorker.Interrupt.INSTANCE);
      }
      case CHECKING -> interruptRequested = true;
      case IDLE -> { }
    }
    return this;
  }

  private Behavior<Command> onStop(Stop m) {
    if (phase != Phase.IDLE) {
      streamer.tell(LlmStreamer.Cancel.INSTANCE);
      gate.tell(ApprovalGate.Cancel.INSTANCE);
      finishTurn("interrupted", "the session was stopped");
    }
    return Behaviors.stopped();
  }

  private Behavior<Command> onPostStop(PostStop signal) {
    // Children (REPL workers) are stopped with us; their PostStop kills their process trees.
    events.close();
    return this;
  }

  private Behavior<Command> onSubscribe(Subscribe m) {
    events.subscribe(m.subscriber());
    return this;
  }

  private Behavior<Command> onGetStatus(GetStatus m) {
    String status = switch (phase) {
      case STREAMING -> "streaming";
      case AWAITING_APPROVAL -> "awaiting_approval";
      case EXECUTING, CHECKING -> "executing";
      case IDLE -> lastStatus;
    };
    m.replyTo().tell(new Status(spec.id(), status, title, spec.provider().name(), iterations, started, lastActivity,
        inputTokens, outputTokens, events.journalFile()));
    return this;
  }

  // ---- conversation edits ----

  private Behavior<Command> onReset(Reset m) {
    if (refusedWhileBusy(m.replyTo())) {
      return this;
    }
    touch();
    replaceHistory(List.of(), null);
    title = "";
    restartRepls();
    events.publish(new EventPayload.Conversation("reset", null, List.of()));
    m.replyTo().tell(new Changed(true, "new conversation; the REPL processes were restarted", conversation()));
    return this;
  }

  private Behavior<Command> onUndo(Undo m) {
    if (refusedWhileBusy(m.replyTo())) {
      return this;
    }
    String last = userTexts.peek();
    var undone = last == null ? java.util.Optional.<List<ChatMessage>>empty()
        : ConversationEdits.undo(history, last);
    if (undone.isEmpty()) {
      m.replyTo().tell(new Changed(false, "nothing to undo", conversation()));
      return this;
    }
    touch();
    userTexts.pop();
    history.clear();
    history.addAll(undone.get());
    events.publish(new EventPayload.Conversation("undo", null, ConversationEdits.forEvent(history)));
    m.replyTo().tell(new Changed(true, "removed your last message: " + last, conversation()));
    return this;
  }

  private Behavior<Command> onRestore(Restore m) {
    if (refusedWhileBusy(m.replyTo())) {
      return this;
    }
    touch();
    replaceHistory(ConversationEdits.restorable(m.messages()), m.note());
    userTexts.clear();
    ConversationEdits.userTexts(history).forEach(userTexts::push);
    if (title.isEmpty() && !userTexts.isEmpty()) {
      setTitle(userTexts.peekLast());
    }
    restartRepls();
    events.publish(new EventPayload.Conversation(m.reason(), m.source(), ConversationEdits.forEvent(history)));
    m.replyTo().tell(new Changed(true, "restored " + (history.size() - 1) + " messages", conversation()));
    return this;
  }

  private Behavior<Command> onGetHistory(GetHistory m) {
    m.replyTo().tell(new History(List.copyOf(history)));
    return this;
  }

  private Behavior<Command> onSetApprovalMode(SetApprovalMode m) {
    gate.tell(new ApprovalGate.SetMode(m.mode()));
    return this;
  }

  private boolean refusedWhileBusy(ActorRef<Changed> replyTo) {
    if (phase == Phase.IDLE) {
      return false;
    }
    replyTo.tell(new Changed(false, "a turn is still running; interrupt it (Ctrl-C) or wait for it to finish",
        conversation()));
    return true;
  }

  private void replaceHistory(List<ChatMessage> messages, String note) {
    history.clear();
    userTexts.clear();
    history.add(ChatMessage.system(note == null || note.isBlank() ? systemPrompt
        : systemPrompt + "\n# About this conversation\n" + note.strip() + "\n"));
    history.addAll(messages);
  }

  /** Stops the REPL workers (their stop hooks kill the processes); the next block starts fresh ones. */
  private void restartRepls() {
    workers.values().forEach(getContext()::stop);
    workers.clear();
    replGeneration++;
  }

  private List<ChatMessage> conversation() {
    return List.copyOf(history.subList(1, history.size()));
  }

  // ---- model ----

  private void requestModelCall() {
    phase = Phase.CHECKING;
    askRetry(true, replyTo -> new RetryController.BeforeModelCall(replyTo));
  }

  private void startModelCall() {
    phase = Phase.STREAMING;
    callId++;
    callFirstBlockIndex = nextBlockIndex;
    resetReply();
    // The provider knows its model; the request names none so a provider prefix never reaches the wire.
    ModelRequest request = new ModelRequest("", history);
    streamer.tell(new LlmStreamer.Call(callId, request, nextBlockIndex,
        settings.interceptorMode() == InterceptorMode.FIRST_BLOCK));
  }

  private Behavior<Command> onStreamer(FromStreamer m) {
    LlmStreamer.Reply reply = m.reply();
    if (reply.callId() != callId || phase != Phase.STREAMING) {
      if (reply instanceof LlmStreamer.Piece) {
        streamer.tell(new LlmStreamer.Ack(reply.callId()));
      }
      return this;
    }
    touch();
    if (reply instanceof LlmStreamer.Piece p) {
      onSegment(p.segment());
      streamer.tell(new LlmStreamer.Ack(p.callId()));
    } else if (reply instanceof LlmStreamer.Usage u) {
      inputTokens += u.inputTokens();
      outputTokens += u.outputTokens();
      events.publish(new EventPayload.Usage(u.inputTokens(), u.outputTokens()));
    } else if (reply instanceof LlmStreamer.Retrying r) {
      events.publish(new EventPayload.Retry(r.attempt(), r.reason() + "; next attempt in " + r.delay().toMillis()
          + " ms"));
      nextBlockIndex = callFirstBlockIndex;
      resetReply();
    } else if (reply instanceof LlmStreamer.Failed f) {
      events.publish(new EventPayload.Error("model call failed: " + f.message()));
      finishTurn("failed", f.message());
    } else if (reply instanceof LlmStreamer.Done) {
      onReplyDone();
    }
    return this;
  }

  private void onSegment(Segment segment) {
    if (segment instanceof Segment.Text t) {
      delta(t.text());
      appendText(t.text());
    } else if (segment instanceof Segment.BlockOpen o) {
      delta("```" + o.info() + "\n");
    } else if (segment instanceof Segment.Code c) {
      delta(c.text());
    } else if (segment instanceof Segment.BlockClosed b) {
      CodeBlock block = b.block();
      if (!b.block().unterminated()) {
        delta("```\n");
      }
      replyParts.add(block);
      pendingBlocks.add(block);
      nextBlockIndex = Math.max(nextBlockIndex, block.index() + 1);
      events.publish(new EventPayload.CodeBlockEvent(block.index(), block.language(), block.code(),
          block.unterminated()));
    }
  }

  private void onReplyDone() {
    String reply = MarkdownReply.render(replyParts);
    if (!reply.isBlank()) {
      events.publish(new EventPayload.AssistantMessage(reply));
      history.add(ChatMessage.assistant(reply));
    }
    if (pendingBlocks.isEmpty()) {
      finishTurn("done", null);
    } else {
      runNextBlock();
    }
  }

  // ---- blocks ----

  private void runNextBlock() {
    CodeBlock block = pendingBlocks.poll();
    if (block == null) {
      sendResultsAndContinue();
      return;
    }
    List<LanguageRegistry.Installed> installed = languages.discovery().getNow(null);
    if (installed == null) { // only just started: look again once the interpreters have been found
      pendingBlocks.addFirst(block);
      awaitingLanguages = true;
      getContext().pipeToSelf(languages.discovery(), (found, failure) -> LanguagesFound.INSTANCE);
      return;
    }
    String language = languages.canonical(block.language());
    if (installed.stream().noneMatch(i -> i.name().equals(language))) {
      String message = PromptBuilder.unknownLanguage(block.index(), block.language(),
          installed.stream().map(LanguageRegistry.Installed::label).toList());
      events.publish(new EventPayload.Error(message));
      results.add(message);
      checkBlock(block.code(), true, message);
      return;
    }
    phase = Phase.AWAITING_APPROVAL;
    awaitingBlock = block;
    gate.tell(new ApprovalGate.Review(block, decisionAdapter));
  }

  private Behavior<Command> onLanguagesFound(LanguagesFound m) {
    if (awaitingLanguages) {
      awaitingLanguages = false;
      runNextBlock();
    }
    return this;
  }

  private Behavior<Command> onDecision(FromGate m) {
    if (m.reply() instanceof ApprovalGate.Asking asking) {
      if (phase == Phase.AWAITING_APPROVAL && pendingOrRunning(asking.block()) != null) {
        events.publish(new EventPayload.ApprovalRequested(asking.block(), asking.language(), asking.code(),
            asking.risk(), asking.flags()));
      }
      return this;
    }
    ApprovalGate.Decision d = (ApprovalGate.Decision) m.reply();
    CodeBlock block = pendingOrRunning(d.block());
    if (phase != Phase.AWAITING_APPROVAL || block == null) {
      return this;
    }
    touch();
    awaitingBlock = null;
    events.publish(new EventPayload.Approval(d.block(), d.decision(), d.by(), d.reason(), d.risk(), d.flags(),
        "edited".equals(d.decision()) ? d.code() : null));
    if (!d.runs()) {
      if (d.unanswerable()) {
        results.add(PromptBuilder.declined(d.block(), d.reason()));
        finishTurn("blocked", d.reason());
        return this;
      }
      results.add("policy".equals(d.by())
          ? PromptBuilder.blockedByPolicy(d.block(), d.reason())
          : PromptBuilder.declined(d.block(), d.reason()));
      pendingBlocks.clear();
      sendResultsAndContinue();
      return this;
    }
    phase = Phase.EXECUTING;
    runningBlock = block;
    runningCode = d.code();
    runningWorker = worker(languages.canonical(block.language()));
    events.publish(new EventPayload.ExecStarted(block.index(), block.language()));
    runningWorker.tell(new ReplWorker.Execute(block.index(), d.code(), settings.timeout(), workerAdapter));
    return this;
  }

  private CodeBlock pendingOrRunning(int index) {
    return awaitingBlock != null && awaitingBlock.index() == index ? awaitingBlock : null;
  }

  private Behavior<Command> onWorker(FromWorker m) {
    ReplWorker.Reply reply = m.reply();
    if (reply instanceof ReplWorker.Output o) {
      if (runningBlock != null && o.block() == runningBlock.index()) {
        events.publish(new EventPayload.Output(o.block(), o.stream(), o.text()));
      }
      return this;
    }
    ReplWorker.Finished f = (ReplWorker.Finished) reply;
    if (runningBlock == null || f.block() != runningBlock.index()) {
      return this;
    }
    touch();
    ExecResult r = f.result();
    events.publish(new EventPayload.ExecFinished(f.block(), r.exitCode(), r.timedOut(), r.interrupted(),
        r.durationMs(), r.truncated(), r.outputFile() == null ? null : r.outputFile().toAbsolutePath().toString()));
    results.add(PromptBuilder.blockResult(f.block(), runningBlock.language(), r.exitCode(), r.timedOut(),
        r.interrupted(), r.modelOutput(), r.notice()));
    String code = runningCode;
    runningBlock = null;
    runningCode = null;
    runningWorker = null;
    if (interruptRequested || r.interrupted()) {
      finishTurn("interrupted", "interrupted by the user while a block was running");
      return this;
    }
    checkBlock(code, r.exitCode() != 0 || r.timedOut(), r.modelOutput());
    return this;
  }

  private void checkBlock(String code, boolean failed, String output) {
    phase = Phase.CHECKING;
    lastBlockFailed = failed;
    askRetry(false, replyTo -> new RetryController.BlockFinished(code, failed, output, replyTo));
  }

  private Behavior<Command> onVerdict(Verdict v) {
    if (phase != Phase.CHECKING) {
      return this;
    }
    if (v.failure() != null) {
      events.publish(new EventPayload.Error("the retry controller did not answer: " + v.failure().getMessage()));
      finishTurn("failed", "internal error: the retry controller did not answer");
      return this;
    }
    if (interruptRequested) {
      finishTurn("interrupted", "interrupted by the user");
      return this;
    }
    iterations = v.verdict().iterations();
    if (!v.verdict().goOn()) {
      finishTurn("gave_up", v.verdict().stopReason().orElseThrow());
      return this;
    }
    if (v.beforeCall()) {
      startModelCall();
    } else if (lastBlockFailed && settings.interceptorMode() == InterceptorMode.ALL_BLOCKS) {
      pendingBlocks.clear();
      sendResultsAndContinue();
    } else {
      runNextBlock();
    }
    return this;
  }

  private void sendResultsAndContinue() {
    flushResults();
    requestModelCall();
  }

  // ---- helpers ----

  private void askRetry(boolean beforeCall,
                        org.apache.pekko.japi.function.Function<ActorRef<RetryController.Verdict>,
                            RetryController.Command> message) {
    getContext().ask(RetryController.Verdict.class, retry, ASK_TIMEOUT, message,
        (verdict, failure) -> new Verdict(beforeCall, verdict, failure));
  }

  private ActorRef<ReplWorker.Command> worker(String language) {
    return workers.computeIfAbsent(language, lang -> {
      ReplConfig config = new ReplConfig(lang, sessionDir, settings.workdir(), settings.idleTimeout(),
          settings.interruptGrace(), settings.maxOutput(), settings.liveOutputLimit(), Map.of(),
          settings.python().isBlank() ? null : settings.python()).withSandbox(spec.sandbox()).withVenv(spec.venv())
          .withFaults(spec.faults());
      return getContext().spawn(
          Behaviors.supervise(languages.worker(config)).onFailure(SupervisorStrategy.restart()),
          (replGeneration == 0 ? "repl-" : "repl-" + replGeneration + "-")
              + URLEncoder.encode(lang, StandardCharsets.UTF_8));
    });
  }

  private void finishTurn(String status, String reason) {
    awaitingLanguages = false;
    flushResults();
    phase = Phase.IDLE;
    lastStatus = status;
    pendingBlocks.clear();
    awaitingBlock = null;
    runningBlock = null;
    events.publish(new EventPayload.TurnFinished(status, iterations, reason));
  }

  private void flushResults() {
    if (!results.isEmpty()) {
      addUser(String.join("\n\n", results));
      results.clear();
    }
  }

  /** Adds a user message, merged with a preceding user message so roles keep alternating. */
  private void addUser(String text) {
    int last = history.size() - 1;
    if (last > 0 && history.get(last).role() == ChatMessage.Role.USER) {
      history.set(last, ChatMessage.user(history.get(last).content() + "\n\n" + text));
    } else {
      history.add(ChatMessage.user(text));
    }
  }

  private void delta(String text) {
    deltaText.append(text);
    events.publish(new EventPayload.AssistantDelta(text));
  }

  private void appendText(String text) {
    if (!replyParts.isEmpty() && replyParts.get(replyParts.size() - 1) instanceof StringBuilder sb) {
      sb.append(text);
    } else {
      replyParts.add(new StringBuilder(text));
    }
  }

  private void resetReply() {
    deltaText.setLength(0);
    replyParts.clear();
    pendingBlocks.clear();
  }

  private void setTitle(String text) {
    String firstLine = text.strip().lines().findFirst().orElse("");
    title = firstLine.length() > 80 ? firstLine.substring(0, 77) + "..." : firstLine;
  }

  private void touch() {
    lastActivity = Instant.now();
  }
}
