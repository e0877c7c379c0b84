package io.interpreter4j.runtime.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A short command run to completion: probes ({@code bwrap ... true}, {@code docker info}) and one-off steps
 * ({@code python -m venv}). Output (stdout and stderr merged) is drained on its own thread and kept up to a bound;
 * stdin is /dev/null; past the timeout the whole process tree is killed. Blocking: call off actor threads.
 */
public final class Subprocess {

  /** Output kept per command; the rest is read and dropped. */
  private static final int MAX_KEPT = 64 * 1024;

  /** How a command ended: exit code (-1 when it could not start or timed out) and its output. */
  public record Result(int exitCode, String output, boolean timedOut) {
    public boolean ok() {
      return exitCode == 0 && !timedOut;
    }

    /** The last non-blank line of the output, for one-line error messages. */
    public String lastLine() {
      List<String> lines = output.strip().lines().filter(l -> !l.isBlank()).toList();
      return lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
    }
  }

  private Subprocess() {}

  public static Result run(List<String> argv, Path workdir, Map<String, String> env, Duration timeout) {
    ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    if (workdir != null) {
      builder.directory(workdir.toFile());
    }
    if (env != null) {
      builder.environment().putAll(env);
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return new Result(-1, e.getMessage() == null ? e.toString() : e.getMessage(), false);
    }
    ByteArrayOutputStream kept = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> drain(process.getInputStream(), kept), "i4j-subprocess-" + process.pid());
    reader.setDaemon(true);
    reader.start();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        reader.join(1000);
        return new Result(-1, text(kept), true);
      }
      reader.join(5000);
      return new Result(process.exitValue(), text(kept), false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      return new Result(-1, "interrupted", false);
    }
  }

  /** The first executable {@code name} on the PATH or in the usual system folders. */
  public static Optional<Path> executable(String name) {
    String path = System.getenv("PATH");
    java.util.LinkedHashSet<String> dirs = new java.util.LinkedHashSet<>();
    if (path != null) {
      dirs.addAll(List.of(path.split(File.pathSeparator)));
    }
    dirs.addAll(List.of("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/opt/homebrew/bin"));
    for (String dir : dirs) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static void drain(InputStream in, ByteArrayOutputStream kept) {
    byte[] buffer = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buffer)) != -1) {
        synchronized (kept) {
          int room = MAX_KEPT - kept.size();
          if (room > 0) {
            kept.write(buffer, 0, Math.min(room, n));
          }
        }
      }
    } catch (IOException ignored) {
      // the process is gone; what was read is kept
    }
  }

  private static String text(ByteArrayOutputStream kept) {
    synchronized (kept) {
      return kept.toString(StandardCharsets.UTF_8);
    }
  }
}
