package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.safety.ChildEnvironment;
import io.interpreter4j.core.testing.RequiredTool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The python fork server with real python: a forked interpreter runs blocks in its own folder, environment and
 * process group; SIGINT stops its block and it lives on; its exit value and a kill reach the JVM; it outlives its
 * server, and the next fork starts a new server; nothing outlives the JVM.
 */
class PythonForkServerTest {

  private static final String MARKER = "M0";

  @TempDir
  Path dir;

  private PythonForkServer server;
  private final List<PythonForkServer.ForkedChild> children = new ArrayList<>();

  @BeforeEach
  void server() {
    RequiredTool.assume(PythonForkServer.enabled(), "Linux (the fork server runs only there)", "run on Linux");
    server = new PythonForkServer(ReplDialect.PythonExecutable.resolve(), ReplDialect.resource("python_driver.py"),
        environment(Map.of()));
  }

  @AfterEach
  void stop() {
    children.forEach(c -> ProcessHandle.of(c.pid()).ifPresent(ProcessHandle::destroyForcibly));
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void stoppingTheServerRemovesItsFifoFolder() throws IOException {
    server.start();
    Path folder = server.fifos().orElseThrow();
    assertTrue(Files.isDirectory(folder));
    server.stop();
    assertFalse(Files.exists(folder), "left behind: " + folder);
  }

  @Test
  void theFifoFolderIsPrivateAndInMemoryWhereTheMachineHasATmpfs() throws IOException {
    Path folder = PythonForkServer.fifoFolder();
    try {
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
      String runtime = System.getenv("XDG_RUNTIME_DIR");
      Path expected = runtime != null && !runtime.isEmpty() && Files.isDirectory(Path.of(runtime))
          && Files.isWritable(Path.of(runtime)) ? Path.of(runtime)
          : Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm")) ? Path.of("/dev/shm")
          : Path.of(System.getProperty("java.io.tmpdir"));
      assertEquals(expected.toRealPath(), folder.getParent().toRealPath());
    } finally {
      Files.deleteIfExists(folder);
    }
  }

  @Test
  void aForkedInterpreterRunsBlocksInItsFolderEnvironmentAndOwnProcessGroup() throws Exception {
    PythonForkServer.ForkedChild child = fork(Map.of("I4J_FORK_TEST", "here"));
    long serverPid = server.pid().orElseThrow();
    assertEquals(serverPid, ProcessHandle.of(child.pid()).orElseThrow().parent().orElseThrow().pid());

    send(child, "import os\nprint(os.getcwd(), os.environ['I4J_FORK_TEST'], os.getpgrp() == os.getpid(), "
        + "os.getsid(0) == os.getpid())\nx = 41");
    assertEquals(dir.toRealPath() + " here True True\n\u0002" + MARKER + " 0 -\n", readBlock(child.stdout()));
    send(child, "x + 1");
    assertEquals("42\n\u0002" + MARKER + " 0 -\n", readBlock(child.stdout()), "state kept between blocks");
  }

  @Test
  void sigintToItsGroupStopsTheBlockAndTheInterpreterLivesOn() throws Exception {
    PythonForkServer.ForkedChild child = fork(Map.of());
    send(child, "import time\nprint('sleeping', flush=True)\ntime.sleep(60)");
    assertEquals("sleeping\n", readLine(child.stdout()));
    new ProcessBuilder("kill", "-s", "INT", "--", "-" + child.pid()).start().waitFor(10, TimeUnit.SECONDS);
    assertEquals("\u0002" + MARKER + " 130 -\n", readBlock(child.stdout()));
    send(child, "print('alive')");
    assertEquals("alive\n\u0002" + MARKER + " 0 -\n", readBlock(child.stdout()));
  }

  @Test
  void theServerSignalsAWholeProcessGroupWithoutAKillProcess() throws Exception {
    assertFalse(server.signal(12345, 9), "no server runs yet: the caller must start kill");
    PythonForkServer.ForkedChild child = fork(Map.of());
    send(child, "import subprocess\np = subprocess.Popen(['sleep', '300'])\nprint(p.pid)");
    long sleeper = Long.parseLong(readLine(child.stdout()).strip());
    ProcessHandle sleep = ProcessHandle.of(sleeper).orElseThrow();
    assertFalse(server.signal(1, 9), "never init's group");
    assertTrue(server.signal(child.pid(), 9));
    assertEquals(128 + 9, child.exit().get(20, TimeUnit.SECONDS));
    sleep.onExit().get(20, TimeUnit.SECONDS); // the interpreter's child, in its group, got the signal too
    assertFalse(sleep.isAlive());
  }

  @Test
  void itsExitValueAndAKillReachTheJvm() throws Exception {
    PythonForkServer.ForkedChild exiting = fork(Map.of());
    send(exiting, "import os\nos._exit(7)");
    assertEquals(7, exiting.exit().get(20, TimeUnit.SECONDS));

    PythonForkServer.ForkedChild killed = fork(Map.of());
    ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly();
    assertEquals(128 + 9, killed.exit().get(20, TimeUnit.SECONDS));

    PythonForkServer.ForkedChild closed = fork(Map.of());
    closed.stdin().close(); // the JVM lets go of it: the driver ends
    assertEquals(0, closed.exit().get(20, TimeUnit.SECONDS));
  }

  @Test
  void aProgramExecedByTheServerRunsInItsFolderEnvironmentAndOwnSessionWithSignalsAtTheirDefaults()
      throws Exception {
    assertThrows(IOException.class, () -> server.exec(List.of("/bin/sh", "-c", "true"), dir, environment(Map.of())),
        "exec never starts a server: the caller spawns");
    server.start();
    String sh = Executables.find("sh").orElseThrow().toString();
    assertThrows(IllegalArgumentException.class, () -> server.exec(List.of("sh", "-c", "true"), dir,
        environment(Map.of())));
    // the program as started: its own signal masks, read by itself (a shell's would race its own forks)
    String grep = Executables.find("grep").orElseThrow().toString();
    PythonForkServer.ForkedChild masks = server.exec(List.of(grep, "-E", "^Sig(Blk|Ign)", "/proc/self/status"), dir,
        environment(Map.of()));
    children.add(masks);
    long blocked = Long.parseUnsignedLong(readLine(masks.stdout()).split("\\s+")[1], 16);
    long ignored = Long.parseUnsignedLong(readLine(masks.stdout()).split("\\s+")[1], 16);
    assertEquals(0, masks.exit().get(20, TimeUnit.SECONDS));
    assertEquals(0, blocked, "no signal blocked");
    for (int signum : new int[] {2, 13, 25}) { // SIGINT, SIGPIPE, SIGXFSZ: the server's python ignores them
      assertEquals(0, ignored & (1L << (signum - 1)), "signal " + signum + " at its default");
    }
    // a shell reading its commands from stdin, as the bash driver does
    PythonForkServer.ForkedChild child = server.exec(List.of(sh, "-s"), dir, environment(Map.of("I4J_X", "here")));
    children.add(child);
    assertEquals(server.pid().orElseThrow(), ProcessHandle.of(child.pid()).orElseThrow().parent().orElseThrow().pid());
    child.stdin().write(("echo \"$(pwd -P) $I4J_X $$\"; cut -d' ' -f5,6 /proc/$$/stat\n")
        .getBytes(StandardCharsets.UTF_8));
    child.stdin().flush();
    assertEquals(dir.toRealPath() + " here " + child.pid() + "\n", readLine(child.stdout()));
    assertEquals(List.of(Long.toString(child.pid()), Long.toString(child.pid())),
        List.of(readLine(child.stdout()).strip().split("\\s+")), "leads its own session and process group");
    child.stdin().write("exit 7\n".getBytes(StandardCharsets.UTF_8));
    child.stdin().flush();
    assertEquals(7, child.exit().get(20, TimeUnit.SECONDS));

    PythonForkServer.ForkedChild atEnd = server.exec(List.of(sh, "-s"), dir, environment(Map.of()));
    children.add(atEnd);
    atEnd.stdin().close();
    assertEquals(0, atEnd.exit().get(20, TimeUnit.SECONDS), "end of file on stdin ends it");
  }

  @Test
  void aChildOutlivesItsServerAndTheNextForkStartsANewServer() throws Exception {
    PythonForkServer.ForkedChild child = fork(Map.of());
    ProcessHandle first = ProcessHandle.of(server.pid().orElseThrow()).orElseThrow();
    first.destroyForcibly();
    first.onExit().get(20, TimeUnit.SECONDS);

    send(child, "print('still here')");
    assertEquals("still here\n\u0002" + MARKER + " 0 -\n", readBlock(child.stdout()));

    PythonForkServer.ForkedChild next = fork(Map.of());
    assertNotEquals(first.pid(), server.pid().orElseThrow());
    send(next, "print('new server')");
    assertEquals("new server\n\u0002" + MARKER + " 0 -\n", readBlock(next.stdout()));

    child.stdin().close();
    // its parent is gone, and with it the status: the JVM still learns that it ended
    assertEquals(PythonForkServer.UNKNOWN_EXIT, child.exit().get(20, TimeUnit.SECONDS));
  }

  /** The server's script started directly, as a JVM would start it, with a FIFO folder of its own. */
  private Process startServerScript() throws Exception {
    Path fifos = Files.createDirectories(dir.resolve("fifos"));
    return new ProcessBuilder(ReplDialect.PythonExecutable.resolve(), "-u", "-c",
        ReplDialect.resource("python_fork_server.py"), fifos.toString(), ReplDialect.resource("python_driver.py"))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  /**
   * A JVM killed between its fork request and opening the child's FIFOs: the child, waiting in its opens, ends by
   * itself ({@code open_within_s}) instead of waiting for ever with nobody to kill it. Driven as that JVM would:
   * the server's script started directly, a request written, stdin closed, the FIFOs never opened.
   */
  @Test
  void aChildWhoseJvmNeverOpensItsFifosEndsByItself() throws Exception {
    Process script = startServerScript();
    try {
      var replies = new java.io.BufferedReader(new java.io.InputStreamReader(script.getInputStream(),
          StandardCharsets.UTF_8));
      assertTrue(replies.readLine().startsWith("ready "));
      script.getOutputStream().write(("fork 7 {\"cwd\": \"" + dir + "\", \"env\": {}, \"open_within_s\": 1}\n")
          .getBytes(StandardCharsets.UTF_8));
      script.getOutputStream().flush();
      String forked = replies.readLine();
      assertTrue(forked.startsWith("forked 7 "), forked);
      ProcessHandle child = ProcessHandle.of(Long.parseLong(forked.substring("forked 7 ".length()))).orElseThrow();
      script.getOutputStream().close(); // the JVM is gone: the server ends, its child is left waiting in open()
      assertTrue(script.waitFor(20, TimeUnit.SECONDS), "the server ends at end of file");
      child.onExit().get(30, TimeUnit.SECONDS); // throws TimeoutException if it waits for ever
      assertFalse(child.isAlive());
    } finally {
      script.destroyForcibly();
    }
  }

  /** The same for a program the server spawns: with the server gone and no JVM end ever opened, it reads EOF. */
  @Test
  void aProgramWhoseJvmNeverOpensItsFifosEndsByItself() throws Exception {
    Process script = startServerScript();
    try {
      var replies = new java.io.BufferedReader(new java.io.InputStreamReader(script.getInputStream(),
          StandardCharsets.UTF_8));
      assertTrue(replies.readLine().startsWith("ready "));
      String sh = Executables.find("sh").orElseThrow().toString();
      script.getOutputStream().write(("exec 7 {\"cwd\": \"" + dir + "\", \"env\": {}, \"argv\": [\"" + sh
          + "\", \"-s\"]}\n").getBytes(StandardCharsets.UTF_8));
      script.getOutputStream().flush();
      String forked = replies.readLine();
      assertTrue(forked.startsWith("forked 7 "), forked);
      ProcessHandle child = ProcessHandle.of(Long.parseLong(forked.substring("forked 7 ".length()))).orElseThrow();
      script.getOutputStream().close(); // the JVM is gone before it opened anything
      assertTrue(script.waitFor(20, TimeUnit.SECONDS), "the server ends at end of file");
      child.onExit().get(30, TimeUnit.SECONDS); // throws TimeoutException if it waits for ever
      assertFalse(child.isAlive());
    } finally {
      script.destroyForcibly();
    }
  }

  @Test
  void onlyTheDefaultPythonWithTheSameStartIsForked() {
    String python = ReplDialect.PythonExecutable.resolve();
    String driver = ReplDialect.resource("python_driver.py");
    Map<String, String> same = environment(Map.of("I4J_ANYTHING", "x"));
    assertTrue(server.accepts(List.of(python, "-u", "-c", driver), same));
    assertFalse(server.accepts(List.of(dir.resolve(".venv/bin/python").toString(), "-u", "-c", driver), same));
    assertFalse(server.accepts(List.of(python, "-u", "-c", driver), environment(Map.of("PYTHONPATH", "/opt/x"))));
    assertFalse(server.accepts(List.of(python, "-u", "-c", driver), environment(Map.of("LC_ALL", "C"))));
  }

  @Test
  void theSwitchIsOnByDefaultReadsOnAndOffAndRefusesAnythingElse() {
    boolean before = PythonForkServer.enabled();
    try {
      PythonForkServer.configure(ConfigFactory.load());
      assertTrue(PythonForkServer.enabled());
      PythonForkServer.configure(config("off"));
      assertFalse(PythonForkServer.enabled());
      assertEquals(null, PythonForkServer.shared(), "off: every python is spawned");
      PythonForkServer.configure(config("on"));
      assertTrue(PythonForkServer.enabled());
      IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
          () -> PythonForkServer.configure(config("sometimes")));
      assertEquals("interpreter4j.repl.python.fork-server must be on or off, not 'sometimes'", bad.getMessage());
    } finally {
      PythonForkServer.setEnabled(before);
    }
  }

  private static Config config(String value) {
    return ConfigFactory.parseMap(Map.of("interpreter4j.repl.python.fork-server", value))
        .withFallback(ConfigFactory.load());
  }

  @Test
  void theServerAndItsChildrenEndWithTheJvm() throws Exception {
    jvmEnds("exit"); // the shutdown hook stops the server
  }

  @Test
  void theServerAndItsChildrenEndWithAJvmThatHalts() throws Exception {
    jvmEnds("halt"); // no hook: the server and the child see end of file on their stdin
  }

  private void jvmEnds(String how) throws Exception {
    Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), ForkServerExitMain.class.getName(), dir.toString(), how)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String line = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(jvm.waitFor(60, TimeUnit.SECONDS), "the JVM exits");
    assertEquals(0, jvm.exitValue(), line);
    String[] pids = line.split(" ");
    assertEquals("pids", pids[0], line);
    for (int i = 1; i < pids.length; i++) {
      long pid = Long.parseLong(pids[i]);
      var handle = ProcessHandle.of(pid);
      if (handle.isPresent()) {
        handle.get().onExit().get(30, TimeUnit.SECONDS);
      }
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "still alive: " + pid);
    }
  }

  /** A JVM that forks an interpreter, says the pids and exits (or halts) without stopping anything. */
  static final class ForkServerExitMain {
    public static void main(String[] args) throws Exception {
      PythonForkServer server = new PythonForkServer(ReplDialect.PythonExecutable.resolve(),
          ReplDialect.resource("python_driver.py"), environment(Map.of()));
      PythonForkServer.ForkedChild child = server.fork(Path.of(args[0]), environment(Map.of()));
      System.out.println("pids " + server.pid().orElseThrow() + " " + child.pid());
      System.out.flush();
      if (args[1].equals("halt")) {
        Runtime.getRuntime().halt(0);
      }
      System.exit(0);
    }
  }

  private PythonForkServer.ForkedChild fork(Map<String, String> extra) throws IOException {
    PythonForkServer.ForkedChild child = server.fork(dir, environment(extra));
    children.add(child);
    return child;
  }

  private static Map<String, String> environment(Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(System.getenv());
    ChildEnvironment.withhold(env);
    env.putAll(InterpreterLaunch.environment(extra));
    return env;
  }

  private static void send(PythonForkServer.ForkedChild child, String code) throws IOException {
    byte[] bytes = code.getBytes(StandardCharsets.UTF_8);
    child.stdin().write((MARKER + " " + bytes.length + " <block>\n").getBytes(StandardCharsets.UTF_8));
    child.stdin().write(bytes);
    child.stdin().flush();
  }

  /** Reads up to and including the block's end line on stdout. */
  private static String readBlock(InputStream out) throws IOException {
    StringBuilder all = new StringBuilder();
    while (true) {
      String line = readLine(out);
      all.append(line);
      if (line.startsWith("\u0002" + MARKER + " ") || line.isEmpty()) {
        return all.toString();
      }
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      line.write(b);
      if (b == '\n') {
        break;
      }
    }
    return line.toString(StandardCharsets.UTF_8);
  }
}
