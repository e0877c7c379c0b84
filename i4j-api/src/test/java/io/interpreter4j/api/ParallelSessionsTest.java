package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.core.testing.Processes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One {@link Interpreter}, 100 sessions at once, each with its own bash REPL and its own replay of the cassette. */
class ParallelSessionsTest {

  private static final int SESSIONS = 100;

  @TempDir
  Path tmp;

  @Test
  void aHundredSessionsRunTheirTurnsInParallel() throws Exception {
    List<TurnResult> results;
    try (Interpreter i4j = Cassettes.builder("shell", tmp).autoRun(true).build()) {
      List<CompletableFuture<TurnResult>> turns = new ArrayList<>();
      for (int i = 0; i < SESSIONS; i++) {
        turns.add(CompletableFuture.supplyAsync(i4j::newSession)
            .thenCompose(s -> s.chat("what is 6 times 7?")));
      }
      CompletableFuture.allOf(turns.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
      results = turns.stream().map(CompletableFuture::join).toList();

      assertEquals(SESSIONS, results.stream().map(TurnResult::sessionId).distinct().count());
      for (TurnResult r : results) {
        assertEquals(TurnStatus.DONE, r.status(), r.toString());
        assertEquals("The answer is 42.", r.answer());
        assertEquals("42\n", r.blocks().get(0).result().output(), r.toString());
      }
    }
    assertEquals(List.of(), Processes.workingIn(tmp));
  }
}
