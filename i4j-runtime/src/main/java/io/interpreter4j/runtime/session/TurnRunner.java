package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.config.Settings.InterceptorMode;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.runtime.approval.ApprovalGate;
import io.interpreter4j.runtime.llm.LlmStreamer;
import io.interpreter4j.runtime.repl.ExecResult;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import io.interpreter4j.runtime.repl.ReplWorker;
import io.interpreter4j.runtime.retry.RetryController;
import io.interpreter4j.runtime.supervision.Faults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Runs the session's turns, one at a time: model call -> blocks -> approval -> execution -> result back to the
 * model, for as long as the retry controller allows. It keeps the state of the turn that runs now (its phase, the
 * answer streaming in, the block waiting or running, the results for the next call) and is driven by the
 * session actor's handlers, on the actor's thread.
 */
final class TurnRunner {

  enum Phase { IDLE, STREAMING, AWAITING_APPROVAL, EXECUTING, CHECKING }

  /** How long the retry controller may take to answer before the turn fails. */
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

  private final ActorContext<Session.Command> context;
  private final Settings settings;
  private final SessionEvents events;
  private final Conversation conversation;
  private final Children children;
  private final LanguageRegistry languages;
  private final Faults faults;

  private Phase phase = Phase.IDLE;
  private SessionStatus lastStatus = SessionStatus.IDLE;
  private int iterations;
  private int callId;
  private int nextBlockIndex = 1;
  private int callFirstBlockIndex = 1;
  private final Answer answer = new Answer();
  private final List<String> results = new ArrayList<>();
  /** The images the results show, by reference, in order: they go to the model with the results. */
  private final List<ImageRef> resultImages = new ArrayList<>();
  private boolean interruptRequested;
  /** The block a client gave that this turn runs ({@link Session.RunCode}), or null during a model's turn. */
  private ClientBlock client;
  private final BlockSteps blocks;
  /**
   * The questions put to the retry controller and its answers, counted: it answers in order, so an answer counted
   * below the questions asked is an earlier question's, come late. (A message adapter rather than an ask: on this
   * 2-core machine an ask's completion started a thread of its own, once per block.)
   */
  private int verdictsAsked;
  private int verdictsAnswered;
  private boolean verdictBeforeCall;
  private Cancellable verdictTimeout = Cancellable.alreadyCancelled();

  /** The session's children a turn talks to, and the adapters their replies come back through. */
  record Children(ActorRef<LlmStreamer.Command> streamer, ActorRef<ApprovalGate.Command> gate,
                  ActorRef<RetryController.Command> retry, ReplWorkers workers,
                  ActorRef<ApprovalGate.Reply> gateReplies, ActorRef<ReplWorker.Reply> workerReplies,
                  ActorRef<RetryController.Verdict> verdicts) {}

  TurnRunner(ActorContext<Session.Command> context, Settings settings, SessionEvents events, Conversation conversation,
             Children children, LanguageRegistry languages, Faults faults) {
    this.context = context;
    this.settings = settings;
    this.events = events;
    this.conversation = conversation;
    this.children = children;
    this.languages = languages;
    this.faults = faults;
    this.blocks = new BlockSteps(this, context, settings, events, children, languages, faults);
  }

  Phase phase() {
    return phase;
  }

  boolean busy() {
    return phase != Phase.IDLE;
  }

  SessionStatus status() {
    return switch (phase) {
      case STREAMING -> SessionStatus.STREAMING;
      case AWAITING_APPROVAL -> SessionStatus.AWAITING_APPROVAL;
      case EXECUTING, CHECKING -> SessionStatus.EXECUTING;
      case IDLE -> lastStatus;
    };
  }

  int iterations() {
    return iterations;
  }

  Answer answer() {
    return answer;
  }

  List<String> results() {
    return results;
  }

  List<ImageRef> resultImages() {
    return resultImages;
  }

  void phase(Phase value) {
    phase = value;
  }

  boolean interruptRequested() {
    return interruptRequested;
  }

  // ---- the turn's life ----

  void start(String text) {
    events.publish(new EventPayload.UserMessage(text));
    conversation.userSaid(text);
    interruptRequested = false;
    iterations = 0;
    children.retry().tell(RetryController.NewMessage.INSTANCE);
    requestModelCall();
  }

  /** A turn of one block a client gave: its approval, its run, the end (see {@link Session.RunCode}). */
  void startBlock(String language, String code, ActorRef<Session.Executed> resultTo) {
    interruptRequested = false;
    iterations = 0;
    phase = Phase.CHECKING;
    answer.clear();
    CodeBlock block = new CodeBlock(nextBlockIndex++, language, language, code, true, false);
    client = new ClientBlock(block.index(), resultTo);
    events.publish(new EventPayload.CodeBlockEvent(block.index(), block.language(), block.code(), false));
    answer.putBack(block);
    blocks.runNext();
  }

  /** The client's block this turn runs, or null during a model's turn (the model gets no result of it). */
  ClientBlock client() {
    return client;
  }

