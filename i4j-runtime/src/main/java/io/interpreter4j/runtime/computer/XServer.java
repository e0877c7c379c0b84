package io.interpreter4j.runtime.computer;

import io.interpreter4j.runtime.sandbox.Subprocess;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A private X server: an Xvfb with a 24-bit screen of the configured size, 96 dpi, listening on its Unix socket
 * only ({@code -nolisten tcp}), and kept as it is when its last client leaves ({@code -noreset}: a reset would put
 * the pointer back in the middle between two xdotool calls). It tells us its display number once it accepts
 * connections ({@code -displayfd}), so nobody waits by polling. {@link #exited()} completes when it ends, for
 * whatever reason. Blocking: start it off actor threads.
 */
public final class XServer implements AutoCloseable {

  /** How long an Xvfb may take to accept connections. */
  static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
  /** The first display number tried for a new screen, clear of the ones desktops use. */
  static final int FIRST_NUMBER = 20;
  static final String MISSING = "computer use needs a screen: $DISPLAY is not set and Xvfb is not installed "
      + "(apt-get install xvfb xdotool imagemagick)";

  private final Process process;
  private final int number;
  /** Kills the server when the JVM exits without stopping the session first. */
  private final Thread onExit;

  private XServer(Process process, int number) {
    this.process = process;
    this.number = number;
    this.onExit = new Thread(process::destroy, "i4j-xvfb-" + number + "-exit"); // SIGTERM: it removes its socket
    Runtime.getRuntime().addShutdownHook(onExit);
  }

  /** Whether an Xvfb can be started here. */
  public static boolean available() {
    return Subprocess.executable("Xvfb").isPresent();
  }

  /**
   * A number no X server uses now, by its lock file and socket; {@link #start} moves on when another server takes it
   * meanwhile.
   */
  public static int freeNumber() {
    for (int n = FIRST_NUMBER; n < FIRST_NUMBER + 1000; n++) {
      if (!Files.exists(Path.of("/tmp/.X" + n + "-lock")) && !Files.exists(socket(n))) {
        return n;
      }
    }
    throw new IllegalStateException("no free X display number between " + FIRST_NUMBER + " and "
        + (FIRST_NUMBER + 999) + " (remove stale /tmp/.X*-lock files)");
  }

  /** The Unix socket of display {@code :n}. */
  public static Path socket(int n) {
    return Path.of("/tmp/.X11-unix/X" + n);
  }

  /**
   * Starts an Xvfb on {@code :number} and returns once it accepts connections.
   *
   * @throws IllegalStateException when Xvfb is missing, exits or does not get ready; the message says why
   */
  public static XServer start(int number, int width, int height) {
    String xvfb = Subprocess.executable("Xvfb").map(Path::toString).orElseThrow(() -> new IllegalStateException(MISSING));
    List<String> argv = List.of(xvfb, ":" + number, "-displayfd", "1", "-screen", "0", width + "x" + height + "x24",
        "-dpi", "96", "-nolisten", "tcp", "-noreset");
    ProcessBuilder builder = new ProcessBuilder(argv)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start Xvfb: " + e.getMessage(), e);
    }
    CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
      try {
        BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.US_ASCII));
        String line = reader.readLine(); // the display number, written once the server accepts connections
        return line == null ? "" : line.strip();
      } catch (IOException e) {
        return "";
      }
    });
    try {
      String line = ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      if (!line.equals(Integer.toString(number))) {
        kill(process);
        throw new IllegalStateException("Xvfb could not open display :" + number + " (it is in use, or Xvfb failed)");
      }
    } catch (TimeoutException e) {
      kill(process);
      throw new IllegalStateException("Xvfb did not accept connections within " + READY_TIMEOUT.toSeconds() + " s");
    } catch (ExecutionException e) {
      kill(process);
      throw new IllegalStateException("Xvfb failed: " + e.getCause(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill(process);
      throw new IllegalStateException("interrupted while starting Xvfb", e);
    }
    return new XServer(process, number);
  }

  public int number() {
    return number;
  }

  /** {@code :N}, the value of {@code DISPLAY}. */
  public String display() {
    return ":" + number;
  }

  public long pid() {
    return process.pid();
  }

  /** Completes when the server has ended. */
  public CompletableFuture<Process> exited() {
    return process.onExit();
  }

  public Optional<Integer> exitCode() {
    return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
  }

  @Override
  public void close() {
    kill(process);
    try {
      Runtime.getRuntime().removeShutdownHook(onExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway; the process is gone already
    }
  }

  private static void kill(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(2, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(2, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
