package io.interpreter4j.batch.cli;

import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.client.BatchServerClient;
import io.interpreter4j.batch.client.ServerBatchFollower;
import io.interpreter4j.batch.progress.ProgressFormat;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.SignalHandler;

/**
 * {@code i4j batch TASKS --server URL} once its options are checked: submits the task file, prints the server's
 * problems as {@code FILE:LINE: message}, then follows the batch to its end with the printers of a local batch.
 */
final class ServerBatchRun {

  private final BatchEnvironment environment;
  private final PrintStream err;
  private final Path tasksFile;
  private final Path results;
  private final boolean json;
  private final List<BatchListener> listeners;

  /**
   * @param tasksFile the task file as given (for messages)
   * @param results   the absolute {@code --out}
   * @param listeners the progress printers
   */
  ServerBatchRun(BatchEnvironment environment, Path tasksFile, Path results, boolean json,
                 List<BatchListener> listeners) {
    this.environment = environment;
    this.err = environment.err();
    this.tasksFile = tasksFile;
    this.results = results;
    this.json = json;
    this.listeners = new ArrayList<>(listeners);
  }

  /** Returns the exit code of {@code i4j batch}. */
  int run(BatchServerClient client, String text, Map<String, String> params) throws InterruptedException {
    BatchServerClient.Accepted accepted;
    try {
      accepted = client.submit(text, params);
    } catch (BatchServerClient.Rejected e) {
      if (e.problems().isEmpty()) {
        return usage("the server rejected the batch: " + e.getMessage());
      }
      printProblems(e.problems());
      long lines = e.problems().stream().filter(p -> p.line() > 0).mapToInt(p -> p.line()).distinct().count();
      return usage((lines == 0 ? "the task file" : lines + " invalid line(s) in " + tasksFile)
          + " was rejected by the server; nothing was started."
          + (lines == 0 ? "" : " Fix them, or pass --skip-invalid to run the valid tasks"));
    } catch (BatchServerClient.ServerException e) {
      err.println("i4j batch: " + e.getMessage());
      return ServerBatchFollower.SERVER_ERROR;
    }
    // before saying its id: from then on Ctrl-C stops following and says how to find the batch
    CountDownLatch stop = new CountDownLatch(1);
    Runnable restore = environment.handleSignals() ? followSignals(stop) : () -> { };
    printProblems(accepted.skipped());
    err.println("i4j batch: " + accepted.total() + " task(s) submitted to " + client.origin() + " as batch "
        + accepted.id() + "; running " + params.get("parallel") + " at a time there"
        + ("true".equals(params.get("yes")) ? "" : "; without -y code blocks end blocked")
        + "\ni4j batch: results: " + results + " (Ctrl-C stops following; the batch goes on on the server)");
    try {
      AtomicReference<BatchSummary> last = new AtomicReference<>();
      listeners.add(new BatchListener() {
        @Override
        public void onBatchFinished(BatchSummary summary) {
          last.set(summary);
        }
      });
      int code = new ServerBatchFollower(client, accepted.id(), results, listeners, err, stop).follow();
      if (last.get() != null) {
        (json ? err : environment.out()).println(ProgressFormat.summary(last.get()));
      }
      return code;
    } finally {
      restore.run();
    }
  }

  private void printProblems(List<BatchServerClient.Problem> problems) {
    for (var p : problems) {
      err.println("i4j batch: " + tasksFile + (p.line() > 0 ? ":" + p.line() : "") + ": "
          + p.message());
    }
  }

  /** Ctrl-C or SIGTERM stops following (the batch goes on); a second one exits at once. */
  private Runnable followSignals(CountDownLatch stop) {
    AtomicInteger count = new AtomicInteger();
    SignalHandler handler = signal -> {
      if (count.incrementAndGet() == 1) {
        stop.countDown();
      } else {
        Runtime.getRuntime().halt(130);
      }
    };
    return BatchCommand.onStopSignals(handler);
  }

  private int usage(String message) {
    err.println("i4j batch: " + message);
    return 2;
  }
}
