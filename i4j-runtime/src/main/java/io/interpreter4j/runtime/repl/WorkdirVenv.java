package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The virtual environment of a working directory, {@code WORKDIR/.venv}: checked, created once (through the
 * sandbox, with the session's python) and reused. Blocking: call off actor threads.
 */
final class WorkdirVenv {

  static final String DIR = ".venv";

  private static final Duration CREATE_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(60);
  /** Whether a python (as run in a sandbox) is in a virtual environment; asked once per JVM. */
  private static final Map<String, Boolean> VIRTUAL = new ConcurrentHashMap<>();
  private static final Map<String, Object> ASKING = new ConcurrentHashMap<>();
  /** One creation at a time per folder, for the python and bash workers of sessions sharing a working directory. */
  private static final Map<Path, Object> LOCKS = new ConcurrentHashMap<>();

  /**
   * True for a venv or virtualenv (sys.prefix != sys.base_prefix) and for a named conda environment; false for a
   * system, pyenv or conda base python.
   */
  private static final String ASK = "import os, sys\n"
      + "named_conda = os.path.isdir(os.path.join(sys.prefix, 'conda-meta')) and "
      + "os.path.basename(os.path.dirname(sys.prefix)) == 'envs'\n"
      + "print('i4j-venv', int(sys.prefix != sys.base_prefix or named_conda))";

  private final Path dir;

  WorkdirVenv(Path workdir) {
    this.dir = workdir.toAbsolutePath().normalize().resolve(DIR);
  }

  Path dir() {
    return dir;
  }

  Path bin() {
    return dir.resolve("bin");
  }

  Path python() {
    return bin().resolve("python");
  }

  /** Something is at {@code WORKDIR/.venv}, valid or not. */
  boolean exists() {
    return Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
  }

  /** A virtual environment: {@code pyvenv.cfg} and {@code bin/python} (which may link into a container's python). */
  boolean isValid() {
    Path python = python();
    return Files.isRegularFile(dir.resolve("pyvenv.cfg"))
        && (Files.isExecutable(python) || Files.isSymbolicLink(python));
  }

  /** Creates the environment with {@code python -m venv} unless it is there already. */
  void ensure(Sandbox sandbox, String python, Path workdir, Path sessionDir) {
    synchronized (LOCKS.computeIfAbsent(dir, d -> new Object())) {
      if (isValid()) {
        return;
      }
      if (exists()) {
        throw new IllegalStateException(dir + " exists but is not a virtual environment (no pyvenv.cfg or bin/python):"
            + " remove or rename it, or set interpreter4j.python.venv = off");
      }
      List<String> argv = sandbox.wrap(List.of(python, "-m", "venv", dir.toString()), workdir, sessionDir);
      Subprocess.Result result = Subprocess.run(argv, workdir, Map.of(), CREATE_TIMEOUT);
      if (!result.ok() || !isValid()) {
        deleteQuietly(dir);
        String why = result.timedOut() ? "it did not finish within " + CREATE_TIMEOUT.toMinutes() + " min"
            : result.lastLine().isEmpty() ? "exit code " + result.exitCode() : result.lastLine();
        throw new IllegalStateException("could not create the virtual environment " + dir + " for pip installs ("
            + python + " -m venv: " + why + "); install python's venv module (apt-get install python3-venv) or set "
            + "interpreter4j.python.venv = off");
      }
    }
  }

  /** Whether {@code python}, run in {@code sandbox}, is itself in a virtual environment (so pip is local already). */
  static boolean isVirtual(Sandbox sandbox, String python, Path workdir, Path sessionDir) {
    String key = sandbox.name() + "|" + python;
    Boolean known = VIRTUAL.get(key);
    if (known != null) {
      return known;
    }
    // one question at a time per python: sessions started together (a batch's first 16) would each start one
    synchronized (ASKING.computeIfAbsent(key, k -> new Object())) {
      known = VIRTUAL.get(key);
      if (known != null) {
        return known;
      }
      List<String> argv = sandbox.wrap(List.of(python, "-c", ASK), workdir, sessionDir);
      Subprocess.Result result = Subprocess.run(argv, workdir, Map.of(), ASK_TIMEOUT);
      if (!result.ok()) {
        return false; // not remembered: the interpreter's own start will report what is wrong
      }
      boolean virtual = result.output().contains("i4j-venv 1");
      VIRTUAL.put(key, virtual);
      return virtual;
    }
  }

  private static void deleteQuietly(Path root) {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          Files.deleteIfExists(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException ignored) {
      // a half-made environment is reported as "not a virtual environment" next time
    }
  }
}
