package io.interpreter4j.server.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.approval.Approver.Answer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HttpApproverTest {
  private static final CodeBlock BLOCK = new CodeBlock(1, "bash", "bash", "ls", true, false);

  @Test
  void anAnswerCompletesTheQuestionOnce() throws Exception {
    HttpApprover approver = new HttpApprover();
    CompletionStage<Answer> asked = approver.ask("s", BLOCK);
    assertTrue(approver.isAsking("s", 1));
    assertEquals(HttpApprover.Result.ANSWERED, approver.answer("s", 1, Answer.edit("ls -l"), false));
    assertEquals("ls -l", asked.toCompletableFuture().get(1, TimeUnit.SECONDS).code());
    assertEquals(HttpApprover.Result.ALREADY_ANSWERED, approver.answer("s", 1, Answer.yes(), false));
    assertFalse(approver.isAsking("s", 1));
  }

  @Test
  void anUnaskedBlockIsNotWaitingUnlessTheSessionAnnouncedIt() throws Exception {
    HttpApprover approver = new HttpApprover();
    assertEquals(HttpApprover.Result.NOT_WAITING, approver.answer("s", 1, Answer.yes(), false));
    // approval_requested reached the browser before the gate's question reached the approver
    assertEquals(HttpApprover.Result.ANSWERED, approver.answer("s", 1, Answer.no("no"), true));
    Answer answer = approver.ask("s", BLOCK).toCompletableFuture().get(1, TimeUnit.SECONDS);
    assertEquals(Approver.Answer.Kind.NO, answer.kind());
  }

  @Test
  void cancelWithdrawsAndForgetDropsASession() {
    HttpApprover approver = new HttpApprover();
    approver.ask("s", BLOCK);
    approver.cancel("s", 1);
    assertEquals(HttpApprover.Result.NOT_WAITING, approver.answer("s", 1, Answer.yes(), false));
    approver.ask("t", BLOCK);
    approver.forget("t");
    assertFalse(approver.isAsking("t", 1));
  }

  @Test
  void theFirstRealAnswerWinsAndTheOtherQuestionIsWithdrawn() throws Exception {
    HttpApprover dashboard = new HttpApprover();
    CompletableFuture<Answer> terminal = new CompletableFuture<>();
    boolean[] terminalCancelled = {false};
    Approver console = new Approver() {
      @Override
      public CompletionStage<Answer> ask(String sessionId, CodeBlock block) {
        return terminal;
      }

      @Override
      public void cancel(String sessionId, int block) {
        terminalCancelled[0] = true;
      }
    };
    CompletionStage<Answer> both = FirstAnswerApprover.of(console, dashboard).ask("s", BLOCK);
    dashboard.answer("s", 1, Answer.yes(), false);
    assertEquals(Approver.Answer.Kind.YES, both.toCompletableFuture().get(1, TimeUnit.SECONDS).kind());
    assertTrue(terminalCancelled[0]);
  }

  @Test
  void noOneCountsOnlyWhenNobodyCanAnswer() throws Exception {
    HttpApprover dashboard = new HttpApprover();
    CompletionStage<Answer> both = FirstAnswerApprover.of(Approver.NOBODY, dashboard).ask("s", BLOCK);
    assertFalse(both.toCompletableFuture().isDone(), "the dashboard can still answer");
    dashboard.answer("s", 1, Answer.no("nope"), false);
    assertEquals(Approver.Answer.Kind.NO, both.toCompletableFuture().get(1, TimeUnit.SECONDS).kind());

    CompletionStage<Answer> nobody = FirstAnswerApprover.of(Approver.NOBODY, Approver.NOBODY).ask("s", BLOCK);
    assertEquals(Approver.Answer.Kind.NO_ONE, nobody.toCompletableFuture().get(1, TimeUnit.SECONDS).kind());
  }
}
