package io.interpreter4j.batch.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.progress.Progress;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Follows a batch that runs on a server as {@code i4j batch} follows its own: polls its progress and its new result
 * lines about twice a second, writes each line to the results file as it comes, and tells the same listeners (the
 * progress bar, the plain lines, the {@code --json} printer) as a local batch does. A server that stops answering
 * (a restart) is waited for up to {@link #PATIENCE}.
 */
public final class ServerBatchFollower {

  /** Exit code when the server cannot be asked (unreachable, the token refused, an unexpected answer). */
  public static final int SERVER_ERROR = 3;
  /** Exit code when following was stopped (Ctrl-C, SIGTERM); the batch goes on on the server. */
  public static final int STOPPED = 130;

  static final Duration POLL = Duration.ofMillis(500);
  static final Duration PATIENCE = Duration.ofSeconds(60);

  private final BatchServerClient client;
  private final String id;
  private final Path out;
  private final List<BatchListener> listeners;
  private final PrintStream err;
  private final CountDownLatch stop;
  /** Tasks whose task_started the listeners heard (at most the batch's task count). */
  private final Set<String> started = new HashSet<>();

  /**
   * @param out  the results file: created, or emptied, then a line appended per finished task
   * @param stop counted down to stop following (the batch is not stopped)
   */
  public ServerBatchFollower(BatchServerClient client, String id, Path out, List<BatchListener> listeners,
                             PrintStream err, CountDownLatch stop) {
    this.client = client;
    this.id = id;
    this.out = out.toAbsolutePath().normalize();
    this.listeners = new ArrayList<>(listeners);
    this.err = err;
    this.stop = stop;
  }

  /** Follows the batch to its end; returns the exit code of {@code i4j batch}. */
  public int follow() throws InterruptedException {
    Path parent = out.getParent();
    try {
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      err.println("i4j batch: cannot write the results file " + out + ": " + e.getMessage() + followLater());
      return 1;
    }
    try (BufferedWriter results = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      JsonNode status = poll(() -> client.progress(id));
      if (status == null) {
        return stopped();
      }
      Progress progress = Progress.fromJson(status);
      Progress first = progress;
      tell(l -> l.onBatchStarted(first));
      startedTasks(status, progress);
      int got = 0;
      while (true) {
        if (got < status.path("results").asInt()) {
          final int from = got;
          List<String> lines = poll(() -> client.results(id, from));
          if (lines == null) {
            return stopped();
          }
          for (String line : lines) {
            results.write(line);
            results.write('\n');
            results.flush();
            got++;
            finished(line, progress);
          }
          if (!lines.isEmpty() && got < status.path("results").asInt()) {
            continue; // more lines than one answer gives
          }
        }
        String state = status.path("state").asText();
        if (state.equals("done") && got >= status.path("results").asInt()) {
          // a single server gives its summary; a cluster's progress has the same counts (total, counts, invalid)
          BatchSummary summary = BatchSummary.fromJson(status.has("summary") ? status.get("summary") : status, out,
              null);
          tell(l -> l.onBatchFinished(summary));
          return summary.exitCode();
        }
        if (state.equals("interrupted")) {
          err.println("i4j batch: batch " + id + " was interrupted on the server: "
              + status.path("error").asText("no reason given") + followLater());
          return 1;
        }
        if (stop.await(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
          return stopped();
        }
        status = poll(() -> client.progress(id));
        if (status == null) {
          return stopped();
        }
        progress = Progress.fromJson(status);
        startedTasks(status, progress);
        Progress now = progress;
        tell(l -> l.onProgress(now));
      }
    } catch (IOException e) {
      err.println("i4j batch: cannot write the results file " + out + ": " + e.getMessage() + followLater());
      return 1;
    } catch (BatchServerClient.ServerException e) {
      err.println("i4j batch: " + e.getMessage() + followLater());
      return SERVER_ERROR;
    }
  }

  /** The last summary line after Ctrl-C: where the batch goes on and how to read its results. */
  private int stopped() {
    err.println();
    err.println("i4j batch: stopped following; batch " + id + " goes on on the server" + followLater());
    return STOPPED;
  }

  private String followLater() {
    String base = client.base().toString();
    return "\ni4j batch: its progress: GET " + base + "api/batches/" + id + "; its results: GET " + base
        + "api/batches/" + id + "/results (with Authorization: Bearer $I4J_TOKEN)";
  }

  private void finished(String line, Progress progress) {
    TaskResult result;
    try {
      result = TaskResult.fromJsonLine(line);
    } catch (RuntimeException e) {
      err.println("i4j batch: a result line from the server is not a task result (kept in " + out + "): "
          + e.getMessage());
      return;
    }
    if (started.add(result.id())) {
      // it ran between two polls: its start is told now, just before its end
      taskStarted(result.id(), result.session(), progress);
    }
    tell(l -> l.onTaskFinished(result, progress));
  }

  /**
   * The tasks the server says are running that the listeners have not heard of yet: a single server's
   * {@code running_tasks}, or a cluster's {@code tasks} whose status is {@code running}.
   */
  private void startedTasks(JsonNode status, Progress progress) {
    JsonNode running = status.has("running_tasks") ? status.path("running_tasks") : status.path("tasks");
    for (JsonNode t : running) {
      String task = t.path("id").asText();
      boolean isRunning = !t.has("status") || t.path("status").asText().equals("running");
      if (!task.isEmpty() && isRunning && started.add(task)) {
        taskStarted(task, t.path("session").asText(null), progress);
      }
    }
  }

  /**
   * A task started on the server. Its session is there: the event carries no {@code ActorRef} (null), which the
   * printers do not use.
   */
  private void taskStarted(String task, String session, Progress progress) {
    BatchListener.TaskStarted event = new BatchListener.TaskStarted(BatchTask.ofPrompt(task, 0, ""), session, null);
    tell(l -> l.onTaskStarted(event, progress));
  }

  private void tell(Consumer<BatchListener> call) {
    for (BatchListener listener : List.copyOf(listeners)) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        listeners.remove(listener);
      }
    }
  }

  private interface Call<T> {
    T get() throws BatchServerClient.ServerException, InterruptedException;
  }

  /**
   * Asks until answered: a server that cannot be reached is asked again every poll for up to {@link #PATIENCE}
   * (it may be restarting; its batches resume). Null when following is stopped meanwhile.
   */
  private <T> T poll(Call<T> call) throws BatchServerClient.ServerException, InterruptedException {
    long deadline = 0;
    boolean said = false;
    while (true) {
      try {
        T answer = call.get();
        if (said) {
          err.println("i4j batch: the server answers again");
        }
        return answer;
      } catch (BatchServerClient.Unreachable e) {
        long now = System.nanoTime();
        if (deadline == 0) {
          deadline = now + PATIENCE.toNanos();
        } else if (now - deadline > 0) {
          throw new BatchServerClient.ServerException(e.getMessage() + "; gave up after "
              + PATIENCE.toSeconds() + " s");
        }
        if (!said) {
          err.println("i4j batch: " + e.getMessage() + "; trying again for " + PATIENCE.toSeconds() + " s");
          said = true;
        }
      }
      if (stop.await(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
        return null;
      }
    }
  }
}
