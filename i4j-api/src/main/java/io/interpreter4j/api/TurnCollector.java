package io.interpreter4j.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Builds the {@link TurnResult} of the turn a {@link Session#chat(String)} started from the session's events, from
 * its {@code user_message} to its {@code turn_finished}, and completes the chat's future with it. Events outside a
 * turn (a direct execution's) are not its business. Fed on the session's thread; chat calls it from any thread.
 */
final class TurnCollector {

  private final String sessionId;
  private CompletableFuture<TurnResult> pending;
  private boolean inTurn;
  private String answer = "";
  private final Map<Integer, Block> blocks = new LinkedHashMap<>();

  /** A block of the turn as its events tell it. */
  private static final class Block {
    final Event.CodeBlock code;
    Decision decision;
    final StringBuilder output = new StringBuilder();
    Event.ExecFinished finished;

    Block(Event.CodeBlock code) {
      this.code = code;
    }

    BlockRun run() {
      ExecResult result = finished == null ? null : new ExecResult(code.block(), true, decision, finished.exitCode(),
          output.toString(), finished.timedOut(), finished.interrupted(), finished.truncated(), finished.durationMs(),
          finished.outputFile() == null ? null : Path.of(finished.outputFile()), null);
      return new BlockRun(code.block(), code.language(), code.code(), decision, result);
    }
  }

  TurnCollector(String sessionId) {
    this.sessionId = sessionId;
  }

  /** A chat wants the next turn's result; false if one still waits for its own. */
  synchronized boolean expect(CompletableFuture<TurnResult> turn) {
    if (pending != null) {
      return false;
    }
    pending = turn;
    return true;
  }

  /** The session did not start the turn (busy, empty message, failed): the chat fails saying why. */
  synchronized void refused(CompletableFuture<TurnResult> turn, String reason) {
    if (pending == turn && !inTurn) {
      pending = null;
    }
    turn.completeExceptionally(new IllegalStateException(reason));
  }

  /** The session ended: a chat still waiting fails. */
  synchronized void sessionEnded() {
    if (pending != null) {
      pending.completeExceptionally(new IllegalStateException("the session " + sessionId + " ended"));
      pending = null;
      inTurn = false;
    }
  }

  synchronized void accept(Event event) {
    if (event instanceof Event.UserMessage && pending != null) {
      inTurn = true;
      answer = "";
      blocks.clear();
      return;
    }
    if (!inTurn) {
      return;
    }
    if (event instanceof Event.AssistantMessage m) {
      answer = m.text();
    } else if (event instanceof Event.CodeBlock c) {
      blocks.put(c.block(), new Block(c));
    } else if (event instanceof Event.Approval a && blocks.containsKey(a.block())) {
      blocks.get(a.block()).decision = new Decision(a.decision(), a.by(), a.code(), a.reason());
    } else if (event instanceof Event.Output o && blocks.containsKey(o.block())) {
      blocks.get(o.block()).output.append(o.text());
    } else if (event instanceof Event.ExecFinished f && blocks.containsKey(f.block())) {
      blocks.get(f.block()).finished = f;
    } else if (event instanceof Event.TurnFinished t) {
      List<BlockRun> runs = new ArrayList<>();
      blocks.values().forEach(b -> runs.add(b.run()));
      CompletableFuture<TurnResult> turn = pending;
      pending = null;
      inTurn = false;
      blocks.clear();
      turn.complete(new TurnResult(sessionId, t.status(), answer, runs, t.iterations(), t.reason()));
    }
  }
}
