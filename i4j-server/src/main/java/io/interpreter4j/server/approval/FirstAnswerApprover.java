package io.interpreter4j.server.approval;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Asks several approvers at once and takes the first real answer: the terminal prompt and the dashboard of
 * {@code i4j --dashboard}. The others' questions are then withdrawn. "No one can answer" from one of them counts
 * only if all say so; a failure only if all fail.
 */
public final class FirstAnswerApprover implements Approver {
  private final List<Approver> approvers;

  private FirstAnswerApprover(List<Approver> approvers) {
    this.approvers = List.copyOf(approvers);
  }

  public static Approver of(Approver... approvers) {
    if (approvers.length == 0) {
      throw new IllegalArgumentException("give at least one approver");
    }
    return approvers.length == 1 ? approvers[0] : new FirstAnswerApprover(List.of(approvers));
  }

  @Override
  public CompletionStage<Answer> ask(String sessionId, CodeBlock block) {
    CompletableFuture<Answer> first = new CompletableFuture<>();
    AtomicInteger left = new AtomicInteger(approvers.size());
    Answer[] noOne = new Answer[1];
    for (Approver approver : approvers) {
      CompletionStage<Answer> asked;
      try {
        asked = approver.ask(sessionId, block);
      } catch (RuntimeException e) {
        asked = CompletableFuture.failedFuture(e);
      }
      asked.whenComplete((answer, failure) -> {
        if (failure == null && answer.kind() != Answer.Kind.NO_ONE) {
          if (first.complete(answer)) {
            closeOthers(approver, sessionId, block.index(), answer);
          }
          return;
        }
        synchronized (noOne) {
          if (failure == null) {
            noOne[0] = answer;
          }
          if (left.decrementAndGet() == 0) {
            if (noOne[0] != null) {
              first.complete(noOne[0]);
            } else {
              first.completeExceptionally(failure);
            }
          }
        }
      });
    }
    return first;
  }

  /** A person can answer when any of the approvers has one at hand (the terminal beside the dashboard). */
  @Override
  public boolean interactive() {
    return approvers.stream().anyMatch(Approver::interactive);
  }

  @Override
  public void cancel(String sessionId, int block) {
    approvers.forEach(a -> a.cancel(sessionId, block));
  }

  private void closeOthers(Approver answered, String sessionId, int block, Answer answer) {
    for (Approver a : approvers) {
      if (a != answered) {
        a.answeredElsewhere(sessionId, block, answer);
      }
    }
  }
}
