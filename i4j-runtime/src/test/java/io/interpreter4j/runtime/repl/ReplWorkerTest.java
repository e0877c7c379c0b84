package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.interpreter4j.core.output.OutputTruncator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplWorkerTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  /** Generous bound for a block to finish; no assertion depends on how fast it is. */
  static final Duration WAIT = Duration.ofSeconds(20);
  static final Duration LONG = Duration.ofSeconds(60);
  static final Duration SHORT = Duration.ofSeconds(1);

  @TempDir
  Path sessionDir;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The replies of one block. */
  record Run(List<ReplWorker.Output> outputs, ExecResult result) {
    String stdout() {
      return text(io.interpreter4j.core.event.StreamName.STDOUT);
    }

    String stderr() {
      return text(io.interpreter4j.core.event.StreamName.STDERR);
    }

    String text(io.interpreter4j.core.event.StreamName stream) {
      return outputs.stream().filter(o -> o.stream() == stream).map(ReplWorker.Output::text)
          .collect(Collectors.joining());
    }

    int exitCode() {
      return result.exitCode();
    }

    String notice() {
      return result.notice() == null ? "" : result.notice();
    }
  }

  /** The python process (forked or spawned) running in {@code dir}, waited for up to {@link #WAIT}. */
  static ProcessHandle pythonIn(Path dir) throws Exception {
    Path real = dir.toRealPath();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
        try {
          if (p.info().command().map(c -> c.contains("python")).orElse(false)
              && Files.readSymbolicLink(Path.of("/proc/" + p.pid() + "/cwd")).equals(real)) {
            return p;
          }
        } catch (java.io.IOException gone) {
          // ended meanwhile, or not ours to read
        }
      }
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
    }
    throw new AssertionError("no python started in " + dir + " within " + WAIT);
  }

  ActorRef<ReplWorker.Command> worker(ReplConfig config) {
    return testKit.spawn(ReplWorker.create(config));
  }

  ReplConfig config(String language) {
    return ReplConfig.defaults(language, sessionDir, sessionDir);
  }

  static Run run(ActorRef<ReplWorker.Command> worker, int block, String code, Duration timeout) {
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(block, code, timeout, probe.getRef()));
    return collect(probe, block, new ArrayList<>());
  }

  static Run run(ActorRef<ReplWorker.Command> worker, int block, String code) {
    return run(worker, block, code, LONG);
  }

  /** Receives Output replies until the Finished one; all must be for {@code block}. */
  static Run collect(TestProbe<ReplWorker.Reply> probe, int block, List<ReplWorker.Output> outputs) {
    while (true) {
      ReplWorker.Reply reply = probe.receiveMessage(WAIT);
      if (reply instanceof ReplWorker.Output output) {
        assertEquals(block, output.block());
        outputs.add(output);
      } else if (reply instanceof ReplWorker.Finished finished) {
        assertEquals(block, finished.block());
        return new Run(outputs, finished.result());
      } else {
        fail("unexpected reply " + reply);
      }
    }
  }

  /**
   * Runs {@code code} (which prints the line "ready", then waits), interrupts it once it has printed that line; its
   * run. The whole line: python's print writes "ready" and its newline apart, and a fast signal lands in between.
   */
  static Run interruptedOnceReady(ActorRef<ReplWorker.Command> worker, int block, String code) {
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(block, code, LONG, probe.getRef()));
    List<ReplWorker.Output> outputs = awaitStdout(probe, "ready\n");
    worker.tell(ReplWorker.Interrupt.INSTANCE);
    return collect(probe, block, outputs);
  }

  /** Receives Output replies until stdout has shown {@code text}; returns them so far. */
  static List<ReplWorker.Output> awaitStdout(TestProbe<ReplWorker.Reply> probe, String text) {
    List<ReplWorker.Output> outputs = new ArrayList<>();
    StringBuilder stdout = new StringBuilder();
    while (!stdout.toString().contains(text)) {
      ReplWorker.Reply reply = probe.receiveMessage(WAIT);
      if (!(reply instanceof ReplWorker.Output output)) {
        fail("block ended before printing " + text + ": " + reply);
        return outputs;
      }
      outputs.add(output);
      if (output.stream() == io.interpreter4j.core.event.StreamName.STDOUT) {
        stdout.append(output.text());
      }
    }
    return outputs;
  }

  /** Processes that should all end; waits on their exit rather than sleeping. */
  static void assertAllEnd(List<ProcessHandle> processes) throws Exception {
    CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(exits).get(20, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException stillRunning) {
      StringBuilder alive = new StringBuilder();
      for (ProcessHandle p : processes) {
        if (p.isAlive()) {
          String stat;
          try {
            stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat")).strip();
          } catch (java.io.IOException gone) {
            stat = "(no /proc entry)";
          }
          alive.append("\n  ").append(stat);
        }
      }
      fail("still alive after 20 s (pid (comm) state ppid pgrp ...):" + alive);
    }
    for (ProcessHandle p : processes) {
      assertFalse(p.isAlive(), "still alive: " + p.pid() + " " + p.info().commandLine().orElse(""));
    }
  }

  static List<ProcessHandle> treeOf(long pid) {
    ProcessHandle root = ProcessHandle.of(pid).orElseThrow();
    List<ProcessHandle> all = new ArrayList<>();
    all.add(root);
    root.descendants().forEach(all::add);
    return all;
  }

  @Nested
  class Python {

    @Test
    void theDefaultPythonIsForkedByTheForkServerAndAnotherPythonIsSpawned() throws Exception {
      io.interpreter4j.core.testing.RequiredTool.assume(PythonForkServer.enabled(),
          "Linux (the python fork server runs only there)", "run on Linux");
      Run forked = run(worker(config("python")), 1, "import os\nprint(os.getppid(), os.getpgrp() == os.getpid())");
      assertEquals(PythonForkServer.runningPid().orElseThrow() + " True", forked.stdout().strip());

      Path other = Files.createSymbolicLink(sessionDir.resolve("other-python"),
          Path.of(ReplDialect.PythonExecutable.resolve()));
      Run spawned = run(worker(config("python").withPythonExecutable(other.toString())), 1,
          "import os\nprint(os.getppid(), os.getpgrp() == os.getpid())");
      assertEquals(ProcessHandle.current().pid() + " True", spawned.stdout().strip());
    }

    @Test
    void keepsGlobalsAcrossBlocksAndShowsATrailingExpression() {
      var worker = worker(config("python"));
      Run first = run(worker, 1, "x = 41\ndef inc(v):\n    return v + 1\n");
      assertEquals(0, first.exitCode());
      assertEquals("", first.result().modelOutput());
      assertNull(first.result().notice());

      Run second = run(worker, 2, "inc(x)");
      assertEquals(0, second.exitCode());
      assertEquals("42\n", second.result().modelOutput());
      assertEquals("42\n", second.stdout());

      assertEquals("None-less\n", run(worker, 3, "print('None-less')\nNone").result().modelOutput());
      assertNull(second.result().outputFile(), "its whole output went out live: no output file");
      assertFalse(Files.exists(sessionDir.resolve("outputs/block-2.txt")));
    }

    @Test
    void anExceptionExitsWithOneAndATracebackOnStderr() {
      var worker = worker(config("python"));
      Run run = run(worker, 1, "print('before')\n1/0\n");
      assertEquals(1, run.exitCode());
      assertEquals("before\n", run.stdout());
      assertTrue(run.stderr().contains("Traceback"), run.stderr());
      assertTrue(run.stderr().contains("ZeroDivisionError"), run.stderr());
      assertFalse(run.stderr().contains("_i4j"), "driver frames leak: " + run.stderr());
      // stdout and stderr are two pipes read by two threads: their interleaving in the combined text may vary
      assertTrue(run.result().modelOutput().contains("before"), run.result().modelOutput());
      assertTrue(run.result().modelOutput().contains("Traceback"), run.result().modelOutput());

      Run syntax = run(worker, 2, "x x");
      assertEquals(1, syntax.exitCode());
      assertTrue(syntax.stderr().contains("SyntaxError"), syntax.stderr());
    }

    @Test
    void aTracebackShowsTheFailingLineOfTheBlock() {
      var worker = worker(config("python"));
      Run run = run(worker, 7, "x = 1\nraise ValueError('boom ' + str(x))\n");
      assertEquals(1, run.exitCode());
      assertTrue(run.stderr().contains("<block-7>\", line 2"), run.stderr());
      assertTrue(run.stderr().contains("raise ValueError('boom ' + str(x))"), "source line shown: " + run.stderr());
      assertTrue(run.stderr().contains("ValueError: boom 1"), run.stderr());
    }

    @Test
    void sysExitReportsItsCodeAndTheInterpreterKeepsItsGlobals() {
      var worker = worker(config("python"));
      Run exit = run(worker, 1, "y = 5\nimport sys\nsys.exit(3)\n");
      assertEquals(3, exit.exitCode());
      assertNull(exit.result().notice());
      assertEquals("5\n", run(worker, 2, "print(y)").stdout());
      assertEquals(0, run(worker, 3, "import sys; sys.exit()").exitCode());
    }

    @Test
    void keepsStdoutAndStderrApartAndCapturesChildProcesses() {
      var worker = worker(config("python"));
      Run run = run(worker, 1, String.join("\n",
          "import sys, subprocess",
          "print('out')",
          "print('err', file=sys.stderr)",
          "subprocess.run(['echo', 'from-child'])",
          "_ = subprocess.run(['sh', '-c', 'echo child-err >&2'])"));
      assertEquals(0, run.exitCode());
      assertEquals("out\nfrom-child\n", run.stdout());
      assertEquals("err\nchild-err\n", run.stderr());
    }

    @Test
    void readingStdinGetsEndOfFileAtOnce() {
      var worker = worker(config("python"));
      Run input = run(worker, 1, "name = input('name? ')");
      assertEquals(1, input.exitCode());
      assertTrue(input.stderr().contains("EOFError"), input.stderr());
      assertTrue(input.notice().contains("standard input"), input.notice());

      Run read = run(worker, 2, String.join("\n",
          "import sys, subprocess",
          "print(repr(sys.stdin.read()))",
          "print(subprocess.run(['cat']).returncode)"));
      assertEquals(0, read.exitCode());
      assertEquals("''\n0\n", read.stdout());
      assertNull(read.result().notice());
    }

    @Test
    void outputWithoutTrailingNewlineIsKeptExactly() {
      var worker = worker(config("python"));
      Run run = run(worker, 1, "import sys\nprint('abc', end='')\nprint('def', end='', file=sys.stderr)");
      assertEquals("abc", run.stdout());
      assertEquals("def", run.stderr());
      assertEquals(0, run.exitCode());
      assertEquals("tail", run(worker, 2, "print('tail', end='')").result().modelOutput());
    }

    @Test
    void multiByteCharactersSurviveBeingSplitAcrossReads() throws Exception {
      var worker = worker(config("python"));
      // 9 bytes per line never lines up with the 8192-char reads, so characters straddle chunk edges
      Run run = run(worker, 1, "print('h\u00e9\u2713\\U0001F600' * 5000)\nprint('\u00e9', end='')");
      String expected = "h\u00e9\u2713\uD83D\uDE00".repeat(5000) + "\n\u00e9";
      assertEquals(expected, run.stdout());
      assertEquals(expected, Files.readString(run.result().outputFile()));
    }

    @Test
    void anInterpreterThatCannotStartIsReportedAndNothingHangs() {
      var worker = worker(config("python").withPythonExecutable("/nonexistent/python3"));
      Run run = run(worker, 1, "print(1)");
      assertEquals(127, run.exitCode());
      assertTrue(run.notice().contains("could not be started"), run.notice());
      assertTrue(run.notice().contains("/nonexistent/python3"), run.notice());

      var onPath = worker(config("python").withPythonExecutable("python3-that-does-not-exist"));
      Run missing = run(onPath, 1, "print(1)");
      assertEquals(127, missing.exitCode());
      assertTrue(missing.notice().contains("could not be started"), missing.notice());
    }

    @Test
    void aGuessedMarkerLineDoesNotEndTheBlock() throws Exception {
      var worker = worker(config("python"));
      String code = String.join("\n",
          "import sys",
          "for fake in ['\\x02' + 'f' * 32 + ' 0 -', '\\x02' + '0' * 32 + ' 0 -', '__I4J_DONE__ 0']:",
          "    print(fake)",
          "    print(fake, file=sys.stderr)",
          "print('after', end='')",
          "sys.exit(5)");
      Run run = run(worker, 1, code);
      assertEquals(5, run.exitCode());
      assertTrue(run.stdout().endsWith("after"), run.stdout());
      assertTrue(run.stdout().contains("\u0002" + "f".repeat(32)), run.stdout());
      assertNull(run.result().outputFile(), "a few lines, all of them live: no output file");
    }

    @Test
    void busyLoopAndSleepTimeOutAndTheInterpreterKeepsItsState() {
      var worker = worker(config("python"));
      run(worker, 1, "z = 'kept'\nimport time");

      Run loop = run(worker, 2, "print('spinning')\nwhile True: pass", SHORT);
      assertEquals(124, loop.exitCode());
      assertTrue(loop.result().timedOut());
      assertFalse(loop.result().interrupted());
      assertEquals("spinning\n", loop.stdout());
      assertTrue(loop.stderr().contains("KeyboardInterrupt"), loop.stderr());
      assertTrue(loop.notice().contains("kept its state"), loop.notice());

      Run sleep = run(worker, 3, "time.sleep(1000)", SHORT);
      assertEquals(124, sleep.exitCode());
      assertTrue(sleep.result().timedOut());

      Run after = run(worker, 4, "z");
      assertEquals(0, after.exitCode());
      assertEquals("'kept'\n", after.stdout());
      assertNull(after.result().notice());
    }

    @Test
    void interruptStopsTheBlockWith130AndKeepsState() {
      var worker = worker(config("python"));
      run(worker, 1, "w = 7");
      Run run = interruptedOnceReady(worker, 2, "import time\nprint('ready', flush=True)\ntime.sleep(1000)");
      assertEquals(130, run.exitCode());
      assertTrue(run.result().interrupted());
      assertFalse(run.result().timedOut());
      assertEquals("7\n", run(worker, 3, "print(w)").stdout());

      worker.tell(ReplWorker.Interrupt.INSTANCE); // idle: nothing happens
      assertEquals("8\n", run(worker, 4, "print(w + 1)").stdout());
    }

    @Test
    void aSigintHandlerTheBlockSetsLastsOnlyAsLongAsTheBlock() {
      var worker = worker(config("python"));
      run(worker, 1, "import signal, time\nsignal.signal(signal.SIGINT, lambda *a: print('mine'))\nw = 3");
      Run run = interruptedOnceReady(worker, 2, "print('ready', flush=True)\ntime.sleep(1000)");
      assertEquals(130, run.exitCode());
      assertTrue(run.result().interrupted());
      assertEquals("ready\n", run.stdout());
      assertTrue(run.stderr().contains("KeyboardInterrupt"), run.stderr());
      assertTrue(run.stderr().contains("<block-2>"), run.stderr());
      assertFalse(run.stderr().contains("on_interrupt"), "the driver's handler is in the traceback: " + run.stderr());
      assertEquals("3\n", run(worker, 3, "print(w)").stdout());
    }

    @Test
    void codeThatIgnoresSigintIsKilledAfterTheGraceAndTheStateIsReset() {
      var worker = worker(config("python").withInterruptGrace(Duration.ofMillis(300)));
      run(worker, 1, "v = 1");
      Run run = run(worker, 2, "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(1000)",
          SHORT);
      assertEquals(124, run.exitCode());
      assertTrue(run.result().timedOut());
      assertTrue(run.notice().contains("was killed"), run.notice());
      Run after = run(worker, 3, "print('v' in globals())");
      assertEquals("False\n", after.stdout());
    }

    @Test
    void anInterpreterKilledMidBlockIsReportedAndReplaced() {
      var worker = worker(config("python"));
      long pid = Long.parseLong(run(worker, 1, "import os\nos.getpid()").stdout().strip());

      TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
      worker.tell(new ReplWorker.Execute(2, "import time\nprint('ready', flush=True)\ntime.sleep(1000)", LONG,
          probe.getRef()));
      List<ReplWorker.Output> outputs = awaitStdout(probe, "ready");
      ProcessHandle.of(pid).orElseThrow().destroyForcibly();
      Run killed = collect(probe, 2, outputs);
      assertEquals(137, killed.exitCode());
      assertFalse(killed.result().timedOut());
      assertTrue(killed.notice().contains("signal 9 (SIGKILL)"), killed.notice());
      assertTrue(killed.notice().contains("new process"), killed.notice());

      Run next = run(worker, 3, "import os\nprint(os.getpid())");
      assertEquals(0, next.exitCode());
      assertNotEquals(pid, Long.parseLong(next.stdout().strip()));
    }

    @Test
    void fiftyMegabytesOfOutputAreSpooledAndCutForTheModel() throws Exception {
      var worker = worker(config("python"));
      Run run = run(worker, 1, "print('HEAD' + 'x' * 50_000_000 + 'TAIL')");
      ExecResult result = run.result();
      assertEquals(0, result.exitCode());
      assertTrue(result.truncated());
      assertEquals(50_000_009, Files.size(result.outputFile()));
      String marker = OutputTruncator.marker(50_000_009, result.outputFile().toString());
      assertTrue(result.modelOutput().length() <= ReplConfig.DEFAULT_MAX_OUTPUT + marker.length());
      assertTrue(result.modelOutput().startsWith("HEADxxx"));
      assertTrue(result.modelOutput().endsWith("xxxTAIL\n"));
      assertTrue(result.modelOutput().contains(marker));

      long live = run.outputs().stream().mapToLong(o -> o.text().length()).sum();
      assertTrue(live < ReplConfig.DEFAULT_LIVE_OUTPUT_LIMIT + 1000, "live output " + live);
      assertTrue(run.outputs().get(run.outputs().size() - 1).text().contains("live output limited to 1 MiB"));
    }

    @Test
    void aSecondBlockWhileOneRunsIsRefusedAtOnce() {
      var worker = worker(config("python"));
      TestProbe<ReplWorker.Reply> first = testKit.createTestProbe();
      worker.tell(new ReplWorker.Execute(1, "import time\nprint('ready', flush=True)\ntime.sleep(1000)", LONG,
          first.getRef()));
      List<ReplWorker.Output> outputs = awaitStdout(first, "ready");

      Run refused = run(worker, 2, "print('no')");
      assertEquals(1, refused.exitCode());
      assertTrue(refused.notice().contains("another block is still running"), refused.notice());
      assertTrue(refused.outputs().isEmpty());

      worker.tell(ReplWorker.Interrupt.INSTANCE);
      assertEquals(130, collect(first, 1, outputs).exitCode());
    }

    @Test
    void anInterpreterStartedEarlyRunsTheFirstBlock() throws Exception {
      var worker = worker(config("python"));
      worker.tell(ReplWorker.StartEarly.INSTANCE);
      ProcessHandle early = pythonIn(sessionDir); // there before any block was sent
      worker.tell(ReplWorker.StartEarly.INSTANCE); // one is running: nothing more starts
      Run first = run(worker, 1, "import os\nprint(os.getpid())");
      assertEquals(early.pid() + "\n", first.stdout());
      assertEquals("", first.notice());
    }

    @Test
    void anInterpreterStartedEarlyAndNeverUsedIsStoppedWhenIdleWithoutANotice() throws Exception {
      var worker = worker(config("python").withIdleTimeout(Duration.ofMillis(300)));
      worker.tell(ReplWorker.StartEarly.INSTANCE);
      ProcessHandle early = pythonIn(sessionDir);
      early.onExit().orTimeout(20, TimeUnit.SECONDS).join();
      Run next = run(worker, 1, "import os\nprint(os.getpid())");
      assertNotEquals(early.pid() + "\n", next.stdout());
      assertEquals("", next.notice()); // it had no state to lose
    }

    @Test
    void anIdleInterpreterIsStoppedAndTheNextBlockIsToldItsStateWasReset() throws Exception {
      var worker = worker(config("python").withIdleTimeout(Duration.ofMillis(300)));
      long pid = Long.parseLong(run(worker, 1, "q = 1\nimport os\nos.getpid()").stdout().strip());
      ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(20, TimeUnit.SECONDS).join());

      Run next = run(worker, 2, "print('q' in globals())");
      assertEquals("False\n", next.stdout());
      assertTrue(next.notice().contains("idle"), next.notice());
      assertTrue(next.notice().contains("reset"), next.notice());
    }

    @Test
    void stopLeavesNoProcessBehind() throws Exception {
      var worker = worker(config("python"));
      Run started = run(worker, 1, String.join("\n",
          "import os, subprocess",
          "children = [subprocess.Popen(['sleep', '1000']),",
          "            subprocess.Popen(['sh', '-c', 'sleep 1000 & echo up; wait'], stdout=subprocess.PIPE)]",
          "children[1].stdout.readline()  # the grandchild exists once sh says so",
          "print(os.getpid())"));
      List<ProcessHandle> tree = treeOf(Long.parseLong(started.stdout().strip()));
      assertTrue(tree.size() >= 4, "expected python, two children and a grandchild: " + tree);

      TestProbe<ReplWorker.Reply> watcher = testKit.createTestProbe();
      worker.tell(ReplWorker.Stop.INSTANCE);
      watcher.expectTerminated(worker, WAIT);
      assertAllEnd(tree);
    }

    @Test
    void stopDuringABlockFinishesItAndKillsTheTree() throws Exception {
      var worker = worker(config("python"));
      TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
      worker.tell(new ReplWorker.Execute(1, String.join("\n",
          "import os, subprocess",
          "print(os.getpid(), flush=True)",
          "subprocess.run(['sleep', '1000'])"), LONG, probe.getRef()));
      List<ReplWorker.Output> outputs = awaitStdout(probe, "\n");
      List<ProcessHandle> tree = treeOf(Long.parseLong(outputs.get(0).text().strip()));
      worker.tell(ReplWorker.Stop.INSTANCE);
      Run run = collect(probe, 1, outputs);
      assertEquals(130, run.exitCode());
      assertTrue(run.result().interrupted());
      assertAllEnd(tree);
    }
  }

  /** Bash spawned by the JVM: no fork server runs (a python test before may have started the shared one). */
  @Nested
  class Bash {

    @BeforeEach
    void bashStarts() throws Exception {
      PythonForkServer server = PythonForkServer.shared();
      if (server != null) {
        server.stop(); // its children (other tests' pythons) run on
      }
    }

    @Test
    void bashIsSpawnedByTheJvmOrExecedByTheRunningForkServer() {
      long parent = Long.parseLong(run(worker(config("bash")), 1, "echo $PPID").stdout().strip());
      assertEquals(PythonForkServer.sharedIfRunning() == null ? ProcessHandle.current().pid()
          : PythonForkServer.runningPid().orElseThrow(), parent);
    }

    @Test
    void keepsCwdVariablesAndFunctionsAcrossBlocks() {
      var worker = worker(config("bash"));
      Run first = run(worker, 1, "x=5\ncd /tmp\nf() { echo \"fun $1\"; }\ndeclare -A m=([k]=v)\nexport E=env");
      assertEquals(0, first.exitCode());
      Run second = run(worker, 2, "echo \"$x $PWD ${m[k]}\"; f 3; sh -c 'echo $E'");
      assertEquals(0, second.exitCode());
      assertEquals("5 /tmp v\nfun 3\nenv\n", second.stdout());
    }

    @Test
    void exitCodesAndAnExitingShellThatIsReplaced() {
      var worker = worker(config("sh"));
      assertEquals(1, run(worker, 1, "x=kept\nfalse").exitCode());
      assertEquals(3, run(worker, 2, "(exit 3)").exitCode());
      Run exit = run(worker, 3, "echo bye\nexit 7\necho never");
      assertEquals(7, exit.exitCode());
      assertEquals("bye\n", exit.stdout());
      assertTrue(exit.notice().contains("The bash shell exited with code 7"), exit.notice());
      assertTrue(exit.notice().contains("was reset"), exit.notice());

      Run next = run(worker, 4, "echo \"ok [$x]\"");
      assertEquals(0, next.exitCode());
      assertEquals("ok []\n", next.stdout());
    }

    @Test
    void topLevelBreakAndReturnDoNotDisturbTheShell() {
      var worker = worker(config("bash"));
      Run brk = run(worker, 1, "break\necho after-break");
      assertTrue(brk.stdout().contains("after-break"));
      assertEquals(4, run(worker, 2, "echo before; return 4; echo never").exitCode());
      assertEquals("alive\n", run(worker, 3, "echo alive").stdout());
    }

    @Test
    void theDriverLeavesNothingInTheEnvironmentOfABlock() {
      var worker = worker(config("bash"));
      Run run = run(worker, 1, "echo \"[${__I4J_BASH_DRIVER-unset}]\"; env | grep -c __I4J_BASH_DRIVER; "
          + "type __i4j_done >/dev/null && echo driver");
      assertEquals("[unset]\n0\ndriver\n", run.stdout());
    }

    @Test
    void stdinIsAtEndOfFileForReadAndCat() {
      var worker = worker(config("bash"));
      Run run = run(worker, 1, "read x; echo \"read=$?\"\ncat; echo \"cat=$?\"\nhead -c 10; echo head=$?");
      assertEquals(0, run.exitCode());
      assertEquals("read=1\ncat=0\nhead=0\n", run.stdout());
    }

    @Test
    void keepsStreamsApartAndCapturesChildren() {
      var worker = worker(config("bash"));
      Run run = run(worker, 1, "echo out\necho err >&2\nsh -c 'echo child-err >&2'\npython3 -c 'print(\"py-child\")'");
      assertEquals("out\npy-child\n", run.stdout());
      assertEquals("err\nchild-err\n", run.stderr());
    }

    @Test
    void codeRunsVerbatimWhateverItHolds() {
      var worker = worker(config("bash"));
      String code = String.join("\n",
          "cat <<'EOF'",
          "a 'single' \"double\" \\back $HOME `tick`",
          "EOF",
          "echo '__I4J_END_0123'",
          "printf '%s\\n' last");
      Run run = run(worker, 1, code);
      assertEquals(0, run.exitCode(), run.stderr());
      assertEquals("a 'single' \"double\" \\back $HOME `tick`\n__I4J_END_0123\nlast\n", run.stdout());
    }

    @Test
    void codeBeyondAsciiAndNulBytesKeepTheShellInStep() {
      for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("LANG", "C.UTF-8", "LC_ALL", ""))) {
        var worker = worker(config("bash").withExtraEnv(env));
        Run wide = run(worker, 1, "s='h\u00e9llo \u2713 \uD83D\uDE00'\necho \"$s\"");
        assertEquals(0, wide.exitCode(), wide.stderr());
        assertEquals("h\u00e9llo \u2713 \uD83D\uDE00\n", wide.stdout(), "env " + env);
        Run nul = run(worker, 2, "echo a\0b");
        assertEquals("ab\n", nul.stdout(), "env " + env);
        Run after = run(worker, 3, "echo \"after $s\"");
        assertEquals(0, after.exitCode(), after.stderr());
        assertEquals("after h\u00e9llo \u2713 \uD83D\uDE00\n", after.stdout(), "env " + env);
      }
    }

    @Test
    void nounsetInABlockDoesNotTripTheDriver() {
      var worker = worker(config("bash"));
      assertEquals(0, run(worker, 1, "set -u; x=1").exitCode());
      Run next = run(worker, 2, "echo \"$x\"");
      assertEquals(0, next.exitCode(), next.stderr());
      assertEquals("1\n", next.stdout());
      assertEquals("", next.stderr());
    }

    @Test
    void whatABlockSetsForItselfDoesNotDisturbHowTheDriverReadsTheNext() {
      var worker = worker(config("bash"));
      // the driver takes each block's code with `read -N`: IFS, TMOUT, the locale and a function named read are the
      // blocks' own, and stay as they set them
      assertEquals(0, run(worker, 1, "IFS=:; TMOUT=1; export LC_ALL=C; read() { echo hijacked; }").exitCode());
      Run next = run(worker, 2, "s='h\u00e9 \u2713'; echo \"[$IFS] $TMOUT $LC_ALL ${#s}\"; type -t read");
      assertEquals(0, next.exitCode(), next.stderr());
      assertEquals("[:] 1 C 7\nfunction\n", next.stdout());
      assertEquals("  x\t\\\n", run(worker, 3, "printf '%s\\n' '  x\t\\'").stdout(), "spaces, tab and backslash kept");
    }

    @Test
    void theDriversPathForABashWithoutReadNKeepsTheShellInStep() {
      // bash before 4.1 (macOS's 3.2) has no `read -N`: the driver reads with -n there; the same path on this bash
      var worker = worker(config("bash").withExtraEnv(Map.of("I4J_BASH_NO_READ_N", "1")));
      Run first = run(worker, 1, "x=5; s='h\u00e9llo \u2713'\nprintf '[%s]\\n' '  a\t\\'\n");
      assertEquals(0, first.exitCode(), first.stderr());
      assertEquals("[  a\t\\]\n", first.stdout());
      assertEquals(0, run(worker, 2, "").exitCode());
      Run after = run(worker, 3, "echo \"$x $s\"\0");
      assertEquals(0, after.exitCode(), after.stderr());
      assertEquals("5 h\u00e9llo \u2713\n", after.stdout());
    }

    @Test
    void xtraceShowsTheBlocksCommandsNotTheDrivers() {
      var worker = worker(config("bash"));
      assertEquals(0, run(worker, 1, "set -x").exitCode());
      Run traced = run(worker, 2, "echo hi");
      assertEquals(0, traced.exitCode(), traced.stderr());
      assertEquals("hi\n", traced.stdout());
      assertTrue(traced.stderr().contains("echo hi"), traced.stderr());
      assertFalse(traced.stderr().contains("__i4j"), "the driver's calls are traced: " + traced.stderr());
    }

    @Test
    void aBlockThatTurnsTracingOnOrOffSeesOnlyItsOwnCommands() {
      var worker = worker(config("bash"));
      Run on = run(worker, 1, "x=1\nset -x\necho traced");
      assertEquals(0, on.exitCode(), on.stderr());
      assertEquals("traced\n", on.stdout());
      assertTrue(on.stderr().contains("echo traced"), on.stderr());
      assertFalse(on.stderr().contains("__i4j"), "the driver's calls are traced: " + on.stderr());
      Run off = run(worker, 2, "set +x\necho quiet");
      assertFalse(off.stderr().contains("__i4j"), off.stderr());
      Run after = run(worker, 3, "echo \"$x\"; return 3");
      assertEquals(3, after.exitCode());
      assertEquals("1\n", after.stdout());
      assertEquals("", after.stderr(), "no trace once the block turned it off");
    }

    @Test
    void theBlocksFileIsUnnamedOwnerOnlyAndNoBlockCanDeleteIt() throws Exception {
      Path tmp = Files.createDirectories(sessionDir.resolve("tmp"));
      var worker = worker(config("bash").withExtraEnv(Map.of("TMPDIR", tmp.toString())));
      // fd 59, which each block is sourced through, is a file bash made in TMPDIR and unlinked at once
      Run look = run(worker, 1, "y=2; ls -l /proc/$$/fd/59; stat -L -c %a /dev/fd/59; ls -A \"$TMPDIR\" | wc -l");
      assertEquals(0, look.exitCode(), look.stderr());
      String[] lines = look.stdout().split("\n");
      assertTrue(lines[0].endsWith("(deleted)") && lines[0].contains(tmp.toString()), look.stdout());
      assertTrue(lines[1].matches("[0-7]00"), "owner-only: " + lines[1]);
      assertEquals("0", lines[2].strip(), "nothing left in TMPDIR by name");
      // a block that empties TMPDIR (and puts files there) changes nothing for the next ones
      assertEquals(0, run(worker, 2, "rm -rf \"$TMPDIR\"/* \"$TMPDIR\"/.??*; echo 'echo hijacked' > \"$TMPDIR/x\"")
          .exitCode());
      Run next = run(worker, 3, "echo \"y=$y\"");
      assertEquals("y=2\n", next.stdout());
      assertEquals("", next.stderr());
    }

    @Test
    void aBlockThatClosesOrReplacesFd59IsToldAndTheShellGoesOn() {
      var worker = worker(config("bash"));
      assertEquals(0, run(worker, 1, "z=3; exec 59<&-").exitCode());
      Run lost = run(worker, 2, "echo not-run");
      assertEquals("", lost.stdout());
      assertTrue(lost.stderr().contains("file descriptor 59"), lost.stderr());
      Run again = run(worker, 3, "echo \"z=$z\"");
      assertEquals(0, again.exitCode(), again.stderr());
      assertEquals("z=3\n", again.stdout());
      assertEquals(0, run(worker, 4, "exec 59</dev/null").exitCode());
      Run replaced = run(worker, 5, "echo not-run");
      assertEquals("", replaced.stdout());
      assertTrue(replaced.stderr().contains("file descriptor 59"), replaced.stderr());
      assertEquals("z=3\n", run(worker, 6, "echo \"z=$z\"").stdout());
    }

    @Test
    void aliasesBehaveAsInAScriptUnlessABlockTurnsThemOn() {
      var worker = worker(config("bash"));
      // the driver's command line is an alias, but the blocks see expand_aliases as a script does: off
      Run off = run(worker, 1, "alias hi='echo alias-ran'\nshopt expand_aliases\nhi");
      assertEquals(127, off.exitCode(), off.stderr());
      assertEquals("expand_aliases \toff\n", off.stdout());
      assertEquals(127, run(worker, 2, "hi").exitCode());
      assertEquals(0, run(worker, 3, "shopt -s expand_aliases").exitCode());
      Run on = run(worker, 4, "hi; shopt expand_aliases");
      assertEquals("alias-ran\nexpand_aliases \ton\n", on.stdout());
      // a block that drops every alias, the driver's too, and turns them off again
      assertEquals(0, run(worker, 5, "unalias -a; shopt -u expand_aliases").exitCode());
      Run after = run(worker, 6, "echo still; shopt expand_aliases; alias hi 2>/dev/null || echo no-hi");
      assertEquals(0, after.exitCode(), after.stderr());
      assertEquals("still\nexpand_aliases \toff\nno-hi\n", after.stdout());
    }

    @Test
    void theHereStringPathKeepsTheShellsBehaviour() {
      // where fd 59 cannot be had (no writable TMPDIR, /dev/fd sharing the offset), blocks come through a
      // here-string; I4J_BASH_NO_FD59=1 runs that path here
      var worker = worker(config("bash").withExtraEnv(Map.of("I4J_BASH_NO_FD59", "1")));
      Run first = run(worker, 1, "declare -A m=([k]=v); f() { echo f; }\nbreak\necho after-break");
      assertTrue(first.stdout().contains("after-break"), first.stdout());
      Run ls = run(worker, 2, "ls /proc/$$/fd");
      assertFalse(ls.stdout().lines().anyMatch("59"::equals), ls.stdout());
      assertEquals(4, run(worker, 3, "echo before; return 4; echo never").exitCode());
      assertEquals("v f\n", run(worker, 4, "echo \"${m[k]}\" $(f)").stdout());
    }

    @Test
    void outputWithoutTrailingNewline() {
      var worker = worker(config("bash"));
      Run run = run(worker, 1, "printf abc; printf def >&2");
      assertEquals("abc", run.stdout());
      assertEquals("def", run.stderr());
      assertEquals("printf", run(worker, 2, "printf printf").result().modelOutput());
    }

    @Test
    void sleepAndBusyLoopTimeOutAndTheShellSurvives() {
      var worker = worker(config("bash"));
      run(worker, 1, "s=survived; cd /tmp");
      Run sleep = run(worker, 2, "echo sleeping; sleep 1000; echo not-reached", SHORT);
      assertEquals(124, sleep.exitCode());
      assertTrue(sleep.result().timedOut());
      assertEquals("sleeping\n", sleep.stdout());
      assertTrue(sleep.notice().contains("kept its state"), sleep.notice());

      Run loop = run(worker, 3, "while true; do :; done", SHORT);
      assertEquals(124, loop.exitCode());

      Run pipe = run(worker, 4, "sleep 1000 | cat", SHORT);
      assertEquals(124, pipe.exitCode());

      Run after = run(worker, 5, "echo \"$s $PWD\"");
      assertEquals("survived /tmp\n", after.stdout());
      assertNull(after.result().notice());
    }

    @Test
    void interruptGives130() {
      var worker = worker(config("bash"));
      Run run = interruptedOnceReady(worker, 1, "echo ready; sleep 1000");
      assertEquals(130, run.exitCode());
      assertTrue(run.result().interrupted());
      assertEquals("still\n", run(worker, 2, "echo still").stdout());
    }

    @Test
    void aKilledShellIsReportedAndReplaced() {
      var worker = worker(config("bash"));
      long pid = Long.parseLong(run(worker, 1, "echo $$").stdout().strip());
      TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
      worker.tell(new ReplWorker.Execute(2, "echo ready; sleep 1000", LONG, probe.getRef()));
      List<ReplWorker.Output> outputs = awaitStdout(probe, "ready");
      ProcessHandle.of(pid).orElseThrow().destroyForcibly();
      Run run = collect(probe, 2, outputs);
      assertEquals(137, run.exitCode());
      assertTrue(run.notice().contains("The bash shell was killed by signal 9 (SIGKILL)"), run.notice());
      assertEquals(0, run(worker, 3, "true").exitCode());
    }

    @Test
    void stopKillsBackgroundJobsToo() throws Exception {
      var worker = worker(config("bash"));
      Run started = run(worker, 1, "sleep 1000 &\n(sleep 1000 &)\nnohup sleep 1000 >/dev/null 2>&1 &\necho $$");
      long pid = Long.parseLong(started.stdout().strip());
      List<ProcessHandle> tree = new ArrayList<>(treeOf(pid));
      // the subshell's sleep is orphaned at once, so it is no descendant; find it by process group instead
      ProcessHandle.allProcesses()
          .filter(p -> !tree.contains(p) && isInGroup(p.pid(), pid))
          .forEach(tree::add);
      assertTrue(tree.size() >= 4, "expected bash and three sleeps: " + tree);
      worker.tell(ReplWorker.Stop.INSTANCE);
      TestProbe<ReplWorker.Reply> watcher = testKit.createTestProbe();
      watcher.expectTerminated(worker, WAIT);
      assertAllEnd(tree);
    }

    boolean isInGroup(long pid, long pgid) {
      try {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[2]) == pgid;
      } catch (Exception e) {
        return false;
      }
    }
  }

  /** Every bash test again, with bash started by the python fork server that a python interpreter started. */
  @Nested
  class BashFromTheForkServer extends Bash {

    @BeforeEach
    void forkServerRuns() throws Exception {
      io.interpreter4j.core.testing.RequiredTool.assume(PythonForkServer.enabled(),
          "Linux (the python fork server runs only there)", "run on Linux");
      PythonForkServer.shared().start(); // after Bash's stop: superclass methods run first
    }
  }

  @Test
  void unknownLanguagesAreRejected() {
    try {
      ReplWorker.create(config("cobol"));
      fail("expected an exception");
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
    }
  }
}
