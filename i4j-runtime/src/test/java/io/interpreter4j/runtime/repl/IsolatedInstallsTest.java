package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.repl.SandboxedReplWorkerTest.Run;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code interpreter4j.python.venv = auto} with real python, pip and a wheel made by the test (no index, no network):
 * installs land in WORKDIR/.venv and never in the global site-packages.
 */
class IsolatedInstallsTest {

  static final String PYTHON = PythonLocator.resolve();
  /** pip quiet and offline: no version check against the index. */
  static final Map<String, String> PIP_ENV = Map.of("PIP_DISABLE_PIP_VERSION_CHECK", "1", "PIP_NO_INPUT", "1",
      "PIP_NO_CACHE_DIR", "1");

  @TempDir
  static Path wheels;

  static Path wheel;

  @TempDir
  Path workdir;

  @TempDir
  Path sessionDir;

  /** What the test python says about its venv module and its own prefix. */
  static Subprocess.Result venvCheck;

  @BeforeAll
  static void buildWheelAndCheckPython() throws Exception {
    venvCheck = Subprocess.run(List.of(PYTHON, "-c", "import venv, ensurepip; import sys; "
        + "print(sys.prefix == sys.base_prefix)"), null, Map.of(), Duration.ofSeconds(30));
    wheel = writeWheel(wheels, "i4jtestpkg", "0.1", "VALUE = 42\n");
  }

  /** Per test, so each one shows why it skipped (a skip of the whole class shows nothing). */
  @BeforeEach
  void needsVenvAndAPythonOutsideOne() {
    RequiredTool.assume(venvCheck.ok(), "the venv and ensurepip modules of " + PYTHON + " ("
        + venvCheck.lastLine() + ")", "apt-get install python3-venv");
    RequiredTool.assume(venvCheck.output().strip().equals("True"), "a python outside any virtual environment ("
        + PYTHON + " is in one)", "run the tests with no virtual environment active");
  }

