package io.interpreter4j.cli.approve;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An {@link Approver} for the command line: questions asked by the session's approval gate are queued here
 * and answered on the main thread, which owns the terminal (see {@link ApprovalPrompter}).
 */
public final class ConsoleApprover implements Approver {

  /**
   * A pending question and the future its answer completes; {@code closedElsewhere} completes with the answer given
   * elsewhere (the dashboard) or {@link #WITHDRAWN} when the question is closed without this prompt.
   */
  public record Question(String sessionId, CodeBlock block, CompletableFuture<Answer> answer,
                         CompletableFuture<Answer> closedElsewhere) {}

  /** What {@link Question#closedElsewhere} holds when the question was withdrawn (the turn was interrupted). */
  public static final Answer WITHDRAWN = Answer.no("interrupted");

  private final BlockingQueue<Question> questions = new ArrayBlockingQueue<>(16);
  /** Questions not answered yet: queued, or being asked on the main thread (at most 16 + 1). */
  private final Set<Question> open = ConcurrentHashMap.newKeySet();
  private final boolean interactive;

  /** {@code interactive}: a person at a terminal answers (not lines piped on stdin). */
  public ConsoleApprover(boolean interactive) {
    this.interactive = interactive;
  }

  @Override
  public boolean interactive() {
    return interactive;
  }

  @Override
  public CompletionStage<Answer> ask(String sessionId, CodeBlock block) {
    Question q = new Question(sessionId, block, new CompletableFuture<>(), new CompletableFuture<>());
    open.add(q);
    q.answer().whenComplete((answer, failure) -> open.remove(q));
    if (!questions.offer(q)) {
      q.answer().complete(Answer.no("too many questions are waiting"));
    }
    return q.answer();
  }

  /**
   * Withdraws the question about {@code block}: still queued, or being asked right now (the prompt is then
   * interrupted, see {@link ApprovalPrompter}): it was answered elsewhere (the dashboard) or interrupted.
   */
  @Override
  public void cancel(String sessionId, int block) {
    close(sessionId, block, WITHDRAWN);
  }

  /** The dashboard answered first: the question is closed, and the prompt says how it was answered. */
  @Override
  public void answeredElsewhere(String sessionId, int block, Answer answer) {
    close(sessionId, block, answer);
  }

  private void close(String sessionId, int block, Answer answer) {
    for (Question q : open) {
      if (q.block().index() == block && q.sessionId().equals(sessionId)) {
        q.closedElsewhere().complete(answer);
        q.answer().complete(answer);
      }
    }
    questions.removeIf(q -> q.answer().isDone());
  }

  /** The oldest waiting question, waiting up to {@code millis}; null if none. */
  public Question poll(long millis) throws InterruptedException {
    return questions.poll(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
  }
}
