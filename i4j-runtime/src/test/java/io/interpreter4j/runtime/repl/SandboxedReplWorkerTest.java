package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.interpreter4j.runtime.sandbox.RequiredBwrap;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import io.interpreter4j.runtime.sandbox.SandboxSettings.Kind;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The python and bash workers inside a real bubblewrap sandbox; bwrap is a {@link RequiredBwrap}. */
class SandboxedReplWorkerTest {

  /** Made again for a subclass, which runs the same tests after this class shut its kit down. */
  static ActorTestKit testKit = ActorTestKit.create();
  static final Duration WAIT = Duration.ofSeconds(30);
  static final Duration LONG = Duration.ofSeconds(60);
  static final Duration ONE_SECOND = Duration.ofSeconds(1);

  @TempDir
  Path workdir;

  @TempDir
  Path sessionDir;

  /**
   * This class spawns its sandboxes from the JVM ({@code setsid}, the shell that ignores SIGINT, bwrap): no python
   * fork server runs (one started by an earlier test would start them). {@link SandboxedThroughForkServerTest} runs
   * the same tests with the server running (the name hides this method there).
   */
  @BeforeAll
  static void startKit() {
    if (testKit.system().getWhenTerminated().toCompletableFuture().isDone()) {
      testKit = ActorTestKit.create();
    }
  }

  @BeforeAll
  static void serverState() throws java.io.IOException {
    PythonForkServer server = PythonForkServer.sharedIfRunning();
    if (server != null) {
      server.stop();
    }
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  record Run(List<ReplWorker.Output> outputs, ExecResult result) {
    String stdout() {
      return outputs.stream().filter(o -> o.stream() == io.interpreter4j.core.event.StreamName.STDOUT).map(ReplWorker.Output::text)
          .collect(Collectors.joining());
    }

    String all() {
      return outputs.stream().map(ReplWorker.Output::text).collect(Collectors.joining());
    }

    String notice() {
      return result.notice() == null ? "" : result.notice();
    }
  }

  static Sandbox bwrap(boolean network) {
    return RequiredBwrap.sandbox(network);
  }

  ActorRef<ReplWorker.Command> worker(String language, Sandbox sandbox) {
    return testKit.spawn(ReplWorker.create(ReplConfig.defaults(language, sessionDir, workdir).withSandbox(sandbox)
        .withInterruptGrace(Duration.ofSeconds(2))));
  }

  static Run run(ActorRef<ReplWorker.Command> worker, int block, String code, Duration timeout) {
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(block, code, timeout, probe.getRef()));
    return collect(probe, block, new ArrayList<>());
  }

  static Run run(ActorRef<ReplWorker.Command> worker, int block, String code) {
    return run(worker, block, code, LONG);
  }

  static Run collect(TestProbe<ReplWorker.Reply> probe, int block, List<ReplWorker.Output> outputs) {
    while (true) {
      ReplWorker.Reply reply = probe.receiveMessage(WAIT);
      if (reply instanceof ReplWorker.Output output) {
        outputs.add(output);
      } else if (reply instanceof ReplWorker.Finished finished) {
        assertEquals(block, finished.block());
        return new Run(outputs, finished.result());
      } else {
        fail("unexpected reply " + reply);
      }
    }
  }

