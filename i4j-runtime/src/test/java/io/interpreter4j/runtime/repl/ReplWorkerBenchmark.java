package io.interpreter4j.runtime.repl;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Round-trip time of a trivial block through a warm python worker. Reports, never asserts; not picked up by the
 * default test run (no Test suffix): {@code -Dtest=ReplWorkerBenchmark}.
 */
class ReplWorkerBenchmark {

  @TempDir
  Path sessionDir;

  @Test
  void warmPythonPrintRoundTrip() {
    ActorTestKit testKit = ActorTestKit.create();
    try {
      ActorRef<ReplWorker.Command> worker =
          testKit.spawn(ReplWorker.create(ReplConfig.defaults("python", sessionDir, sessionDir)));
      TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
      int warmup = 50;
      int iterations = 200;
      long[] nanos = new long[iterations];
      for (int i = 0; i < warmup + iterations; i++) {
        long start = System.nanoTime();
        worker.tell(new ReplWorker.Execute(i, "print(1)", Duration.ofSeconds(30), probe.getRef()));
        // print writes "1" and "\n" separately under -u, so the Output replies come in one or two pieces
        while (!(probe.receiveMessage(Duration.ofSeconds(30)) instanceof ReplWorker.Finished)) {
          continue;
        }
        if (i >= warmup) {
          nanos[i - warmup] = System.nanoTime() - start;
        }
      }
      Arrays.sort(nanos);
      System.out.printf("warm python print(1): median %.3f ms, p90 %.3f ms, min %.3f ms, max %.3f ms over %d blocks%n",
          nanos[iterations / 2] / 1e6, nanos[iterations * 9 / 10] / 1e6, nanos[0] / 1e6, nanos[iterations - 1] / 1e6,
          iterations);
    } finally {
      testKit.shutdownTestKit();
    }
  }
}
