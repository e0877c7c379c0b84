package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link SandboxedReplWorkerTest}'s tests with the python fork server running: the server spawns bwrap itself
 * (SIGINT ignored, leading a new session), without the JVM's {@code setsid} and shell. The sandbox, its signals and
 * the process-tree kill must be the same.
 */
class SandboxedThroughForkServerTest extends SandboxedReplWorkerTest {

  /** Hides {@link SandboxedReplWorkerTest#serverState()}: here the server runs. */
  @BeforeAll
  static void serverState() throws IOException {
    PythonForkServer server = PythonForkServer.shared();
    Assumptions.assumeTrue(server != null, "the python fork server runs on Linux only");
    server.start();
  }

  @Test
  void bwrapIsTheServersChildWithSigintIgnoredAndTheCodeTakesSigint() throws Exception {
    bwrap(false); // skips without bwrap
    ActorRef<ReplWorker.Command> python = worker("python", bwrap(false));
    Run run = run(python, 1, "import os, signal\n"
        + "print(os.getpgrp() == os.getsid(0), signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.SIG_DFL))");
    assertEquals("True True\n", run.stdout(), run.all());
    long server = PythonForkServer.runningPid().orElseThrow();
    List<ProcessHandle> sandboxed = sandboxedProcesses();
    ProcessHandle bwrap = sandboxed.stream()
        .filter(p -> p.info().command().map(c -> c.endsWith("/bwrap")).orElse(false)
            && p.parent().map(parent -> parent.pid() == server).orElse(false))
        .findFirst().orElseThrow(() -> new AssertionError("no bwrap below the server " + server + ": "
            + sandboxed.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList()));
    // SIGINT (signal 2) is ignored by bwrap, so an interrupt of the group reaches only the code
    long ignored = Long.parseUnsignedLong(status(bwrap.pid(), "SigIgn:"), 16);
    assertTrue((ignored & (1L << 1)) != 0, "bwrap's SigIgn " + Long.toHexString(ignored));
    // no shell between the server and bwrap, and bwrap leads the session and group the code runs in
    assertFalse(sandboxed.stream().anyMatch(p -> p.info().commandLine().orElse("").contains("trap '' INT")));
    assertEquals(String.valueOf(bwrap.pid()), stat(bwrap.pid(), 2), "bwrap's process group");
    assertEquals(String.valueOf(bwrap.pid()), stat(bwrap.pid(), 3), "bwrap's session");
    python.tell(ReplWorker.Stop.INSTANCE);
    assertAllEnd(sandboxed);
  }

  private static String status(long pid, String key) throws IOException {
    return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith(key))
        .map(l -> l.substring(key.length()).strip()).findFirst().orElseThrow();
  }

  /** Field {@code index} of /proc/pid/stat after the command's closing parenthesis (0: state, 2: pgrp, 3: session). */
  private static String stat(long pid, int index) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[index];
  }
}
