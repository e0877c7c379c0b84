package io.interpreter4j.runtime.repl;

import static io.interpreter4j.runtime.repl.ReplWorkerTest.WAIT;
import static io.interpreter4j.runtime.repl.ReplWorkerTest.collect;
import static io.interpreter4j.runtime.repl.ReplWorkerTest.treeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.runtime.repl.ReplWorkerTest.Run;
import io.interpreter4j.runtime.sandbox.RequiredBwrap;
import io.interpreter4j.runtime.sandbox.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same cases against every language whose interpreter is installed here: state across blocks, an exit code for
 * every block, stdout and stderr apart, stdin at end-of-file, timeout (124) and interrupt (130) of sleeping and busy
 * code, an interpreter killed mid-block reported and replaced, no process left after Stop, output cut head and
 * tail. A language that is not installed is skipped with the reason, or fails the test under
 * {@code I4J_REQUIRE_ALL=true} ({@link InstalledLanguages}).
 */
class LanguageConformanceTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  /** Short, as the brief asks: the suite must stay quick for all languages together. */
  static final Duration TIMEOUT = Duration.ofSeconds(2);
  /** Only spent when SIGINT does not stop the code; long enough that a loaded machine does not turn 124 into a kill. */
  static final Duration GRACE = Duration.ofSeconds(3);
  static final Duration GENEROUS = Duration.ofSeconds(60);

  /** A per-block language added through configuration, as docs/languages.md shows with lua. */
  static final Config PERL = ConfigFactory.parseString("""
      interpreter4j.languages.perl {
        command = ["perl", "{file}"]
        aliases = ["pl"]
        extension = ".pl"
        version-command = ["perl", "-e", "print $^V"]
      }
      """).withFallback(ConfigFactory.load());

  /** One session folder for all: workers outlive single tests. */
  @TempDir
  static Path sessionDir;

  /**
   * One worker per language, shared by the cases that leave it usable (a killed interpreter is replaced by the
   * worker itself): starting an interpreter, a JVM above all, is the slow part of this suite.
   */
  static final Map<String, ActorRef<ReplWorker.Command>> WORKERS = new ConcurrentHashMap<>();
  static final AtomicInteger BLOCKS = new AtomicInteger();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /**
   * One language's code for each case. A null snippet means the case does not apply (stated in {@code why}): the
   * case's source leaves the language out.
   *
   * @param setState   sets x to 41
   * @param readState  prints x + 1
   * @param outAndErr  prints "out" on stdout and "err" on stderr
   * @param failing    fails with "boom" in its error output
   * @param failStatus the exit code of {@code failing}
   * @param exitThree  ends the block with exit code 3 without ending the interpreter
   * @param readStdin  reads standard input and prints "eof" when it is empty
   * @param pid        prints the pid of the process the worker started (the REPL or the per-block runner)
   * @param sleep      prints "ready" (either stream), then sleeps for good
   * @param busy       prints "ready", then loops without a pause
   * @param child      starts "sleep 1000" in the background, then prints what {@code pid} prints
   * @param big        prints "HEAD", 100 000 x, "TAIL"
   */
  record Lang(String name, String setState, String readState, String outAndErr, String failing, int failStatus,
              String exitThree, String readStdin, String pid, String sleep, String busy, String child, String big,
              String why) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Lang> languages() {
    return Stream.of(
        new Lang("python", "x = 41", "print(x + 1)",
            "import sys\nprint('out')\nprint('err', file=sys.stderr)",
            "raise ValueError('boom')", 1, "import sys\nsys.exit(3)",
            "import sys\nprint('eof' if sys.stdin.read() == '' else 'data')",
            "import os\nprint(os.getpid())",
            "import time\nprint('ready', flush=True)\ntime.sleep(1000)",
            "print('ready', flush=True)\nwhile True: pass",
            "import os, subprocess\nsubprocess.Popen(['sleep', '1000'])\nprint(os.getpid())",
            "print('HEAD' + 'x' * 100000 + 'TAIL')", ""),
        new Lang("bash", "x=41", "echo $((x + 1))", "echo out; echo err >&2",
            "echo boom >&2; false", 1, "(exit 3)",
            "if read -r line; then echo data; else echo eof; fi", "echo $$",
            "echo ready; sleep 1000", "echo ready; while :; do :; done",
            "sleep 1000 &\necho $$", "printf HEAD; head -c 100000 /dev/zero | tr '\\0' x; echo TAIL", ""),
        new Lang("javascript", "const x = 41", "console.log(x + 1)", "console.log('out'); console.error('err')",
            "throw new Error('boom')", 1, "process.exit(3)",
            "const data = require('fs').readFileSync(0, 'utf8')\nconsole.log(data === '' ? 'eof' : 'data')",
            "console.log(process.pid)",
            "console.log('ready')\nawait new Promise((resolve) => setTimeout(resolve, 1e6))",
            "console.log('ready')\nwhile (true) {}",
            "require('child_process').spawn('sleep', ['1000'], { stdio: 'ignore' }).unref()\n"
                + "console.log(process.pid)",
            "console.log('HEAD' + 'x'.repeat(100000) + 'TAIL')", ""),
        new Lang("ruby", "x = 41", "puts x + 1", "puts 'out'\n$stderr.puts 'err'",
            "raise 'boom'", 1, "exit 3",
            "data = STDIN.read\nputs(data.empty? ? 'eof' : 'data')", "puts Process.pid",
            "puts 'ready'\nsleep 1000", "puts 'ready'\nloop {}",
            "spawn('sleep', '1000')\nputs Process.pid", "puts 'HEAD' + 'x' * 100000 + 'TAIL'", ""),
        new Lang("r", "x <- 41", "cat(x + 1, \"\\n\", sep = \"\")", "cat(\"out\\n\")\ncat(\"err\\n\", file = stderr())",
            "stop(\"boom\")", 1, null,
            "data <- readLines(file(\"stdin\"))\n"
                + "cat(if (length(data) == 0) \"eof\" else \"data\", \"\\n\", sep = \"\")",
            "cat(Sys.getpid(), \"\\n\", sep = \"\")",
            "cat(\"ready\\n\")\nSys.sleep(1000)", "cat(\"ready\\n\")\nwhile (TRUE) {}",
            "system(\"sleep 1000\", wait = FALSE)\ncat(Sys.getpid(), \"\\n\", sep = \"\")",
            "cat(\"HEAD\", strrep(\"x\", 100000), \"TAIL\\n\", sep = \"\")",
            "quit() ends R itself: no exit code without ending the process"),
        new Lang("java", "int x = 41;", "System.out.println(x + 1);",
            "System.out.println(\"out\");\nSystem.err.println(\"err\");",
            "throw new IllegalStateException(\"boom\");", 1, null,
            "System.out.println(System.in.read() == -1 ? \"eof\" : \"data\");",
            "System.out.println(ProcessHandle.current().pid());",
            "System.out.println(\"ready\");\nThread.sleep(1_000_000);",
            "System.out.println(\"ready\");\nwhile (true) {}",
            "new ProcessBuilder(\"sleep\", \"1000\").start();\nSystem.out.println(ProcessHandle.current().pid());",
            "System.out.println(\"HEAD\" + \"x\".repeat(100000) + \"TAIL\");",
            "System.exit ends the JVM itself: no exit code without ending the process"),
        new Lang("powershell", "$x = 41", "Write-Output ($x + 1)",
            "Write-Output 'out'\n[Console]::Error.WriteLine('err')",
            "throw 'boom'", 1, "sh -c 'exit 3'",
            "$d = [Console]::In.ReadToEnd()\nif ($d -eq '') { 'eof' } else { 'data' }", "$PID",
            "Write-Output 'ready'\nStart-Sleep -Seconds 1000", "Write-Output 'ready'\nwhile ($true) {}",
            "$null = [System.Diagnostics.Process]::Start('sleep', '1000')\n$PID",
            "'HEAD' + ('x' * 100000) + 'TAIL'", ""),
        new Lang("applescript", null, null, "log \"err\"\nreturn \"out\"",
            "error \"boom\"", 1, null, null,
            "do shell script \"ps -o ppid= -p $PPID | tr -d ' '\"",
            "log \"ready\"\ndelay 1000", "log \"ready\"\nrepeat\nend repeat",
            "do shell script \"sleep 1000 > /dev/null 2>&1 &\"\n"
                + "do shell script \"ps -o ppid= -p $PPID | tr -d ' '\"", null,
            "AppleScript runs each block as a new osascript: no state, no exit code of its choosing"),
        new Lang("perl", null, null, "print \"out\\n\";\nprint STDERR \"err\\n\";",
            "die \"boom\\n\";", 255, "exit 3;",
            "my $d = join('', <STDIN>);\nprint($d eq '' ? \"eof\\n\" : \"data\\n\");",
            "print getppid(), \"\\n\";", "$| = 1;\nprint \"ready\\n\";\nsleep 1000;",
            "$| = 1;\nprint \"ready\\n\";\n1 while 1;",
            "if (fork() == 0) { exec('sleep', '1000') }\nprint getppid(), \"\\n\";",
            "print 'HEAD' . ('x' x 100000) . \"TAIL\\n\";",
            "a configured language runs each block as a new process: no state"));
  }

  /** The languages that keep state between blocks (a case that does not apply is left out, not skipped). */
  static Stream<Lang> keepingState() {
    return languages().filter(l -> l.setState() != null);
  }

  static Stream<Lang> readingStdin() {
    return languages().filter(l -> l.readStdin() != null);
  }

  static Stream<Lang> printingBig() {
    return languages().filter(l -> l.big() != null);
  }

  // ---- the cases

  @ParameterizedTest(name = "{0}")
  @MethodSource("keepingState")
  void keepsStateAcrossBlocks(Lang lang) {
    var worker = worker(lang);
    Run set = run(worker, lang.setState(), GENEROUS);
    assertEquals(0, set.exitCode(), set.toString());
    Run read = run(worker, lang.readState(), GENEROUS);
    assertEquals(0, read.exitCode(), read.toString());
    assertEquals("42", read.stdout().strip());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("languages")
  void everyBlockHasAnExitCode(Lang lang) {
    var worker = worker(lang);
    Run failing = run(worker, lang.failing(), GENEROUS);
    assertEquals(lang.failStatus(), failing.exitCode(), failing.toString());
    assertTrue(failing.stderr().contains("boom"), failing.stderr());
    assertFalse(failing.result().timedOut());
    Run ok = run(worker, lang.outAndErr(), GENEROUS);
    assertEquals(0, ok.exitCode(), ok.toString());
    if (lang.exitThree() != null) {
      Run three = run(worker, lang.exitThree(), GENEROUS);
      assertEquals(3, three.exitCode(), three.toString());
      Run after = run(worker, lang.outAndErr(), GENEROUS);
      assertEquals(0, after.exitCode(), after.toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("languages")
  void stdoutAndStderrStayApart(Lang lang) {
    Run run = run(worker(lang), lang.outAndErr(), GENEROUS);
    assertEquals(0, run.exitCode(), run.toString());
    assertEquals("out\n", run.stdout());
    assertEquals("err\n", run.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("readingStdin")
  void stdinIsAtEndOfFile(Lang lang) {
    var worker = worker(lang);
    // a generous timeout: a read that blocked instead of seeing end-of-file would show as 124
    Run run = run(worker, lang.readStdin(), GENEROUS);
    assertEquals(0, run.exitCode(), run.toString());
    assertEquals("eof", run.stdout().strip());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("languages")
  void sleepingAndBusyCodeTimeOutWith124(Lang lang) {
    var worker = worker(lang);
    // the interpreter is up before the clock starts, so the timeout meets running code, not a starting process
    String warmUp = lang.setState() != null ? lang.setState() : lang.outAndErr();
    assertEquals(0, run(worker, warmUp, GENEROUS).exitCode());
    Run sleep = run(worker, lang.sleep(), TIMEOUT);
    assertEquals(124, sleep.exitCode(), sleep.toString());
    assertTrue(sleep.result().timedOut());
    Run busy = run(worker, lang.busy(), TIMEOUT);
    assertEquals(124, busy.exitCode(), busy.toString());
    assertTrue(busy.result().timedOut());
    if (lang.setState() != null) {
      assertTrue(busy.notice().contains("kept its state"), busy.notice());
      Run read = run(worker, lang.readState(), GENEROUS);
      assertEquals("42", read.stdout().strip(), read.toString());
    }
    Run after = run(worker, lang.outAndErr(), GENEROUS);
    assertEquals(0, after.exitCode(), after.toString());
    assertEquals("out\n", after.stdout());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("languages")
  void interruptGives130(Lang lang) {
    var worker = worker(lang);
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    int block = nextBlock();
    worker.tell(new ReplWorker.Execute(block, lang.sleep(), GENEROUS, probe.getRef()));
    List<ReplWorker.Output> outputs = awaitOutput(probe, "ready");
    worker.tell(ReplWorker.Interrupt.INSTANCE);
    Run run = collect(probe, block, outputs);
    assertEquals(130, run.exitCode(), run.toString());
    assertTrue(run.result().interrupted());
    assertEquals(0, run(worker, lang.outAndErr(), GENEROUS).exitCode());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("languages")
  void aKilledInterpreterIsReportedAndReplaced(Lang lang) {
    var worker = worker(lang);
    long pid = Long.parseLong(run(worker, lang.pid(), GENEROUS).stdout().strip());
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    int block = nextBlock();
    worker.tell(new ReplWorker.Execute(block, lang.sleep(), GENEROUS, probe.getRef()));
    List<ReplWorker.Output> outputs = awaitOutput(probe, "ready");
    ProcessHandle.of(pid).orElseThrow().destroyForcibly();
    Run killed = collect(probe, block, outputs);
    assertEquals(137, killed.exitCode(), killed.toString());
    assertTrue(killed.notice().contains("signal 9 (SIGKILL)"), killed.notice());
    Run next = run(worker, lang.pid(), GENEROUS);
    assertEquals(0, next.exitCode(), next.toString());
    assertNotEquals(pid, Long.parseLong(next.stdout().strip()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("languages")
  void stopLeavesNothingRunning(Lang lang) {
    var worker = ownWorker(lang);
    Run started = run(worker, lang.child(), GENEROUS);
    assertEquals(0, started.exitCode(), started.toString());
    long pid = Long.parseLong(started.stdout().strip());
    List<ProcessHandle> tree = new ArrayList<>(treeOf(pid));
    // a child whose parent already ended is no descendant any more: find it by its process group
    ProcessHandle.allProcesses().filter(p -> !tree.contains(p) && inGroup(p.pid(), pid)).forEach(tree::add);
    assertTrue(tree.size() >= 2, "expected the interpreter and a sleep: " + tree);
    worker.tell(ReplWorker.Stop.INSTANCE);
    testKit.createTestProbe().expectTerminated(worker, WAIT);
    awaitAllEnd(tree);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("printingBig")
  void longOutputIsCutHeadAndTail(Lang lang) throws Exception {
    var worker = worker(lang);
    Run run = run(worker, lang.big(), GENEROUS);
    assertEquals(0, run.exitCode(), run.toString());
    ExecResult result = run.result();
    assertTrue(result.truncated());
    assertTrue(result.modelOutput().startsWith("HEADxxx"), result.modelOutput());
    assertTrue(result.modelOutput().strip().endsWith("xxxTAIL"), result.modelOutput());
    assertTrue(Files.size(result.outputFile()) > 100_000);
  }

  /** The same driver inside the bubblewrap sandbox (where the machine has it): state, streams, an interrupt. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("languages")
  void runsInsideTheBubblewrapSandbox(Lang lang) throws Exception {
    assumeInstalled(lang);
    Sandbox bwrap = RequiredBwrap.sandbox(false);
    Path dir = Files.createDirectories(sessionDir.resolve("bwrap-" + lang.name()));
    ReplConfig config = ReplConfig.defaults(lang.name(), dir, dir).withInterruptGrace(GRACE).withSandbox(bwrap);
    var worker = testKit.spawn(LanguageRegistry.of(PERL).worker(config));
    try {
      if (lang.setState() != null) {
        assertEquals(0, run(worker, lang.setState(), GENEROUS).exitCode());
      }
      Run streams = run(worker, lang.outAndErr(), GENEROUS);
      assertEquals("out\n", streams.stdout(), streams.toString());
      assertEquals("err\n", streams.stderr());
      TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
      int block = nextBlock();
      worker.tell(new ReplWorker.Execute(block, lang.busy(), GENEROUS, probe.getRef()));
      List<ReplWorker.Output> outputs = awaitOutput(probe, "ready");
      worker.tell(ReplWorker.Interrupt.INSTANCE);
      Run busy = collect(probe, block, outputs);
      assertEquals(130, busy.exitCode(), busy.toString());
      if (lang.setState() != null) {
        assertEquals("42", run(worker, lang.readState(), GENEROUS).stdout().strip());
      }
    } finally {
      worker.tell(ReplWorker.Stop.INSTANCE);
    }
  }

  // ---- helpers

  /** The language's shared worker; skips the test when the language is not installed here. */
  static ActorRef<ReplWorker.Command> worker(Lang lang) {
    assumeInstalled(lang);
    return WORKERS.computeIfAbsent(lang.name(), name -> spawn(lang));
  }

  /** A worker of the test's own, for a case that ends it. */
  static ActorRef<ReplWorker.Command> ownWorker(Lang lang) {
    assumeInstalled(lang);
    return spawn(lang);
  }

  static void assumeInstalled(Lang lang) {
    InstalledLanguages.assume(LanguageRegistry.of(PERL), lang.name());
  }

  static ActorRef<ReplWorker.Command> spawn(Lang lang) {
    ReplConfig config = ReplConfig.defaults(lang.name(), sessionDir, sessionDir).withInterruptGrace(GRACE);
    return testKit.spawn(LanguageRegistry.of(PERL).worker(config));
  }

  static int nextBlock() {
    return BLOCKS.incrementAndGet();
  }

  static Run run(ActorRef<ReplWorker.Command> worker, String code, Duration timeout) {
    int block = nextBlock();
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(block, code, timeout, probe.getRef()));
    return collect(probe, block, new ArrayList<>());
  }

  /** Output replies until {@code text} shows on either stream (AppleScript's log writes to stderr). */
  static List<ReplWorker.Output> awaitOutput(TestProbe<ReplWorker.Reply> probe, String text) {
    List<ReplWorker.Output> outputs = new ArrayList<>();
    StringBuilder seen = new StringBuilder();
    while (!seen.toString().contains(text)) {
      ReplWorker.Reply reply = probe.receiveMessage(GENEROUS);
      if (!(reply instanceof ReplWorker.Output output)) {
        fail("block ended before printing " + text + ": " + reply);
        return outputs;
      }
      outputs.add(output);
      seen.append(output.text());
    }
    return outputs;
  }

  /**
   * Polls until every process has ended. A zombie has ended too: it runs nothing and only waits for whoever
   * adopted it (pid 1 here) to reap it, which ProcessHandle would wait for.
   */
  static void awaitAllEnd(List<ProcessHandle> processes) {
    testKit.createTestProbe().awaitAssert(WAIT, Duration.ofMillis(50), () -> {
      for (ProcessHandle p : processes) {
        assertFalse(p.isAlive() && !zombie(p.pid()), "still running: " + p.pid() + " "
            + p.info().commandLine().orElse(""));
      }
      return null;
    });
  }

  static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (Exception e) {
      return false; // gone, or no /proc (macOS): isAlive alone decides
    }
  }

  static boolean inGroup(long pid, long pgid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[2]) == pgid;
    } catch (Exception e) {
      return false;
    }
  }
}
