package io.interpreter4j.cli.chat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a {@code %%} command: {@code bash -c COMMAND} in the working folder, stdin closed, stdout and stderr drained
 * concurrently and handed over as they come, a timeout, and the whole process tree killed on timeout or
 * {@link #interrupt()}. The model never sees it.
 */
public final class ShellCommand {

  public record Result(int exitCode, boolean timedOut, boolean interrupted, long durationMs) {}

  private volatile Process process;
  private volatile boolean interrupted;

  public Result run(String command, Path workdir, Duration timeout, Consumer<String> stdout, Consumer<String> stderr)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    interrupted = false;
    ProcessBuilder pb = new ProcessBuilder(List.of("bash", "-c", command)).directory(workdir.toFile())
        .redirectInput(new File("/dev/null"));
    Process p = pb.start();
    process = p;
    Thread out = drain(p.getInputStream(), stdout, "i4j-shell-stdout");
    Thread err = drain(p.getErrorStream(), stderr, "i4j-shell-stderr");
    boolean finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      killTree(p);
      p.waitFor(5, TimeUnit.SECONDS);
    }
    out.join(5000);
    err.join(5000);
    process = null;
    int exit = finished ? p.exitValue() : 124;
    return new Result(interrupted ? 130 : exit, !finished, interrupted, (System.nanoTime() - start) / 1_000_000);
  }

  /** Kills the running command and everything it started; nothing happens when none runs. */
  public void interrupt() {
    Process p = process;
    if (p != null) {
      interrupted = true;
      killTree(p);
    }
  }

  public boolean running() {
    return process != null;
  }

  private static void killTree(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  private static Thread drain(InputStream in, Consumer<String> sink, String name) {
    Thread t = new Thread(() -> {
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        char[] buf = new char[8192];
        int n;
        while ((n = r.read(buf)) > 0) {
          sink.accept(new String(buf, 0, n));
        }
      } catch (IOException e) {
        // the process was killed
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
