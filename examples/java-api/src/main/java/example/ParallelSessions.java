package example;

import io.interpreter4j.api.Interpreter;
import io.interpreter4j.api.Session;
import io.interpreter4j.api.TurnResult;
import io.interpreter4j.api.TurnStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs 20 sessions of one interpreter in parallel on a replay model (no API key, no network) and prints their
 * results. Exits 0 when every turn ended done, 1 otherwise. Argument: the cassette (default cassette.json).
 */
public final class ParallelSessions {

  private static final int SESSIONS = 20;

  public static void main(String[] args) throws Exception {
    Path cassette = Path.of(args.length > 0 ? args[0] : "cassette.json").toAbsolutePath();
    Path work = Files.createDirectories(Path.of("target", "work"));
    int done = 0;
    try (Interpreter i4j = Interpreter.builder()
        .model("replay:" + cassette)
        .autoRun(true)                             // run blocks without asking; high-risk ones are still denied
        .workdir(work)
        .dataDir(Path.of("target", "i4j-data"))   // journals and outputs of the sessions
        .build()) {
      List<CompletableFuture<TurnResult>> turns = new ArrayList<>();
      for (int i = 1; i <= SESSIONS; i++) {
        Session session = i4j.newSession();
        turns.add(session.chat("task " + i + ": what is the mean of 3 5 8 13?").toCompletableFuture());
      }
      for (int i = 0; i < SESSIONS; i++) {
        TurnResult result = turns.get(i).get(5, TimeUnit.MINUTES);
        System.out.println("result " + (i + 1) + ": " + result);
        if (result.status() == TurnStatus.DONE) {
          done++;
        }
      }
    } // closes the sessions: their python processes are gone when this returns
    System.out.println(done + " of " + SESSIONS + " sessions done");
    System.exit(done == SESSIONS ? 0 : 1);
  }
}
