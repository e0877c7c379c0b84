package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A custom {@link Approver}: asked about each block that needs a person, its verdict applied. */
class ApproverTest {

  @TempDir
  Path tmp;

  @Test
  void aDenyingApproverKeepsTheModelsBlockFromRunning() throws Exception {
    List<ApprovalRequest> asked = new CopyOnWriteArrayList<>();
    Approver no = request -> {
      asked.add(request);
      return Decision.deny("no file writes in this service");
    };
    try (Interpreter i4j = Cassettes.builder("declined", tmp).autoRun(false).approver(no).build();
         Session s = i4j.newSession()) {
      TurnResult r = s.chat("write ran.txt").toCompletableFuture().get(60, TimeUnit.SECONDS);

      assertEquals(TurnStatus.DONE, r.status(), r.toString());
      assertEquals("Understood, I did not write the file.", r.answer());
      BlockRun b = r.blocks().get(0);
      assertEquals(new Decision(Decision.Kind.DENIED, Decision.DecidedBy.USER, null, "no file writes in this service"),
          b.decision());
      assertNull(b.result());
      assertFalse(Files.exists(tmp.resolve("ran.txt")), "the denied block ran");
      assertEquals(List.of(new ApprovalRequest(s.id(), 1, "python", "open('ran.txt', 'w').write('ran')")), asked);
    }
  }

  @Test
  void aDenyingApproverKeepsAnExecutionFromRunning() {
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(false)
             .approver(request -> Decision.deny("not today")).build();
         Session s = i4j.newSession()) {
      ExecResult x = s.execute("bash", "touch ran.txt");
      assertFalse(x.ran(), x.toString());
      assertEquals("not today", x.reason());
      assertEquals(-1, x.exitCode());
      assertFalse(Files.exists(tmp.resolve("ran.txt")));
    }
  }

  @Test
  void anEditRunsTheApproversCodeAndAThrowingApproverDenies() {
    Approver editor = request -> {
      if (request.code().contains("boom")) {
        throw new IllegalStateException("boom");
      }
      return Decision.edit("print('edited')");
    };
    try (Interpreter i4j = Cassettes.builder("mean", tmp).autoRun(false).approver(editor).build();
         Session s = i4j.newSession()) {
      ExecResult edited = s.execute("python", "print('original')");
      assertEquals("edited\n", edited.output(), edited.toString());
      assertEquals(Decision.Kind.EDITED, edited.decision().kind());
      assertEquals("print('edited')", edited.decision().code());

      ExecResult thrown = s.execute("python", "print('boom')");
      assertFalse(thrown.ran(), thrown.toString());
      assertEquals(Decision.Kind.DENIED, thrown.decision().kind());
      assertTrue(thrown.reason().contains("boom"), thrown.reason());
    }
  }
}