  /**
   * What became of a client's block, told to whoever waits for it when its turn ends: the gate's verdict, the run's
   * result, or why it did not run.
   */
  static final class ClientBlock {
    private final int block;
    private final ActorRef<Session.Executed> resultTo;
    ApprovalGate.Decision decision;
    ExecResult result;
    String reason;

    ClientBlock(int block, ActorRef<Session.Executed> resultTo) {
      this.block = block;
      this.resultTo = resultTo;
    }

    void ended(String turnReason) {
      if (resultTo != null) {
        resultTo.tell(new Session.Executed(block, decision, result,
            result != null ? null : reason != null ? reason : turnReason));
      }
    }
  }

  void interrupt() {
    switch (phase) {
      case STREAMING -> {
        children.streamer().tell(LlmStreamer.Cancel.INSTANCE);
        String partial = answer.shown();
        if (!partial.isBlank()) {
          events.publish(new EventPayload.AssistantMessage(partial));
          conversation.addAssistant(partial);
        }
        finish(TurnStatus.INTERRUPTED, "interrupted by the user while the model was writing");
      }
      case AWAITING_APPROVAL -> {
        children.gate().tell(ApprovalGate.Cancel.INSTANCE);
        finish(TurnStatus.INTERRUPTED, "interrupted by the user while waiting for approval");
      }
      case EXECUTING -> {
        interruptRequested = true;
        children.workers().of(blocks.runningLanguage()).tell(ReplWorker.Interrupt.INSTANCE);
      }
      case CHECKING -> interruptRequested = true;
      case IDLE -> { }
    }
  }

  /**
   * Ends the running turn {@code failed} at once, whatever its phase: the model call and the approval question are
   * withdrawn, and a running block's worker is stopped (its process tree killed; the next block starts afresh).
   */
  void fail(String reason) {
    if (phase == Phase.IDLE) {
      return;
    }
    children.streamer().tell(LlmStreamer.Cancel.INSTANCE);
    children.gate().tell(ApprovalGate.Cancel.INSTANCE);
    if (phase == Phase.EXECUTING && blocks.runningLanguage() != null) {
      children.workers().stop(blocks.runningLanguage());
    }
    finish(TurnStatus.FAILED, reason);
  }

  /** The session stops: the turn ends {@code interrupted}. */
  void stop() {
    if (phase != Phase.IDLE) {
      children.streamer().tell(LlmStreamer.Cancel.INSTANCE);
      children.gate().tell(ApprovalGate.Cancel.INSTANCE);
      finish(TurnStatus.INTERRUPTED, "the session was stopped");
    }
  }

  void finish(TurnStatus status, String reason) {
    ClientBlock ended = client;
    client = null;
    if (ended != null) {
      results.clear(); // the client has the result; the model never asked for it
      resultImages.clear();
    }
    flushResults();
    phase = Phase.IDLE;
    lastStatus = SessionStatus.after(status);
    answer.dropPending();
    blocks.clear();
    events.publish(new EventPayload.TurnFinished(status, iterations, reason));
    if (ended != null) {
      ended.ended(reason);
    }
  }

  // ---- the model ----

  private void requestModelCall() {
    phase = Phase.CHECKING;
    askRetry(true, RetryController.BeforeModelCall::new);
  }

  private void startModelCall() {
    phase = Phase.STREAMING;
    callId++;
    callFirstBlockIndex = nextBlockIndex;
    answer.clear();
    // The provider knows its model; the request names none so a provider prefix never reaches the wire.
    children.streamer().tell(new LlmStreamer.Call(callId, new ModelRequest("", conversation.forModel()),
        nextBlockIndex, settings.interceptorMode() == InterceptorMode.FIRST_BLOCK));
  }

  /** Whether a streamer reply belongs to the call that runs now (stale pieces must still be acked). */
  boolean current(LlmStreamer.Reply reply) {
    return reply.callId() == callId && phase == Phase.STREAMING;
  }

  /**
   * The model's call ends with this block ({@link LlmStreamer.Final}): the gate gets it as a precheck before the
   * call's last events are journaled (see {@link BlockSteps#precheck}).
   */
  void precheck(LlmStreamer.Final last) {
    if (current(last.piece()) && last.piece().segment() instanceof Segment.BlockClosed closed) {
      blocks.precheck(closed.block());
    }
  }

