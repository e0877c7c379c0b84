package io.interpreter4j.runtime.computer;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * {@code interpreter4j.computer.ask-before} through the session's approver: an action of a listed kind is put to a
 * person as a question about the running block, whatever the approval mode (so even under {@code -y}), and goes on
 * only on yes; where nobody can answer (not interactive) it is denied at once, as a high-risk block is. Kinds not
 * listed go on without asking.
 */
public final class AskBeforeGate implements ActionGate {

  private final ComputerSettings settings;
  private final Approver approver;
  private final String sessionId;
  private final LongSupplier block;

  /** @param block the number of the block running now (the question is about it) */
  public AskBeforeGate(ComputerSettings settings, Approver approver, String sessionId, LongSupplier block) {
    this.settings = settings;
    this.approver = approver;
    this.sessionId = sessionId;
    this.block = block;
  }

  @Override
  public CompletionStage<Boolean> allow(String kind, String description) {
    if (!settings.asks(kind)) {
      return CompletableFuture.completedFuture(true);
    }
    if (!approver.interactive()) {
      return CompletableFuture.completedFuture(false);
    }
    CodeBlock question = new CodeBlock((int) block.getAsLong(), "computer", "computer",
        "# ask-before " + kind + "\n" + description, false, false);
    return approver.ask(sessionId, question)
        .thenApply(answer -> answer.kind() == Approver.Answer.Kind.YES || answer.kind() == Approver.Answer.Kind.EDIT)
        .exceptionally(failure -> false);
  }
}