  /** A pure-python wheel, written by hand: {@code pkg/__init__.py} and its dist-info. */
  static Path writeWheel(Path dir, String name, String version, String init) throws IOException {
    String distInfo = name + "-" + version + ".dist-info/";
    Map<String, String> files = new LinkedHashMap<>();
    files.put(name + "/__init__.py", init);
    files.put(distInfo + "METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n");
    files.put(distInfo + "WHEEL", "Wheel-Version: 1.0\nGenerator: i4j-test\nRoot-Is-Purelib: true\n"
        + "Tag: py3-none-any\n");
    StringBuilder record = new StringBuilder();
    files.forEach((path, text) -> record.append(path).append(",sha256=").append(sha256(text)).append(',')
        .append(text.getBytes(StandardCharsets.UTF_8).length).append('\n'));
    record.append(distInfo).append("RECORD,,\n");
    files.put(distInfo + "RECORD", record.toString());
    Path file = dir.resolve(name + "-" + version + "-py3-none-any.whl");
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (Map.Entry<String, String> entry : files.entrySet()) {
        zip.putNextEntry(new ZipEntry(entry.getKey()));
        zip.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    return file;
  }

  static String sha256(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  ActorRef<ReplWorker.Command> worker(String language, VenvMode venv, Sandbox sandbox) {
    return SandboxedReplWorkerTest.testKit.spawn(ReplWorker.create(ReplConfig.defaults(language, sessionDir, workdir)
        .withExtraEnv(PIP_ENV).withVenv(venv).withSandbox(sandbox)));
  }

  ActorRef<ReplWorker.Command> worker(String language) {
    return worker(language, VenvMode.AUTO, Sandbox.none());
  }

  static Run run(ActorRef<ReplWorker.Command> worker, int block, String code) {
    return SandboxedReplWorkerTest.run(worker, block, code, Duration.ofMinutes(3));
  }

  /** The global interpreter, started from elsewhere, cannot import the package. */
  static void assertNotGloballyInstalled(String module) {
    Subprocess.Result global = Subprocess.run(List.of("python3", "-c", "import " + module), wheels, Map.of(),
        Duration.ofSeconds(30));
    assertNotEquals(0, global.exitCode(), "installed globally: " + global.output());
    assertTrue(global.output().contains("ModuleNotFoundError"), global.output());
  }

  Path venv() {
    return workdir.resolve(".venv").toAbsolutePath();
  }

  @Test
  void bangPipInstallLandsInTheWorkdirVenvAndPythonMovesIntoIt() {
    ActorRef<ReplWorker.Command> python = worker("python");
    Run before = run(python, 1, "earlier = 1\nimport sys\nprint(sys.prefix)");
    assertEquals(0, before.result().exitCode(), before.all());
    assertFalse(before.stdout().contains(".venv"), before.stdout());
    assertFalse(Files.exists(venv()), "no environment before the first install");

    Run install = run(python, 2, "!pip install --no-index " + wheel + "\n"
        + "import i4jtestpkg\nprint(i4jtestpkg.__file__, i4jtestpkg.VALUE)");
    assertEquals(0, install.result().exitCode(), install.all() + install.notice());
    String file = install.stdout().strip().lines().reduce((a, b) -> b).orElse("");
    assertTrue(file.startsWith(venv().toString() + "/lib/"), file);
    assertTrue(file.endsWith("site-packages/i4jtestpkg/__init__.py 42"), file);
    assertEquals("pip installs go to the virtual environment " + venv() + "; python now runs inside it (state was "
        + "reset).", install.notice());
    assertTrue(Files.isRegularFile(venv().resolve("pyvenv.cfg")));

    Run after = run(python, 3, "import sys, os\nprint(sys.prefix, os.environ['VIRTUAL_ENV'])\nprint(i4jtestpkg.VALUE)\n"
        + "print('earlier' in globals())");
    assertEquals(venv() + " " + venv() + "\n42\nFalse\n", after.stdout(), after.all());
    assertEquals("", after.notice(), "the move is told once");
    assertNotGloballyInstalled("i4jtestpkg");
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void percentPipAndBarePipInTheFirstBlockStartPythonInsideTheVenvWithNothingToReset() throws IOException {
    Path other = writeWheel(workdir, "i4jotherpkg", "0.2", "NAME = 'other'\n");
    ActorRef<ReplWorker.Command> python = worker("python");
    Run install = run(python, 1, "%pip install --no-index " + wheel + "\npip install --no-index " + other + "\n"
        + "import i4jtestpkg, i4jotherpkg\nprint(i4jotherpkg.NAME, i4jtestpkg.VALUE)");
    assertEquals(0, install.result().exitCode(), install.all());
    assertTrue(install.stdout().endsWith("other 42\n"), install.stdout());
    assertEquals("pip installs go to the virtual environment " + venv() + "; python runs inside it from now on.",
        install.notice());
    python.tell(ReplWorker.Stop.INSTANCE);

    // another session in the same folder starts inside the environment it finds there
    ActorRef<ReplWorker.Command> next = worker("python");
    Run reuse = run(next, 1, "import i4jotherpkg\nprint(i4jotherpkg.__file__.startswith(" + PythonShellLines.pyString(
        venv().toString()) + "))");
    assertEquals("True\n", reuse.stdout(), reuse.all());
    assertTrue(reuse.notice().startsWith("python runs inside the virtual environment " + venv() + " found in the "
        + "working directory"), reuse.notice());
    assertNotGloballyInstalled("i4jotherpkg");
    next.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void aFailedInstallFailsTheBlock() {
    ActorRef<ReplWorker.Command> python = worker("python");
    Run failed = run(python, 1, "!pip install --no-index i4j-no-such-package\nprint('went on')");
    assertEquals(1, failed.result().exitCode(), failed.all());
    assertTrue(failed.all().contains("CalledProcessError"), failed.all());
    assertFalse(failed.stdout().contains("went on"));
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void bashPipInstallActivatesTheVenvInTheRunningShell() {
    ActorRef<ReplWorker.Command> bash = worker("bash");
    assertEquals(0, run(bash, 1, "mkdir -p sub && cd sub && KEEP=yes").result().exitCode());
    Run install = run(bash, 2, "pip install --no-index " + wheel + " >/dev/null && python -c "
        + "'import i4jtestpkg; print(i4jtestpkg.__file__)'");
    assertEquals(0, install.result().exitCode(), install.all());
    assertTrue(install.stdout().startsWith(venv() + "/lib/"), install.stdout());
    assertTrue(install.notice().startsWith("pip installs in this shell go to the virtual environment " + venv()),
        install.notice());
    Run state = run(bash, 3, "echo $KEEP $(basename $PWD) $VIRTUAL_ENV; command -v pip");
    assertEquals("yes sub " + venv() + "\n" + venv() + "/bin/pip\n", state.stdout(), "the shell kept its state");
    assertNotGloballyInstalled("i4jtestpkg");
    bash.tell(ReplWorker.Stop.INSTANCE);

    // python of the same session then starts inside the environment bash made
    ActorRef<ReplWorker.Command> python = worker("python");
    assertEquals("42\n", run(python, 4, "import i4jtestpkg\nprint(i4jtestpkg.VALUE)").stdout());
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void offLeavesPipAlone() {
    ActorRef<ReplWorker.Command> python = worker("python", VenvMode.OFF, Sandbox.none());
    Run pip = run(python, 1, "!pip --version");
    assertEquals(0, pip.result().exitCode(), pip.all());
    assertFalse(pip.stdout().contains(".venv"), pip.stdout());
    Run install = run(python, 2, "import subprocess, sys\n# pip install would go global here: only ask what it would do\n"
        + "print(sys.prefix == sys.base_prefix)");
    assertEquals("True\n", install.stdout());
    assertFalse(Files.exists(venv()));
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void aFolderNamedVenvThatIsNoEnvironmentIsAnErrorNotAGlobalInstall() throws IOException {
    Files.createDirectories(venv());
    ActorRef<ReplWorker.Command> python = worker("python");
    Run plain = run(python, 1, "print('blocks without pip run as before')");
    assertEquals(0, plain.result().exitCode(), plain.all() + plain.notice());
    Run install = run(python, 2, "!pip install --no-index " + wheel);
    assertEquals(127, install.result().exitCode(), install.all());
    assertTrue(install.notice().contains(venv() + " exists but is not a virtual environment (no pyvenv.cfg or "
        + "bin/python): remove or rename it, or set interpreter4j.python.venv = off"), install.notice());
    assertTrue(install.notice().contains("state was reset"), install.notice());
    assertNotGloballyInstalled("i4jtestpkg");
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void insideTheBwrapSandboxTheVenvIsMadeAndUsedThere() throws IOException {
    Sandbox bwrap = SandboxedReplWorkerTest.bwrap(false);
    // the sandbox has a /tmp of its own: the wheel must be in the working directory to be seen
    Path local = Files.copy(wheel, workdir.resolve(wheel.getFileName()));
    ActorRef<ReplWorker.Command> python = worker("python", VenvMode.AUTO, bwrap);
    Run install = run(python, 1, "!pip install --no-index " + local + "\n"
        + "import i4jtestpkg, sys\nprint(sys.prefix)\nprint(i4jtestpkg.__file__)");
    assertEquals(0, install.result().exitCode(), install.all() + install.notice());
    List<String> lines = install.stdout().strip().lines().toList();
    assertEquals(venv().toString(), lines.get(lines.size() - 2));
    assertTrue(lines.get(lines.size() - 1).startsWith(venv() + "/lib/"), install.stdout());
    assertNotGloballyInstalled("i4jtestpkg");
    python.tell(ReplWorker.Stop.INSTANCE);
  }

  @Test
  void underTheDefaultContainmentAutoRunCodeInstallsIntoTheWorkdirVenv() throws IOException {
    SandboxedReplWorkerTest.bwrap(true);
    // what an auto-run session gets by default: the platform's sandbox with the network, the standard masks
    Sandbox auto = Containment.of(SandboxSettings.DEFAULT, MaskedPaths.standard(System.getenv(), sessionDir.getParent(),
        List.of())).forAutoRun();
    assertEquals("bwrap", auto.name());
    Files.copy(wheel, workdir.resolve(wheel.getFileName()));
    ActorRef<ReplWorker.Command> python = worker("python", VenvMode.AUTO, auto);
    Run install = run(python, 1, "!pip install --no-index ./" + wheel.getFileName() + "\n"
        + "import i4jtestpkg, sys\nprint(sys.prefix)\nprint(i4jtestpkg.VALUE)");
    assertEquals(0, install.result().exitCode(), install.all() + install.notice());
    List<String> lines = install.stdout().strip().lines().toList();
    assertEquals(List.of(venv().toString(), "42"), lines.subList(lines.size() - 2, lines.size()));
    assertNotGloballyInstalled("i4jtestpkg");
    ActorRef<ReplWorker.Command> bash = worker("bash", VenvMode.AUTO, auto);
    Run inShell = run(bash, 2, "pip install --no-index ./" + wheel.getFileName() + " >/dev/null && python3 -c "
        + "'import i4jtestpkg; print(i4jtestpkg.VALUE)'");
    assertEquals(0, inShell.result().exitCode(), inShell.all() + inShell.notice());
    assertTrue(inShell.stdout().contains("42"), inShell.stdout());
    python.tell(ReplWorker.Stop.INSTANCE);
    bash.tell(ReplWorker.Stop.INSTANCE);
  }
}