  void onStreamer(LlmStreamer.Reply reply) {
    if (reply instanceof LlmStreamer.Piece p) {
      faults.hit(Faults.Point.SESSION_STREAMING);
      Answer.Step step = answer.accept(p.segment());
      if (!step.delta().isEmpty()) {
        events.publish(new EventPayload.AssistantDelta(step.delta()));
      }
      CodeBlock block = step.closed();
      if (block != null) {
        nextBlockIndex = Math.max(nextBlockIndex, block.index() + 1);
        events.publish(new EventPayload.CodeBlockEvent(block.index(), block.language(), block.code(),
            block.unterminated()));
      }
    } else if (reply instanceof LlmStreamer.Usage u) {
      events.publish(new EventPayload.Usage(u.inputTokens(), u.outputTokens()));
    } else if (reply instanceof LlmStreamer.Retrying r) {
      events.publish(new EventPayload.Retry(r.attempt(), r.reason() + "; next attempt in " + r.delay().toMillis()
          + " ms"));
      nextBlockIndex = callFirstBlockIndex;
      answer.clear();
    } else if (reply instanceof LlmStreamer.Failed f) {
      events.publish(new EventPayload.Error("model call failed: " + f.message()));
      finish(TurnStatus.FAILED, f.message());
    } else if (reply instanceof LlmStreamer.Crashed c) {
      String reason = "the LLM streamer crashed (" + c.message() + ")";
      events.publish(new EventPayload.Error(reason + "; the turn was stopped, send your message again"));
      finish(TurnStatus.FAILED, reason);
    } else if (reply instanceof LlmStreamer.Done) {
      String reply2 = answer.markdown();
      if (!reply2.isBlank()) {
        events.publish(new EventPayload.AssistantMessage(reply2));
        conversation.addAssistant(reply2);
      }
      if (answer.hasPending()) {
        blocks.runNext();
      } else {
        finish(TurnStatus.DONE, null);
      }
    }
  }

  void onLanguagesFound() {
    blocks.onLanguagesFound();
  }

  void onDecision(ApprovalGate.Reply reply) {
    blocks.onDecision(reply);
  }

  void onWorker(ReplWorker.Reply reply) {
    blocks.onWorker(reply);
  }

  void onWorkerStopped(String language) {
    blocks.onWorkerStopped(language);
  }

  // ---- the retry controller ----

  void checkBlock(String code, boolean failed, String output) {
    if (client != null) { // a client's block ends its turn: done when it ran, failed when it could not (no such language)
      finish(interruptRequested ? TurnStatus.INTERRUPTED : client.result != null ? TurnStatus.DONE : TurnStatus.FAILED,
          client.result != null ? null : client.reason);
      return;
    }
    phase = Phase.CHECKING;
    // No block follows (the answer has none left, or a failure drops the rest): the results go back to the model
    // next, so the controller judges the block and that call in one answer rather than two in a row.
    boolean thenCall = !answer.hasPending() || failed && settings.interceptorMode() == InterceptorMode.ALL_BLOCKS;
    askRetry(thenCall, replyTo -> new RetryController.BlockFinished(code, failed, output, thenCall, replyTo));
  }

  private void askRetry(boolean beforeCall, Function<ActorRef<RetryController.Verdict>, RetryController.Command> message) {
    verdictsAsked++;
    verdictBeforeCall = beforeCall;
    children.retry().tell(message.apply(children.verdicts()));
    verdictTimeout = context.scheduleOnce(ASK_TIMEOUT, context.getSelf(), new Session.VerdictTimedOut(verdictsAsked));
  }

  void onVerdict(RetryController.Verdict verdict) {
    verdictsAnswered++;
    if (verdictsAnswered >= verdictsAsked) { // the answer to the last question (not an earlier one's, come late)
      verdictTimeout.cancel();
      onVerdict(verdictBeforeCall, verdict, null);
    }
  }

  void onVerdictTimedOut(int ask) {
    if (ask == verdictsAsked && verdictsAnswered < ask) {
      verdictsAnswered = ask; // a lost answer must not leave the count behind for the next turns
      onVerdict(verdictBeforeCall, null, new TimeoutException("no verdict"));
    }
  }

  private void onVerdict(boolean beforeCall, RetryController.Verdict verdict, Throwable failure) {
    if (phase != Phase.CHECKING) {
      return;
    }
    if (failure != null || verdict.crash().isPresent()) {
      String reason = failure != null ? "the retry controller did not answer within " + ASK_TIMEOUT.toSeconds() + " s"
          : "the retry controller crashed (" + verdict.crash().get() + ")";
      events.publish(new EventPayload.Error(reason + "; the turn was stopped, send your message again"));
      finish(TurnStatus.FAILED, reason);
      return;
    }
    if (interruptRequested) {
      finish(TurnStatus.INTERRUPTED, "interrupted by the user");
      return;
    }
    iterations = verdict.iterations();
    if (!verdict.goOn()) {
      finish(TurnStatus.GAVE_UP, verdict.stopReason().orElseThrow());
      return;
    }
    if (beforeCall) {
      // after a block, the blocks of the answer not run yet (all-blocks mode, after a failure) are dropped
      answer.dropPending();
      flushResults();
      startModelCall();
    } else {
      blocks.runNext();
    }
  }

  void sendResultsAndContinue() {
    if (client != null) { // the block was not allowed to run
      finish(TurnStatus.BLOCKED, results.isEmpty() ? "the block was not run" : results.get(results.size() - 1));
      return;
    }
    flushResults();
    requestModelCall();
  }

  private void flushResults() {
    if (!results.isEmpty()) {
      conversation.addUser(String.join("\n\n", results), resultImages);
      results.clear();
      resultImages.clear();
    }
  }
}
