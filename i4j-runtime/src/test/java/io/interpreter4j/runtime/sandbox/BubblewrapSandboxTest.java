package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import io.interpreter4j.core.testing.OutsideTmp;

class BubblewrapSandboxTest {

  static final Duration WAIT = Duration.ofSeconds(60);
  static final String PYTHON = io.interpreter4j.runtime.repl.PythonLocator.resolve();

  @TempDir
  Path workdir;

  @TempDir
  Path sessionDir;

  static int indexOf(List<String> argv, String... sequence) {
    return Collections.indexOfSubList(argv, List.of(sequence));
  }

  static void assertHas(List<String> argv, String... sequence) {
    assertTrue(indexOf(argv, sequence) >= 0, "missing " + List.of(sequence) + " in " + argv);
  }

  final List<Path> created = new ArrayList<>();

  /** A folder right under the host's /tmp, which bwrap replaces with a private one. */
  Path underHostTmp() throws IOException {
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "i4j-hidden-");
    created.add(dir);
    return dir;
  }

  @AfterEach
  void removeCreated() throws IOException {
    for (Path dir : created) {
      try (var walk = Files.walk(dir)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  @Nested
  class Argv {

    final Path w = Path.of("/home/u/proj");
    final Path s = Path.of("/home/u/.local/share/interpreter4j/sessions/abc");

    @Test
    void confinesWritesToTheWorkdirAndSessionFolderAndCutsTheNetwork() {
      List<String> argv = new BubblewrapSandbox(false, "/usr/bin/bwrap").wrap(List.of("python3", "-u"), w, s);
      // bwrap runs with SIGINT ignored, so an interrupt of the group reaches only the code
      assertEquals(List.of("/bin/sh", "-c", "trap '' INT; \"$0\" \"$@\"; exit $?", "/usr/bin/bwrap"),
          argv.subList(0, 4));
      assertHas(argv, "--die-with-parent");
      assertHas(argv, "--unshare-pid");
      assertHas(argv, "--unshare-net");
      assertHas(argv, "--ro-bind", "/", "/");
      assertHas(argv, "--dev", "/dev");
      assertHas(argv, "--proc", "/proc");
      assertHas(argv, "--bind", w.toString(), w.toString());
      assertHas(argv, "--bind", s.toString(), s.toString());
      assertHas(argv, "--chdir", w.toString(), "--", "python3", "-u");
      assertFalse(argv.contains("--new-session"), "a new session would take the code out of the worker's group");
      // order matters: mounts later in the list cover earlier ones
      assertTrue(indexOf(argv, "--ro-bind", "/", "/") < indexOf(argv, "--tmpfs", "/tmp"));
      assertTrue(indexOf(argv, "--tmpfs", "/tmp") < indexOf(argv, "--bind", w.toString(), w.toString()));
      assertEquals(List.of("--", "python3", "-u"), argv.subList(argv.size() - 3, argv.size()));
    }

    @Test
    void whatTheDriversReadUnderTmpIsBoundBackReadOnlyBelowTheWritableFolders() throws IOException {
      Path checkout = underHostTmp();
      Path jar = Files.writeString(checkout.resolve("interpreter4j.jar"), "");
      Path classes = Files.createDirectories(checkout.resolve("target/classes"));
      Path work = Files.createDirectories(checkout.resolve("work"));
      BubblewrapSandbox sandbox = new BubblewrapSandbox(false, "/usr/bin/bwrap", List.of(jar));
      List<String> argv = sandbox.wrap(List.of("java", "-cp", classes.toString(), "Main"), work, null);
      assertHas(argv, "--ro-bind", jar.toString(), jar.toString());
      assertHas(argv, "--ro-bind", classes.toString(), classes.toString());
      assertTrue(indexOf(argv, "--tmpfs", "/tmp") < indexOf(argv, "--ro-bind", jar.toString(), jar.toString()));
      assertFalse(argv.contains(checkout.toString()), "only what is named: " + argv);

      // a working directory inside a bound folder is bound writable on top of it
      List<String> inside = new BubblewrapSandbox(false, "/usr/bin/bwrap", List.of(checkout))
          .wrap(List.of("true"), work, null);
      assertTrue(indexOf(inside, "--ro-bind", checkout.toString(), checkout.toString())
          < indexOf(inside, "--bind", work.toString(), work.toString()), inside.toString());
    }

    @Test
    void maskedFoldersBecomeEmptyAndReadOnlyMaskedFilesUnopenableAndTheSessionFolderStaysWritable(
        @TempDir(factory = OutsideTmp.class) Path root) throws IOException {
      Path home = Files.createDirectories(root.resolve("home"));
      Path ssh = Files.createDirectories(home.resolve(".ssh"));
      Path netrc = Files.writeString(home.resolve(".netrc"), "machine x password y\n");
      Path data = Files.createDirectories(home.resolve(".local/share/interpreter4j"));
      Path session = Files.createDirectories(data.resolve("sessions/abc"));
      Path work = Files.createDirectories(root.resolve("work"));
      MaskedPaths masked = MaskedPaths.of(List.of(ssh, netrc, data, home.resolve(".aws")), List.of());
      List<String> argv = new BubblewrapSandbox(false, "/usr/bin/bwrap", List.of(), masked)
          .wrap(List.of("true"), work, session);
      assertHas(argv, "--tmpfs", ssh.toString());
      assertHas(argv, "--ro-bind", "/dev/null", netrc.toString());
      assertHas(argv, "--tmpfs", data.toString());
      assertFalse(argv.contains(home.resolve(".aws").toString()), "what does not exist needs no mask: " + argv);
      // the session folder is mounted inside the masked data folder, which becomes read-only after
      int masking = indexOf(argv, "--tmpfs", data.toString());
      int binding = indexOf(argv, "--bind", session.toString(), session.toString());
      int readOnly = indexOf(argv, "--remount-ro", data.toString());
      assertTrue(masking < binding && binding < readOnly, argv.toString());
      assertHas(argv, "--remount-ro", ssh.toString());
      assertTrue(readOnly < indexOf(argv, "--chdir"), argv.toString());

      // the working directory is the home: the masks inside it come after it
      List<String> inHome = new BubblewrapSandbox(false, "/usr/bin/bwrap", List.of(), masked)
          .wrap(List.of("true"), home, session);
      assertTrue(indexOf(inHome, "--bind", home.toString(), home.toString())
          < indexOf(inHome, "--tmpfs", ssh.toString()), inHome.toString());
      // a masked path that is the working directory itself stays the working directory
      List<String> workIsMasked = new BubblewrapSandbox(false, "/usr/bin/bwrap", List.of(), masked)
          .wrap(List.of("true"), ssh, session);
      assertEquals(-1, indexOf(workIsMasked, "--tmpfs", ssh.toString()), workIsMasked.toString());
    }

    @Test
    void thePromptSentenceSaysCredentialsAreHidden() {
      assertTrue(new BubblewrapSandbox(true, "bwrap", List.of(), MaskedPaths.of(List.of(Path.of("/h/.ssh")),
          List.of())).promptSentence().contains("credentials (~/.ssh, ~/.aws, ...) are hidden"));
      assertFalse(new BubblewrapSandbox(true, "bwrap").promptSentence().contains("hidden"));
    }

    @Test
    void networkAllowedKeepsTheHostNetwork() {
      List<String> argv = new BubblewrapSandbox(true, "/usr/bin/bwrap").wrap(List.of("true"), w, s);
      assertFalse(argv.contains("--unshare-net"));
      assertHas(argv, "--unshare-pid");
    }

    @Test
    void aSessionFolderInsideTheWorkdirIsBoundAfterIt() {
      Path inner = w.resolve(".i4j/sessions/abc");
      List<String> argv = new BubblewrapSandbox(false, "/usr/bin/bwrap").wrap(List.of("true"), w, inner);
      int outer = indexOf(argv, "--bind", w.toString(), w.toString());
      int nested = indexOf(argv, "--bind", inner.toString(), inner.toString());
      assertTrue(outer >= 0 && nested > outer, argv.toString());
      List<String> same = new BubblewrapSandbox(false, "/usr/bin/bwrap").wrap(List.of("true"), w, w);
      assertEquals(indexOf(same, "--bind"), same.lastIndexOf("--bind"), "one bind when both are the same folder");
    }

    @Test
    void aLaunchThatLeadsASessionKeepsOneGroupWithSetsidOutsideBwrap() {
      LaunchSpec launch = new LaunchSpec(List.of("python3", "-u", "-c", "pass"), w, Map.of("PAGER", "cat"), true);
      LaunchSpec wrapped = new BubblewrapSandbox(false, "/usr/bin/bwrap").wrap(launch, s);
      List<String> command = wrapped.command("/usr/bin/setsid");
      assertEquals(List.of("/usr/bin/setsid", "/bin/sh"), command.subList(0, 2));
      assertEquals("1", wrapped.env().get(Sandbox.SHARED_GROUP_ENV), "the python driver must stay in the group");
      assertEquals("cat", wrapped.env().get("PAGER"));
      assertTrue(wrapped.newSession());
      LaunchSpec plain = new BubblewrapSandbox(false, "/usr/bin/bwrap")
          .wrap(new LaunchSpec(List.of("true"), w, Map.of(), false), s);
      assertFalse(plain.env().containsKey(Sandbox.SHARED_GROUP_ENV), "without setsid the driver makes its own group");
    }

    @Test
    @EnabledOnOs(value = OS.LINUX, disabledReason = "the message names Linux's fix")
    void withoutBwrapItSaysHowToInstallIt() {
      BubblewrapSandbox missing = new BubblewrapSandbox(false, null);
      assertEquals(Optional.of("bwrap not found: install bubblewrap (apt-get install bubblewrap) or run with "
          + "--sandbox=none"), missing.availability());
      IllegalStateException e = assertThrows(IllegalStateException.class, missing::check);
      assertEquals(missing.availability().orElseThrow(), e.getMessage());
      assertThrows(IllegalStateException.class, () -> missing.wrap(List.of("true"), w, s));
    }

    @Test
    void thePromptSentenceSaysWhatIsConfined() {
      assertTrue(new BubblewrapSandbox(false, "bwrap").promptSentence().contains("no network access"));
      assertFalse(new BubblewrapSandbox(true, "bwrap").promptSentence().contains("network"));
    }
  }

  /** Run inside the sandbox from a class path under the host's /tmp. */
  public static final class Greeter {
    public static void main(String[] args) throws Exception {
      System.out.println("hello from " + Path.of(Greeter.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI()).toString());
    }
  }

  /** Real bwrap, a {@link RequiredBwrap}. */
  @Nested
  class Real {

    BubblewrapSandbox sandbox(boolean network) {
      return (BubblewrapSandbox) RequiredBwrap.sandbox(network);
    }

    Subprocess.Result run(BubblewrapSandbox sandbox, String script) {
      return Subprocess.run(sandbox.wrap(List.of("sh", "-c", script), workdir, sessionDir), workdir, Map.of(), WAIT);
    }

    @Test
    void writesOutsideTheWorkdirFailAndInsideItPersist() throws IOException {
      BubblewrapSandbox sandbox = sandbox(false);
      Path outside = Path.of("/etc/i4j-sandbox-probe-" + ProcessHandle.current().pid());
      Subprocess.Result etc = run(sandbox, "touch " + outside);
      assertNotEquals(0, etc.exitCode(), etc.output());
      assertTrue(etc.output().contains("Read-only file system"), etc.output());
      assertFalse(Files.exists(outside));

      Subprocess.Result home = run(sandbox, "touch \"$HOME/i4j-sandbox-probe\"");
      assertNotEquals(0, home.exitCode(), home.output());
      assertFalse(Files.exists(Path.of(System.getProperty("user.home"), "i4j-sandbox-probe")));

      Subprocess.Result inside = run(sandbox, "echo kept > kept.txt && echo spool > " + sessionDir.resolve("s.txt")
          + " && echo gone > /tmp/private.txt && cat /tmp/private.txt");
      assertEquals(0, inside.exitCode(), inside.output());
      assertEquals("kept\n", Files.readString(workdir.resolve("kept.txt")));
      assertEquals("spool\n", Files.readString(sessionDir.resolve("s.txt")));
      assertFalse(Files.exists(Path.of("/tmp/private.txt")), "/tmp inside is the sandbox's own");
    }

    @Test
    void maskedSecretsCannotBeReadOrWrittenWhileTheRestOfTheHomeCanBeRead(
        @TempDir(factory = OutsideTmp.class) Path root) throws IOException {
      RequiredBwrap.sandbox(false);
      Path home = Files.createDirectories(root.resolve("home"));
      Path key = Files.writeString(Files.createDirectories(home.resolve(".ssh")).resolve("id_ed25519"),
          "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n");
      Files.writeString(home.resolve(".netrc"), "machine x password hunter2\n");
      Files.writeString(home.resolve("notes.txt"), "visible notes\n");
      Path data = Files.createDirectories(home.resolve(".local/share/interpreter4j"));
      Path session = Files.createDirectories(data.resolve("sessions/mine"));
      Files.writeString(Files.createDirectories(data.resolve("sessions/other")).resolve("events.jsonl"), "theirs\n");
      Path work = Files.createDirectories(root.resolve("work"));
      MaskedPaths masked = MaskedPaths.of(List.of(home.resolve(".ssh"), home.resolve(".netrc"), data), List.of());
      BubblewrapSandbox sandbox = BubblewrapSandbox.onPath(false, masked);
      Subprocess.Result run = Subprocess.run(sandbox.wrap(List.of("sh", "-c",
          "cat " + key + "; echo \"key=$?\"; ls -A " + home.resolve(".ssh") + "; echo \"listed=$?\"; "
              + "cat " + home.resolve(".netrc") + "; echo \"netrc=$?\"; "
              + "touch " + home.resolve(".ssh/authorized_keys") + "; echo \"planted=$?\"; "
              + "cat " + home.resolve("notes.txt") + "; "
              + "ls " + data.resolve("sessions") + "; "
              + "echo spool > " + session.resolve("spool.txt") + "; echo \"spooled=$?\""), work, session),
          work, Map.of(), WAIT);
      String out = run.output();
      assertFalse(out.contains("secret") || out.contains("hunter2"), out);
      assertTrue(out.contains("key=1"), out);
      assertTrue(out.contains("listed=0"), "the folder is there, empty: " + out);
      assertTrue(out.contains("netrc=1"), out);
      assertTrue(out.contains("planted=1") && out.contains("Read-only file system"), out);
      assertFalse(Files.exists(home.resolve(".ssh/authorized_keys")));
      assertTrue(out.contains("visible notes"), "the rest of the home is readable: " + out);
      assertTrue(out.contains("mine") && !out.contains("other"), "only the session's own folder: " + out);
      assertTrue(out.contains("spooled=0"), out);
      assertEquals("spool\n", Files.readString(session.resolve("spool.txt")));
    }

    @Test
    void npmInstallsALocalPackageIntoTheWorkdirWithItsCacheInThePrivateTmp() throws IOException {
      io.interpreter4j.core.testing.RequiredTool.assume(Subprocess.executable("npm").isPresent(), "npm",
          "apt-get install npm");
      BubblewrapSandbox sandbox = sandbox(false);
      Path pkg = Files.createDirectories(workdir.resolve("tinypkg"));
      Files.writeString(pkg.resolve("package.json"), "{\"name\": \"tinypkg\", \"version\": \"1.0.0\"}");
      Files.writeString(pkg.resolve("index.js"), "module.exports = 6 * 7;\n");
      Subprocess.Result run = run(sandbox, "npm install --no-audit --no-fund --offline ./tinypkg >/dev/null && "
          + "npm cache ls >/dev/null 2>&1; echo \"cache=$(npm config get cache)\"; "
          + "node -e 'console.log(require(\"tinypkg\"))'");
      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains("cache=/tmp/.npm"), run.output());
      assertTrue(run.output().contains("42"), run.output());
      assertTrue(Files.isDirectory(workdir.resolve("node_modules/tinypkg")), "installed in the working directory");
    }

    @Test
    void theHostsLoopbackAndNamesAreUnreachable() throws IOException {
      BubblewrapSandbox sandbox = sandbox(false);
      try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
        String connect = "import socket\nsocket.create_connection(('127.0.0.1', " + server.getLocalPort()
            + "), timeout=5)\nprint('connected')";
        Subprocess.Result cut = Subprocess.run(sandbox.wrap(List.of(PYTHON, "-c", connect), workdir, sessionDir),
            workdir, Map.of(), WAIT);
        assertNotEquals(0, cut.exitCode(), cut.output());
        assertTrue(cut.output().contains("ConnectionRefusedError"), cut.output());

        // the same connection with the network allowed: the test above is not failing for another reason
        BubblewrapSandbox open = sandbox(true);
        Subprocess.Result allowed = Subprocess.run(open.wrap(List.of(PYTHON, "-c", connect), workdir, sessionDir),
            workdir, Map.of(), WAIT);
        assertEquals(0, allowed.exitCode(), allowed.output());
        assertTrue(allowed.output().contains("connected"), allowed.output());
      }
      Subprocess.Result dns = Subprocess.run(sandbox.wrap(List.of(PYTHON, "-c",
          "import socket\nsocket.getaddrinfo('pypi.org', 443)\nprint('resolved')"), workdir, sessionDir),
          workdir, Map.of(), WAIT);
      assertNotEquals(0, dns.exitCode(), dns.output());
      assertTrue(dns.output().contains("gaierror"), dns.output());
    }

    @Test
    void theSandboxOutlivesTheThreadThatStartedIt() throws Exception {
      // --die-with-parent follows the parent thread: a pool thread that ends must not take the sandbox with it
      List<String> argv = sandbox(false).wrap(List.of("sleep", "30"), workdir, sessionDir);
      Process[] started = new Process[1];
      Thread starter = new Thread(() -> {
        try {
          started[0] = new ProcessBuilder(argv).start();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      starter.start();
      starter.join();
      Process process = started[0];
      try {
        assertFalse(process.waitFor(2, java.util.concurrent.TimeUnit.SECONDS), "the sandbox died with its starter");
      } finally {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    }

    @Test
    void aDriverUnderTheHostsTmpIsReadableInsideButNotWritable() throws IOException {
      BubblewrapSandbox sandbox = sandbox(false);
      Path checkout = underHostTmp();
      Path driver = Files.writeString(checkout.resolve("driver.sh"), "echo driven\n");
      Path sibling = Files.writeString(underHostTmp().resolve("secret.txt"), "secret\n");
      Subprocess.Result run = Subprocess.run(sandbox.wrap(List.of("sh", driver.toString()), workdir, sessionDir),
          workdir, Map.of(), WAIT);
      assertEquals(0, run.exitCode(), run.output());
      assertEquals("driven\n", run.output());
      Subprocess.Result write = Subprocess.run(sandbox.wrap(List.of("sh", "-c", "echo changed > \"$0\" || exit 3",
          driver.toString()), workdir, sessionDir), workdir, Map.of(), WAIT);
      assertEquals(3, write.exitCode(), write.output());
      assertTrue(write.output().contains("Read-only file system"), write.output());
      assertEquals("echo driven\n", Files.readString(driver));
      // named inside the script, not as a word of the command line: not bound
      Subprocess.Result other = run(sandbox, "cat " + sibling);
      assertNotEquals(0, other.exitCode(), "the rest of the host's /tmp stays hidden: " + other.output());
      assertTrue(other.output().contains("No such file"), other.output());
    }

    @Test
    void anInstallOnThePathUnderTheHostsTmpRunsWithItsLibraries() throws IOException {
      BubblewrapSandbox sandbox = sandbox(false);
      Path prefix = underHostTmp().resolve("tools");
      Files.createDirectories(prefix.resolve("lib"));
      Files.writeString(prefix.resolve("lib/data.txt"), "from lib\n");
      Path tool = Files.createDirectories(prefix.resolve("bin")).resolve("i4j-tool");
      Files.writeString(tool, "#!/bin/sh\ncat \"$(dirname \"$0\")/../lib/data.txt\"\n");
      assertTrue(tool.toFile().setExecutable(true));
      Map<String, String> env = Map.of("PATH", prefix.resolve("bin") + ":" + System.getenv("PATH"));
      LaunchSpec launch = sandbox.wrap(new LaunchSpec(List.of("i4j-tool"), workdir, env, false), sessionDir);
      Subprocess.Result run = Subprocess.run(launch.argv(), workdir, launch.env(), WAIT);
      assertEquals(0, run.exitCode(), run.output());
      assertEquals("from lib\n", run.output());
    }

    @Test
    void aJvmWithItsClassPathUnderTheHostsTmpFindsItsClasses() throws Exception {
      // what a java block does from a checkout under /tmp: java -cp CHECKOUT/target/classes ...
      BubblewrapSandbox sandbox = sandbox(false);
      Path classes = underHostTmp().resolve("target/classes");
      String name = Greeter.class.getName();
      Path file = classes.resolve(name.replace('.', '/') + ".class");
      Files.createDirectories(file.getParent());
      try (var in = Greeter.class.getResourceAsStream(file.getFileName().toString())) {
        Files.write(file, in.readAllBytes());
      }
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Subprocess.Result run = Subprocess.run(sandbox.wrap(List.of(java, "-cp", classes.toString(), name), workdir,
          sessionDir), workdir, Map.of(), WAIT);
      assertEquals(0, run.exitCode(), run.output());
      assertEquals("hello from " + classes + "\n", run.output());
    }

    @Test
    void theCodeHasItsOwnProcessNamespace() {
      Subprocess.Result ps = run(sandbox(false), "echo $$; ls /proc | grep -c '^[0-9]'");
      assertEquals(0, ps.exitCode(), ps.output());
      List<String> lines = ps.output().strip().lines().toList();
      assertEquals("2", lines.get(0), "bwrap's init is 1, the command 2");
      assertTrue(Integer.parseInt(lines.get(1)) < 10, "only the sandbox's processes are visible: " + ps.output());
    }
  }
}
