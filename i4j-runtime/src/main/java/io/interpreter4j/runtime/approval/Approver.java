package io.interpreter4j.runtime.approval;

import io.interpreter4j.core.intercept.CodeBlock;
import java.util.concurrent.CompletionStage;

/**
 * Whoever answers "run this block?" for a person: the terminal prompt, lines piped on stdin, or (later) the
 * dashboard. Called off the actor; the returned stage completes with the person's answer.
 */
public interface Approver {

  CompletionStage<Answer> ask(String sessionId, CodeBlock block);

  /**
   * Whether a person is there to answer right now (a terminal). Under auto mode high-risk blocks are asked about
   * only when this is true, and denied otherwise.
   */
  default boolean interactive() {
    return false;
  }

  /** Withdraws an open question (the turn was interrupted); the default does nothing. */
  default void cancel(String sessionId, int block) {}

  /**
   * Another approver answered the question first (the dashboard beside the terminal): this one's question is closed
   * with that {@code answer}, so that it can say how. The default withdraws it as {@link #cancel} does.
   */
  default void answeredElsewhere(String sessionId, int block, Answer answer) {
    cancel(sessionId, block);
  }

  /** A person's answer: run, decline, or run an edited version of the code. */
  record Answer(Kind kind, String code, String reason) {
    /** NO_ONE: nobody could be asked (not interactive, stdin closed). */
    public enum Kind { YES, NO, EDIT, NO_ONE }

    public static Answer yes() { return new Answer(Kind.YES, null, null); }

    public static Answer no(String reason) { return new Answer(Kind.NO, null, reason); }

    public static Answer edit(String code) { return new Answer(Kind.EDIT, code, null); }

    public static Answer noOne(String reason) { return new Answer(Kind.NO_ONE, null, reason); }
  }

  /** No person to ask: every question is left unanswered, so the gate reports the block as blocked. */
  Approver NOBODY = (sessionId, block) -> java.util.concurrent.CompletableFuture.completedFuture(
      Answer.noOne("no one can approve it: the session is not interactive and auto-run is off"));
}
