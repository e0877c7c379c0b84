package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Session#chat(String)} on a replay model and a real python3. */
class SessionChatTest {

  @TempDir
  Path tmp;

  @Test
  void aTurnRunsTheModelsBlockAndEndsWithItsAnswer() throws Exception {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build();
         Session s = i4j.newSession()) {
      TurnResult r = s.chat("mean of 3 5 8 13").toCompletableFuture().get(60, TimeUnit.SECONDS);

      assertEquals(TurnStatus.DONE, r.status(), r.toString());
      assertEquals(s.id(), r.sessionId());
      assertEquals("The mean of 3, 5, 8 and 13 is **7.25**.", r.answer());
      assertEquals(2, r.iterations());
      assertNull(r.reason());
      assertEquals(1, r.blocks().size());
      BlockRun b = r.blocks().get(0);
      assertEquals(1, b.block());
      assertEquals("python", b.language());
      assertTrue(b.code().contains("sum(nums) / len(nums)"), b.code());
      assertEquals(Decision.Kind.APPROVED, b.decision().kind());
      assertEquals(Decision.DecidedBy.AUTO, b.decision().by());
      assertEquals(0, b.result().exitCode());
      assertTrue(b.result().ok());
      assertEquals("7.25\n", b.result().output());
      assertNull(b.result().outputFile(), "its whole output is in the journal's output events: no file");
    }
  }

  @Test
  void aMessageWhileATurnRunsIsRefusedSayingWhy() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Approver slow = request -> {
      asked.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Decision.approve();
    };
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(false).approver(slow).build();
         Session s = i4j.newSession()) {
      var first = s.chat("mean of 3 5 8 13").toCompletableFuture();
      assertTrue(asked.await(60, TimeUnit.SECONDS), "the approver was not asked");

      ExecutionException refused = assertThrows(ExecutionException.class,
          () -> s.chat("and the median?").toCompletableFuture().get(60, TimeUnit.SECONDS));
      assertInstanceOf(IllegalStateException.class, refused.getCause());
      assertTrue(refused.getCause().getMessage().contains("a turn is still running"), refused.getCause().getMessage());
      ExecResult x = s.execute("python", "print(1)");
      assertTrue(!x.ran() && x.reason().contains("still running"), x.toString());

      release.countDown();
      TurnResult r = first.get(60, TimeUnit.SECONDS);
      assertEquals(TurnStatus.DONE, r.status(), r.toString());
      assertEquals(Decision.DecidedBy.USER, r.blocks().get(0).decision().by());
    }
  }

  @Test
  void anEmptyMessageIsRefused() throws Exception {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(true).build();
         Session s = i4j.newSession()) {
      ExecutionException refused = assertThrows(ExecutionException.class,
          () -> s.chat("  ").toCompletableFuture().get(60, TimeUnit.SECONDS));
      assertTrue(refused.getCause().getMessage().contains("empty"), refused.getCause().getMessage());
      // the session takes the next message
      assertEquals(TurnStatus.DONE, s.chat("mean of 3 5 8 13").toCompletableFuture().get(60, TimeUnit.SECONDS)
          .status());
    }
  }

  @Test
  void withoutAnApproverAndAutoRunOffABlockEndsTheTurnBlocked() throws Exception {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(false).build();
         Session s = i4j.newSession()) {
      TurnResult r = s.chat("mean of 3 5 8 13").toCompletableFuture().get(60, TimeUnit.SECONDS);
      assertEquals(TurnStatus.BLOCKED, r.status(), r.toString());
      assertEquals(Decision.Kind.DENIED, r.blocks().get(0).decision().kind());
      assertNull(r.blocks().get(0).result());
    }
  }
}
