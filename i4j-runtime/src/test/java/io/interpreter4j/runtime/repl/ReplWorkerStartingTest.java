package io.interpreter4j.runtime.repl;

import static io.interpreter4j.runtime.repl.ReplWorkerTest.collect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.repl.ReplWorkerTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker while its interpreter starts: what arrives before the interpreter is known is kept or answered. */
class ReplWorkerStartingTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final Duration LONG = Duration.ofSeconds(60);

  @TempDir
  Path sessionDir;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  ActorRef<ReplWorker.Command> worker(ReplConfig config) {
    return testKit.spawn(ReplWorker.supervised(ReplWorker.create(config)));
  }

  @Test
  void whatAnInterpreterWritesBeforeItDiesAtStartBelongsToTheBlockWaitingForIt() throws Exception {
    // it may write and exit before the worker hears that it started: those reports wait for that news
    Path script = sessionDir.resolve("early-python");
    Files.writeString(script, "#!/bin/sh\necho early-out\necho early-err >&2\nexit 3\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    var worker = worker(ReplConfig.defaults("python", sessionDir, sessionDir).withPythonExecutable(script.toString())
        .withVenv(VenvMode.OFF));
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(1, "print('never')", LONG, probe.getRef()));
    Run run = collect(probe, 1, new ArrayList<>());
    assertEquals(3, run.exitCode());
    assertEquals("early-out\n", run.stdout());
    assertEquals("early-err\n", run.stderr());
    assertTrue(run.notice().contains("The python process exited with code 3"), run.notice());
  }

  @Test
  void aBlockWhileTheInterpreterStartsIsRefusedAndAnInterruptEndsTheWaitingOne() {
    var worker = worker(ReplConfig.defaults("python", sessionDir, sessionDir));
    TestProbe<ReplWorker.Reply> first = testKit.createTestProbe();
    TestProbe<ReplWorker.Reply> second = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(1, "import time\ntime.sleep(60)", LONG, first.getRef()));
    worker.tell(new ReplWorker.Execute(2, "print('no')", LONG, second.getRef()));
    worker.tell(ReplWorker.Interrupt.INSTANCE);

    Run refused = collect(second, 2, new ArrayList<>());
    assertEquals(1, refused.exitCode());
    assertTrue(refused.notice().contains("another block is still running"), refused.notice());
    // stopped before the interpreter was up (nothing ran) or, if it won the race, with SIGINT: 130 either way
    Run interrupted = collect(first, 1, new ArrayList<>());
    assertEquals(130, interrupted.exitCode());
    assertTrue(interrupted.result().interrupted());

    TestProbe<ReplWorker.Reply> third = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(3, "print('after')", LONG, third.getRef()));
    Run next = collect(third, 3, new ArrayList<>());
    assertEquals(0, next.exitCode());
    assertEquals("after\n", next.stdout());
  }
}
