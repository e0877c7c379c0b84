package io.interpreter4j.cli.approve;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An {@link Approver} for the command line: questions asked by the session's approval gate are queued here
 * and answered on the main thread, which owns the terminal (see {@link ApprovalPrompter}).
 */
public final class ConsoleApprover implements Approver {

  /** A pending question and the future its answer completes. */
  public record Question(String sessionId, CodeBlock block, CompletableFuture<Answer> answer) {}

  private final BlockingQueue<Question> questions = new ArrayBlockingQueue<>(16);
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
    Question q = new Question(sessionId, block, new CompletableFuture<>());
    if (!questions.offer(q)) {
      q.answer().complete(Answer.no("too many questions are waiting"));
    }
    return q.answer();
  }

  @Override
  public void cancel(String sessionId, int block) {
    questions.removeIf(q -> q.block().index() == block && q.answer().complete(Answer.no("interrupted")));
  }

  /** The oldest waiting question, waiting up to {@code millis}; null if none. */
  public Question poll(long millis) throws InterruptedException {
    return questions.poll(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
  }
}
