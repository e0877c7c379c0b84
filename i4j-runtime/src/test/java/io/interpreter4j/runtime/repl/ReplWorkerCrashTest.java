package io.interpreter4j.runtime.repl;

import static io.interpreter4j.runtime.repl.ReplWorkerTest.WAIT;
import static io.interpreter4j.runtime.repl.ReplWorkerTest.collect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.repl.ReplWorkerTest.Run;
import io.interpreter4j.runtime.supervision.Faults;
import io.interpreter4j.runtime.supervision.Faults.Point;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker that throws (a test-only {@link Faults} crash point) while a block arrives or runs: the block is answered
 * at once with a notice naming the crash, no process of its interpreter is left, and the next block on the same
 * reference runs in a fresh interpreter; past the restart limit the worker stops, leaving no process either.
 */
class ReplWorkerCrashTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final Duration LONG = Duration.ofSeconds(120);
  /** A block that records its interpreter's pid and a child's, prints once, then sleeps far past {@link WAIT}. */
  static final String SLEEPER = String.join("\n",
      "import os, subprocess, time",
      "child = subprocess.Popen(['sleep', '300'])",
      "open('pids', 'w').write(f'{os.getpid()} {child.pid}')",
      "print('x', flush=True)",
      "time.sleep(60)");

  /** Marks the processes of one test's interpreters, so that the test finds every one of them. */
  final String mark = UUID.randomUUID().toString();

  @TempDir
  Path sessionDir;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  ActorRef<ReplWorker.Command> supervised(String language, Faults faults) {
    ReplConfig config = ReplConfig.defaults(language, sessionDir, sessionDir).withFaults(faults)
        .withExtraEnv(Map.of("I4J_CRASH_TEST", mark));
    return testKit.spawn(ReplWorker.supervised(ReplWorker.create(config)));
  }

  Run execute(ActorRef<ReplWorker.Command> worker, int block, String code) {
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(block, code, LONG, probe.getRef()));
    return collect(probe, block, new ArrayList<>());
  }

  @Test
  void aCrashWhileABlockRunsAnswersItAtOnceKillsTheTreeAndTheNextBlockRunsFresh() throws Exception {
    var worker = supervised("python", Faults.once(Point.WORKER_EXECUTING));
    Run crashed = execute(worker, 1, SLEEPER); // within WAIT, long before the block's sleep would end
    assertCrashed(crashed, "python", "worker_executing", true);
    assertTrue(crashed.stdout().startsWith("x"), crashed.stdout()); // what came before the crash is shown
    long[] pids = pids();
    assertGone(pids);

    Run next = execute(worker, 2, "import os\nprint(os.getpid())");
    assertEquals(0, next.exitCode());
    assertNull(next.result().notice());
    assertNotEquals(pids[0], Long.parseLong(next.stdout().strip()));
  }

  @Test
  void aBashShellIsKilledWithItsBackgroundJobsWhenItsWorkerCrashes() throws Exception {
    var worker = supervised("bash", Faults.once(Point.WORKER_EXECUTING));
    Run crashed = execute(worker, 1, "sleep 300 &\necho \"$$ $!\" > pids\necho x\nsleep 60");
    assertCrashed(crashed, "bash", "worker_executing", true);
    assertGone(pids());
    assertEquals("fresh\n", execute(worker, 2, "echo fresh").stdout());
  }

  @Test
  void aCrashWhileTheFirstBlockArrivesStopsTheInterpreterBeingStartedAndRunsNothing() throws Exception {
    var worker = supervised("python", Faults.once(Point.WORKER_EXECUTE));
    Run crashed = execute(worker, 1, "open('ran', 'w').write('1')");
    assertCrashed(crashed, "python", "worker_execute", true);
    assertTrue(crashed.outputs().isEmpty());

    Run next = execute(worker, 2, "import os\nprint(os.getpid())");
    assertEquals(0, next.exitCode());
    long pid = Long.parseLong(next.stdout().strip());
    // the interpreter launched for block 1 is closed once up: only block 2's is left
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(List.of(pid), marked().stream().map(ProcessHandle::pid).toList());
      return null;
    });
    assertFalse(Files.exists(sessionDir.resolve("ran")), "block 1 must never run");
  }

  @Test
  void aCrashWhileABlockArrivesAtARunningInterpreterKillsItsTree() throws Exception {
    var worker = supervised("python", Faults.onHit(Point.WORKER_EXECUTE, 2));
    Run first = execute(worker, 1, String.join("\n",
        "import os, subprocess",
        "child = subprocess.Popen(['sleep', '300'])",
        "open('pids', 'w').write(f'{os.getpid()} {child.pid}')"));
    assertEquals(0, first.exitCode());
    long[] pids = pids();

    Run crashed = execute(worker, 2, "import time\ntime.sleep(60)");
    assertCrashed(crashed, "python", "worker_execute", true);
    assertGone(pids);
    Run next = execute(worker, 3, "import os\nprint(os.getpid())");
    assertEquals(0, next.exitCode());
    assertNotEquals(pids[0], Long.parseLong(next.stdout().strip()));
  }

  @Test
  void anInterruptThatReachesTheRestartedWorkerFindsNoBlockAndNothingHangs() {
    var worker = supervised("python", Faults.onHit(Point.WORKER_EXECUTE, 2));
    assertEquals(0, execute(worker, 1, "w = 1").exitCode());
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(2, "import time\ntime.sleep(60)", LONG, probe.getRef()));
    worker.tell(ReplWorker.Interrupt.INSTANCE); // handled by the fresh worker: block 2 was answered at the crash
    assertCrashed(collect(probe, 2, new ArrayList<>()), "python", "worker_execute", true);
    Run next = execute(worker, 3, "print('w' in globals())");
    assertEquals("False\n", next.stdout());
    worker.tell(ReplWorker.Interrupt.INSTANCE); // idle: nothing to answer
    assertEquals("still\n", execute(worker, 4, "print('still')").stdout());
    probe.expectNoMessage(Duration.ofMillis(200)); // one Finished for block 2, no second
  }

  @Test
  void pastTheRestartLimitTheWorkerStopsAnsweringItsBlockAndLeavesNoProcess() throws Exception {
    var worker = supervised("python", Faults.always(Point.WORKER_EXECUTING));
    for (int block = 1; block <= ReplWorker.MAX_RESTARTS; block++) {
      assertCrashed(execute(worker, block, SLEEPER), "python", "worker_executing", true);
      assertGone(pids());
    }
    Run last = execute(worker, ReplWorker.MAX_RESTARTS + 1, SLEEPER);
    assertCrashed(last, "python", "worker_executing", false);
    testKit.createTestProbe().expectTerminated(worker, WAIT);
    assertGone(pids());
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(List.of(), marked());
      return null;
    });
  }

  @Test
  void anUnsupervisedWorkerThatCrashesStopsAndAnswersItsBlock() throws Exception {
    ReplConfig config = ReplConfig.defaults("python", sessionDir, sessionDir)
        .withFaults(Faults.once(Point.WORKER_EXECUTING));
    var worker = testKit.spawn(ReplWorker.create(config));
    assertCrashed(execute(worker, 1, SLEEPER), "python", "worker_executing", false);
    testKit.createTestProbe().expectTerminated(worker, WAIT);
    assertGone(pids());
  }

  static void assertCrashed(Run run, String language, String point, boolean restarted) {
    assertEquals(BlockEndings.RUNTIME_FAILURE, run.exitCode(), run.notice());
    assertFalse(run.result().timedOut());
    String notice = run.notice();
    assertTrue(notice.contains("The " + language + " worker crashed (injected fault at " + point + ")"), notice);
    assertTrue(notice.contains(restarted ? "the next block starts a fresh one" : "was not restarted"), notice);
  }

  /** The pids the block wrote to {@code pids}: its interpreter's, then a child's. */
  long[] pids() throws IOException {
    Path file = sessionDir.resolve("pids");
    long[] pids = Arrays.stream(Files.readString(file).strip().split(" ")).mapToLong(Long::parseLong).toArray();
    Files.delete(file);
    return pids;
  }

  /** Every one of these processes ends (waited for on its exit, not slept for). */
  static void assertGone(long... pids) throws Exception {
    for (long pid : pids) {
      var handle = ProcessHandle.of(pid);
      if (handle.isPresent()) {
        handle.get().onExit().get(20, TimeUnit.SECONDS);
      }
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "still alive: " + pid);
    }
  }

  /**
   * The live processes started by this test's interpreters (and their children), found by their environment or, for
   * an interpreter forked by the python fork server (whose /proc environ is the server's, from its exec), by its
   * working directory, this test's session folder.
   */
  List<ProcessHandle> marked() {
    String entry = "I4J_CRASH_TEST=" + mark;
    return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).filter(p -> {
      try {
        Path proc = Path.of("/proc", Long.toString(p.pid()));
        String environ = new String(Files.readAllBytes(proc.resolve("environ")), StandardCharsets.UTF_8);
        return Arrays.asList(environ.split("\0")).contains(entry)
            || Files.readSymbolicLink(proc.resolve("cwd")).equals(sessionDir.toRealPath());
      } catch (IOException e) {
        return false; // ended meanwhile
      }
    }).toList();
  }
}
