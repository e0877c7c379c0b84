package io.interpreter4j.api;

import io.interpreter4j.core.intercept.CodeBlock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The user's {@link Approver} as the approval gate's: asked on {@code executor} (it may block), its
 * {@link Decision} turned into the gate's answer. It counts as a person being there, so under auto-run high-risk
 * blocks are put to it rather than denied.
 */
final class CodeApprover implements io.interpreter4j.runtime.approval.Approver {

  private final Approver approver;
  private final Executor executor;

  CodeApprover(Approver approver, Executor executor) {
    this.approver = approver;
    this.executor = executor;
  }

  @Override
  public CompletionStage<Answer> ask(String sessionId, CodeBlock block) {
    return CompletableFuture.supplyAsync(() -> answer(approver.decide(
        new ApprovalRequest(sessionId, block.index(), block.language(), block.code()))), executor);
  }

  private static Answer answer(Decision d) {
    if (d == null) {
      return Answer.no("the approver gave no decision");
    }
    return switch (d.kind()) {
      case APPROVED -> Answer.yes();
      case EDITED -> Answer.edit(d.code());
      case DENIED -> Answer.no(d.reason() == null ? "denied by the approver" : d.reason());
    };
  }

  @Override
  public boolean interactive() {
    return true;
  }
}
