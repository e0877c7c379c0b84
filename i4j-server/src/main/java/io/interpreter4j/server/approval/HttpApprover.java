package io.interpreter4j.server.approval;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The dashboard as an {@link Approver}: a question is an open future keyed by session and block, answered by
 * {@code POST /api/sessions/{id}/blocks/{block}/approval}. The session publishes {@code approval_requested} when
 * it asks, which is how the dashboard learns there is a question; since that event can reach a client a moment
 * before the question reaches this object, an answer may also arrive first and is then kept for the question.
 * Each block is answered at most once.
 */
public final class HttpApprover implements Approver {

  /** The outcome of {@link #answer}. */
  public enum Result { ANSWERED, ALREADY_ANSWERED, NOT_WAITING }

  private record Key(String session, int block) {}

  private final ConcurrentMap<Key, CompletableFuture<Answer>> questions = new ConcurrentHashMap<>();

  @Override
  public CompletionStage<Answer> ask(String sessionId, CodeBlock block) {
    return questions.computeIfAbsent(new Key(sessionId, block.index()), k -> new CompletableFuture<>());
  }

  @Override
  public void cancel(String sessionId, int block) {
    CompletableFuture<Answer> question = questions.remove(new Key(sessionId, block));
    if (question != null) {
      question.complete(Answer.no("the question was withdrawn"));
    }
  }

  /**
   * Answers a block's question.
   *
   * @param announced whether the session has announced the question ({@code approval_requested} with no decision
   *                  yet); only then may the answer arrive before the question itself
   */
  public Result answer(String sessionId, int block, Answer answer, boolean announced) {
    Key key = new Key(sessionId, block);
    CompletableFuture<Answer> question = announced
        ? questions.computeIfAbsent(key, k -> new CompletableFuture<>())
        : questions.get(key);
    if (question == null) {
      return Result.NOT_WAITING;
    }
    return question.complete(answer) ? Result.ANSWERED : Result.ALREADY_ANSWERED;
  }

  /** Whether the block's question is open (asked, not answered). */
  public boolean isAsking(String sessionId, int block) {
    CompletableFuture<Answer> question = questions.get(new Key(sessionId, block));
    return question != null && !question.isDone();
  }

  /** Drops the questions of a session that has ended. */
  public void forget(String sessionId) {
    questions.keySet().removeIf(k -> k.session().equals(sessionId));
  }
}