  /** The sandboxes (bwrap processes) this test's workers started, with everything below them. */
  List<ProcessHandle> sandboxedProcesses() {
    List<ProcessHandle> all = new ArrayList<>();
    ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().map(c -> c.contains("bwrap") && c.contains(workdir.toString()))
            .orElse(false))
        .forEach(p -> {
          all.add(p);
          p.descendants().forEach(all::add);
        });
    return all;
  }

  static void assertAllEnd(List<ProcessHandle> processes) throws Exception {
    CompletableFuture.allOf(processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
        .get(20, TimeUnit.SECONDS);
    for (ProcessHandle p : processes) {
      assertFalse(p.isAlive(), "still alive: " + p.pid() + " " + p.info().commandLine().orElse(""));
    }
  }

  @Test
  void aWriteOutsideTheWorkdirFails() {
    ActorRef<ReplWorker.Command> bash = worker("bash", bwrap(false));
    Path probe = Path.of("/etc/i4j-sandbox-probe-" + ProcessHandle.current().pid());
    Run etc = run(bash, 1, "touch " + probe);
    assertNotEquals(0, etc.result().exitCode(), etc.all());
    assertTrue(etc.all().contains("Read-only file system"), etc.all());
    assertFalse(Files.exists(probe));

    ActorRef<ReplWorker.Command> python = worker("python", bwrap(false));
    Run home = run(python, 2, "import pathlib\npathlib.Path.home().joinpath('i4j-sandbox-probe').write_text('x')");
    assertEquals(1, home.result().exitCode(), home.all());
    assertTrue(home.all().contains("Read-only file system"), home.all());
    assertFalse(Files.exists(Path.of(System.getProperty("user.home"), "i4j-sandbox-probe")));
    bash.tell(ReplWorker.Stop.INSTANCE);
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void theNetworkIsUnreachable() throws Exception {
    ActorRef<ReplWorker.Command> python = worker("python", bwrap(false));
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
      Run connect = run(python, 1, "import socket\nsocket.create_connection(('127.0.0.1', " + server.getLocalPort()
          + "), timeout=5)\nprint('connected')");
      assertEquals(1, connect.result().exitCode(), connect.all());
      assertTrue(connect.all().contains("ConnectionRefusedError"), connect.all());
    }
    Run resolve = run(python, 2, "import socket\nsocket.getaddrinfo('pypi.org', 443)");
    assertEquals(1, resolve.result().exitCode(), resolve.all());
    assertTrue(resolve.all().contains("socket.gaierror"), resolve.all());
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void filesWrittenInTheWorkdirPersistAcrossBlocksAndReachTheHost() throws Exception {
    ActorRef<ReplWorker.Command> python = worker("python", bwrap(false));
    ActorRef<ReplWorker.Command> bash = worker("bash", bwrap(false));
    Run write = run(python, 1, "kept = 41\nopen('data.txt', 'w').write('from python\\n')");
    assertEquals(0, write.result().exitCode(), write.all());
    Run append = run(bash, 2, "echo from bash >> data.txt && mkdir -p sub && cd sub && export MARK=7");
    assertEquals(0, append.result().exitCode(), append.all());
    Run state = run(bash, 3, "pwd; echo $MARK; cat ../data.txt");
    assertEquals(workdir.resolve("sub") + "\n7\nfrom python\nfrom bash\n", state.stdout());
    assertEquals("42\n", run(python, 4, "print(kept + 1)").stdout());
    assertEquals("from python\nfrom bash\n", Files.readString(workdir.resolve("data.txt")));
    python.tell(ReplWorker.Stop.INSTANCE);
    bash.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void aBashBlockTimesOutWith124AndTheShellKeepsItsState() {
    ActorRef<ReplWorker.Command> bash = worker("bash", bwrap(false));
    assertEquals(0, run(bash, 1, "X=kept").result().exitCode());
    Run slow = run(bash, 2, "sleep 1000", ONE_SECOND);
    assertEquals(124, slow.result().exitCode(), slow.all() + slow.notice());
    assertTrue(slow.result().timedOut());
    assertTrue(slow.notice().contains("stopped with SIGINT; the bash shell kept its state"), slow.notice());
    assertEquals("kept\n", run(bash, 3, "echo $X").stdout());

    // code that ignores SIGINT is killed after the grace period: the sandbox goes, a new one serves the next block
    Run stubborn = run(bash, 4, "trap '' INT; sleep 1000", ONE_SECOND);
    assertEquals(124, stubborn.result().exitCode());
    assertTrue(stubborn.notice().contains("was killed"), stubborn.notice());
    assertEquals("fresh\n", run(bash, 5, "echo ${X:-fresh}").stdout());
    bash.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void aPythonBlockTimesOutOrIsInterruptedAndPythonKeepsItsState() {
    ActorRef<ReplWorker.Command> python = worker("python", bwrap(false));
    assertEquals(0, run(python, 1, "state = 'kept'").result().exitCode());
    Run slow = run(python, 2, "import subprocess, time\nsubprocess.run(['sleep', '1000'])\ntime.sleep(1000)",
        ONE_SECOND);
    assertEquals(124, slow.result().exitCode(), slow.all() + slow.notice());
    assertTrue(slow.all().contains("KeyboardInterrupt"), slow.all());
    assertTrue(slow.notice().contains("the python process kept its state"), slow.notice());

    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    python.tell(new ReplWorker.Execute(3, "import time\nprint('waiting', flush=True)\ntime.sleep(1000)", LONG,
        probe.getRef()));
    List<ReplWorker.Output> outputs = new ArrayList<>();
    while (outputs.stream().noneMatch(o -> o.text().contains("waiting"))) {
      outputs.add(probe.expectMessageClass(ReplWorker.Output.class, WAIT));
    }
    python.tell(ReplWorker.Interrupt.INSTANCE);
    Run interrupted = collect(probe, 3, outputs);
    assertEquals(130, interrupted.result().exitCode(), interrupted.all());
    assertTrue(interrupted.result().interrupted());
    assertEquals("kept\n", run(python, 4, "print(state)").stdout());
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void stopLeavesNoProcessBehindEvenOnesThatLeftTheGroup() throws Exception {
    ActorRef<ReplWorker.Command> bash = worker("bash", bwrap(false));
    Run started = run(bash, 1, "sleep 777 & setsid sleep 778 & echo started");
    assertEquals("started\n", started.stdout());
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    bash.tell(new ReplWorker.Execute(2, "echo running; sleep 1000", LONG, probe.getRef()));
    probe.expectMessageClass(ReplWorker.Output.class, WAIT);
    // "running" is printed before sleep 1000 starts: look until it shows (bounded), not just once
    List<ProcessHandle> processes = sandboxedProcesses();
    List<String> commands = processes.stream().map(p -> p.info().commandLine().orElse("")).toList();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (commands.stream().noneMatch(c -> c.endsWith("sleep 1000")) && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
      processes = sandboxedProcesses();
      commands = processes.stream().map(p -> p.info().commandLine().orElse("")).toList();
    }
    assertTrue(commands.stream().anyMatch(c -> c.endsWith("sleep 778")), commands.toString());
    assertTrue(commands.stream().anyMatch(c -> c.endsWith("sleep 1000")), commands.toString());
    bash.tell(ReplWorker.Stop.INSTANCE);
    ReplWorker.Finished cancelled = probe.expectMessageClass(ReplWorker.Finished.class, WAIT);
    assertEquals(130, cancelled.result().exitCode());
    assertAllEnd(processes);
    assertTrue(sandboxedProcesses().isEmpty());
  }

  @Test
  @DisabledOnOs(value = OS.MAC, disabledReason = "seatbelt is available on a Mac")
  void anUnavailableSandboxFailsTheFirstBlockWithTheReasonAndRunsNothing() {
    Sandbox seatbelt = Sandbox.of(SandboxSettings.NONE.withKind(Kind.SEATBELT));
    ActorRef<ReplWorker.Command> bash = worker("bash", seatbelt);
    Run first = run(bash, 1, "touch ran.txt");
    assertEquals(127, first.result().exitCode());
    assertTrue(first.notice().startsWith("The bash shell could not be started (the seatbelt sandbox (sandbox-exec) "
        + "needs macOS"), first.notice());
    assertTrue(first.notice().endsWith("; nothing ran."), first.notice());
    assertFalse(Files.exists(workdir.resolve("ran.txt")));
    bash.tell(ReplWorker.Stop.INSTANCE);
  }
}
