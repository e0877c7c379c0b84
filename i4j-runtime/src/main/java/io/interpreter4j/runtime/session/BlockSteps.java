package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.DecidedBy;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.prompt.PromptBuilder;
import io.interpreter4j.runtime.approval.ApprovalGate;
import io.interpreter4j.runtime.repl.ExecResult;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import io.interpreter4j.runtime.repl.ReplWorker;
import io.interpreter4j.runtime.supervision.Faults;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The block steps of a turn: each block of the model's answer goes to the approval gate, then, if it may run, to
 * its language's REPL worker; its result is kept for the next model call and judged by the retry controller
 * ({@link TurnRunner#checkBlock}). Holds the block waiting for a decision and the block running.
 */
final class BlockSteps {

  private final TurnRunner turn;
  private final ActorContext<Session.Command> context;
  private final Settings settings;
  private final SessionEvents events;
  private final TurnRunner.Children children;
  private final LanguageRegistry languages;
  private final Faults faults;

  private CodeBlock awaitingBlock;
  /** The block sent to the gate as a precheck ({@link #precheck}), or -1; its reply, until the block's turn comes. */
  private int prechecked = -1;
  private ApprovalGate.Reply precheckReply;
  private CodeBlock runningBlock;
  private String runningCode;
  private String runningLanguage;
  /** How the running block's images are named in its result: {@code [image 640x480 PNG: PATH]}. */
  private final List<String> runningImages = new ArrayList<>();
  /** The running block's images by reference, for a model with vision. */
  private final List<ImageRef> runningImageRefs = new ArrayList<>();
  private boolean awaitingLanguages;

  BlockSteps(TurnRunner turn, ActorContext<Session.Command> context, Settings settings, SessionEvents events,
             TurnRunner.Children children, LanguageRegistry languages, Faults faults) {
    this.turn = turn;
    this.context = context;
    this.settings = settings;
    this.events = events;
    this.children = children;
    this.languages = languages;
    this.faults = faults;
  }

  /** The language of the block running now, or null. */
  String runningLanguage() {
    return runningLanguage;
  }

  /** The turn ended: nothing waits or runs any more. */
  void clear() {
    awaitingLanguages = false;
    awaitingBlock = null;
    prechecked = -1;
    precheckReply = null;
    runningBlock = null;
    runningCode = null;
    runningLanguage = null;
    runningImages.clear();
    runningImageRefs.clear();
  }

  void runNext() {
    CodeBlock block = turn.answer().nextBlock();
    if (block == null) {
      turn.sendResultsAndContinue();
      return;
    }
    List<LanguageRegistry.Installed> installed = languages.discovery().getNow(null);
    if (installed == null) { // only just started: look again once the interpreters have been found
      turn.answer().putBack(block);
      awaitingLanguages = true;
      context.pipeToSelf(languages.discovery(), (found, failure) -> Session.LanguagesFound.INSTANCE);
      return;
    }
    String language = languages.canonical(block.language());
    if (!isInstalled(installed, language)) {
      String message = PromptBuilder.unknownLanguage(block.index(), block.language(),
          installed.stream().map(LanguageRegistry.Installed::label).toList());
      events.publish(new EventPayload.Error(message));
      if (turn.client() != null) {
        turn.client().reason = message;
      }
      turn.results().add(message);
      turn.checkBlock(block.code(), true, message);
      return;
    }
    turn.phase(TurnRunner.Phase.AWAITING_APPROVAL);
    awaitingBlock = block;
    if (prechecked == block.index()) {
      if (precheckReply != null) { // the gate answered while the call's last events were journaled
        ApprovalGate.Reply reply = precheckReply;
        precheckReply = null;
        onDecision(reply);
      }
      return;
    }
    children.gate().tell(new ApprovalGate.Review(block, children.gateReplies()));
  }

  /**
   * Sends the block that ends the model's call to the gate as a precheck, before its events are journaled: the gate
   * decides in parallel, and {@link #runNext} finds the decision waiting. A block of an unknown language is not sent
   * (it gets no review). The gate asks nobody on a precheck: if a person must decide, the block is reviewed again
   * once its events are out.
   */
  void precheck(CodeBlock block) {
    List<LanguageRegistry.Installed> installed = languages.discovery().getNow(null);
    if (installed == null || !isInstalled(installed, languages.canonical(block.language()))) {
      return;
    }
    prechecked = block.index();
    precheckReply = null;
    children.gate().tell(new ApprovalGate.Review(block, children.gateReplies(), true));
  }

  private static boolean isInstalled(List<LanguageRegistry.Installed> installed, String language) {
    return installed.stream().anyMatch(i -> i.name().equals(language));
  }

  void onLanguagesFound() {
    if (awaitingLanguages) {
      awaitingLanguages = false;
      runNext();
    }
  }

  void onDecision(ApprovalGate.Reply reply) {
    if (reply.block() == prechecked) {
      if (turn.phase() != TurnRunner.Phase.AWAITING_APPROVAL || awaitingBlock == null
          || awaitingBlock.index() != reply.block()) {
        precheckReply = reply; // the block's turn has not come yet: runNext takes it
        return;
      }
      prechecked = -1;
      if (reply instanceof ApprovalGate.WouldAsk) { // a person decides: ask now that the block's events are out
        children.gate().tell(new ApprovalGate.Review(awaitingBlock, children.gateReplies()));
        return;
      }
    }
    if (reply instanceof ApprovalGate.WouldAsk || turn.phase() != TurnRunner.Phase.AWAITING_APPROVAL
        || awaitingBlock == null || awaitingBlock.index() != reply.block()) {
      return; // a precheck's answer for a block that is not prechecked any more, or a stale reply
    }
    faults.hit(Faults.Point.SESSION_AWAITING_APPROVAL);
    if (reply instanceof ApprovalGate.Asking asking) {
      events.publish(new EventPayload.ApprovalRequested(asking.block(), asking.language(), asking.code(),
          asking.risk(), asking.flags()));
      return;
    }
    if (reply instanceof ApprovalGate.Crashed crashed) {
      String reason = "the approval gate crashed (" + crashed.message() + ")";
      events.publish(new EventPayload.Error(reason + " while deciding on block " + crashed.block()
          + "; the turn was stopped, send your message again"));
      turn.finish(TurnStatus.FAILED, reason);
      return;
    }
    ApprovalGate.Decision d = (ApprovalGate.Decision) reply;
    CodeBlock block = awaitingBlock;
    awaitingBlock = null;
    events.publish(new EventPayload.Approval(d.block(), d.decision(), d.by(), d.reason(), d.risk(), d.flags(),
        d.decision() == ApprovalDecision.EDITED ? d.code() : null));
    if (turn.client() != null) {
      turn.client().decision = d;
      turn.client().reason = d.runs() ? null : d.reason();
    }
    if (!d.runs()) {
      turn.results().add(d.by() == DecidedBy.POLICY && !d.unanswerable()
          ? PromptBuilder.blockedByPolicy(d.block(), d.reason())
          : PromptBuilder.declined(d.block(), d.reason()));
      if (d.unanswerable()) {
        turn.finish(TurnStatus.BLOCKED, d.reason());
      } else {
        turn.answer().dropPending();
        turn.sendResultsAndContinue();
      }
      return;
    }
    turn.phase(TurnRunner.Phase.EXECUTING);
    runningBlock = block;
    runningCode = d.code();
    runningLanguage = languages.canonical(block.language());
    events.publish(new EventPayload.ExecStarted(block.index(), block.language()));
    children.workers().of(runningLanguage).tell(new ReplWorker.Execute(block.index(), d.code(), settings.timeout(),
        children.workerReplies()));
  }

  void onWorker(ReplWorker.Reply reply) {
    if (runningBlock == null) {
      return;
    }
    if (reply instanceof ReplWorker.Output o) {
      if (o.block() == runningBlock.index()) {
        faults.hit(Faults.Point.SESSION_EXECUTING);
        events.publish(new EventPayload.Output(o.block(), o.stream(), o.text()));
      }
      return;
    }
    if (reply instanceof ReplWorker.Image i) {
      if (i.block() == runningBlock.index()) {
        var header = i.image().header();
        String path = i.image().path().toAbsolutePath().toString();
        events.publish(new EventPayload.Image(i.block(), header.format().mime(), path, header.width(),
            header.height(), i.image().source()));
        runningImages.add(PromptBuilder.imageNote(header.width(), header.height(), header.format().name(), path));
        runningImageRefs.add(new ImageRef(path, header.format().mime(), header.width(), header.height()));
      }
      return;
    }
    if (reply instanceof ReplWorker.Html h) {
      if (h.block() == runningBlock.index()) {
        events.publish(new EventPayload.Html(h.block(), h.path().toAbsolutePath().toString(), h.bytes()));
      }
      return;
    }
    ReplWorker.Finished f = (ReplWorker.Finished) reply;
    if (f.block() != runningBlock.index()) {
      return;
    }
    ExecResult r = f.result();
    events.publish(new EventPayload.ExecFinished(f.block(), r.exitCode(), r.timedOut(), r.interrupted(),
        r.durationMs(), r.truncated(), r.outputFile() == null ? null : r.outputFile().toAbsolutePath().toString()));
    if (turn.client() != null) {
      turn.client().result = r;
    }
    turn.results().add(PromptBuilder.blockResult(f.block(), runningBlock.language(), r.exitCode(), r.timedOut(),
        r.interrupted(), r.modelOutput(), r.notice(), List.copyOf(runningImages)));
    turn.resultImages().addAll(runningImageRefs);
    runningImages.clear();
    runningImageRefs.clear();
    String code = runningCode;
    runningBlock = null;
    runningCode = null;
    runningLanguage = null;
    if (turn.interruptRequested() || r.interrupted()) {
      turn.finish(TurnStatus.INTERRUPTED, "interrupted by the user while a block was running");
      return;
    }
    turn.checkBlock(code, r.exitCode() != 0 || r.timedOut(), r.modelOutput());
  }

  /** A worker stopped for good (past its restart limit): a block it was running ends the turn. */
  void onWorkerStopped(String language) {
    if (turn.phase() == TurnRunner.Phase.EXECUTING && language.equals(runningLanguage)) {
      turn.finish(TurnStatus.FAILED, "the " + language + " worker crashed " + (ReplWorkers.RESTARTS + 1)
          + " times within " + ReplWorkers.WITHIN.toMinutes() + " minute(s) and was stopped");
    }
  }
}
