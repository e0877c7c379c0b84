package io.interpreter4j.bench.sse;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Starts {@link SseClientsMain} in a separate JVM on the harness's own classpath and speaks its line protocol. */
final class SseClientsProcess implements AutoCloseable {

  /** The clients' JVM: one selector thread, a small heap, the serial collector (no GC threads on the 2 cores). */
  static final List<String> JVM_OPTIONS = List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC");

  private final Process process;
  private final BufferedReader out;

  SseClientsProcess(String baseUrl, String path, String token, int clients, int seconds, int measuredTurns)
      throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> argv = new java.util.ArrayList<>(List.of(java));
    argv.addAll(JVM_OPTIONS);
    argv.addAll(List.of("-cp", System.getProperty("java.class.path"), SseClientsMain.class.getName(), baseUrl, path,
        token, Integer.toString(clients), Integer.toString(seconds), Integer.toString(measuredTurns)));
    this.process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  long pid() {
    return process.pid();
  }

  /** Waits for every client to have seen the first turn. */
  void awaitCaughtUp(int seconds) throws Exception {
    String line = nextLine(seconds);
    if (line == null) {
      throw new IllegalStateException("the SSE clients' JVM exited (exit " + process.waitFor()
          + ") before every client had the session's first turn; its messages are on stderr above");
    }
    if (!"caught_up".equals(line)) {
      throw new IllegalStateException("the SSE clients' JVM said '" + line + "' instead of caught_up");
    }
  }

  /** Lags are counted for events stamped at or after {@code epochNanos}. */
  void measureFrom(long epochNanos) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write(("measure_from " + epochNanos + "\n").getBytes(StandardCharsets.US_ASCII));
    in.flush();
  }

  /** The clients' result for the turn being measured: clients_saw_whole_turn, all_clients_complete, deliveries, lag (Samples JSON). */
  JsonNode result(int seconds) throws Exception {
    String line = nextLine(seconds);
    if (line == null) {
      throw new IllegalStateException("the SSE clients' JVM exited without a result (exit " + process.waitFor() + ")");
    }
    return EventCodec.mapper().readTree(line);
  }

  private String nextLine(int seconds) throws Exception {
    CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
      try {
        return out.readLine();
      } catch (IOException e) {
        return null;
      }
    });
    try {
      return line.get(seconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("the SSE clients' JVM said nothing within " + seconds + " s", e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
