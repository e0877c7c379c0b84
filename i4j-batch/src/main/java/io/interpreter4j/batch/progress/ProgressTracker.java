package io.interpreter4j.batch.progress;

import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Counts a batch's tasks as they start and finish and computes its rate, ETA and task-time percentiles. Pure:
 * the caller passes the time ({@code System.nanoTime()} in production, anything in tests).
 */
public final class ProgressTracker {

  private final int total;
  private final long startNanos;
  private final Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
  private final List<Long> durations = new ArrayList<>();
  private int finished;
  private int finishedThisRun;
  private int running;

  /**
   * @param total      every task of the batch
   * @param previous   results of tasks finished in earlier runs (they count, but not for the rate)
   * @param startNanos when this run started
   */
  public ProgressTracker(int total, List<TaskResult> previous, long startNanos) {
    this.total = total;
    this.startNanos = startNanos;
    for (TaskResult r : previous) {
      count(r);
    }
  }

  public void started() {
    running++;
  }

  public void finished(TaskResult result) {
    running = Math.max(0, running - 1);
    finishedThisRun++;
    count(result);
  }

  /** A running task was stopped without a result (the batch is stopping). */
  public void abandoned() {
    running = Math.max(0, running - 1);
  }

  private void count(TaskResult r) {
    finished++;
    counts.merge(r.status(), 1L, Long::sum);
    durations.add(r.durationMs());
  }

  public Progress snapshot(long nowNanos) {
    long elapsedMs = Math.max(0, (nowNanos - startNanos) / 1_000_000);
    double rate = elapsedMs == 0 ? 0 : finishedThisRun * 60_000.0 / elapsedMs;
    int queued = Math.max(0, total - finished - running);
    long eta = -1;
    if (finished == total) {
      eta = 0;
    } else if (finishedThisRun > 0) {
      eta = Math.round((total - finished) * (double) elapsedMs / finishedThisRun);
    }
    return new Progress(total, finished, running, queued, counts, rate, eta, elapsedMs);
  }

  public BatchSummary summary(long nowNanos, boolean stopped, long invalid, Path results, Path journal) {
    List<Long> sorted = new ArrayList<>(durations);
    Collections.sort(sorted);
    return new BatchSummary(total, counts, total - finished, invalid, Math.max(0, (nowNanos - startNanos) / 1_000_000),
        percentile(sorted, 50), percentile(sorted, 95), stopped, results, journal);
  }

  /** Nearest-rank percentile of sorted values; 0 for none. */
  public static long percentile(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.min(sorted.size(), Math.max(1, rank)) - 1);
  }
}
