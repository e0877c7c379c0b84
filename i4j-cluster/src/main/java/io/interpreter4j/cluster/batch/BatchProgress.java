package io.interpreter4j.cluster.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.progress.Progress;
import io.interpreter4j.batch.progress.ProgressTracker;
import java.time.Instant;
import java.util.List;

/**
 * The progress of a batch on the cluster as {@code GET /api/batches/{id}} shows it, from what its journal holds: the
 * fields of {@code i4j batch --json}'s {@code batch_progress} ({@link Progress#toJson()}), its {@code id},
 * {@code name}, {@code state} ({@code running} until every task has a result, then {@code done}), {@code results}
 * (result lines) and {@code submitted_at}. The rate counts from the submission; a done batch's time stops at its
 * last result.
 */
public final class BatchProgress {
  private BatchProgress() {}

  /**
   * @param results  the results recorded, in order
   * @param running  tasks dispatched that have no result
   * @param lastAtMs when the last result was recorded (epoch milliseconds)
   * @param nowMs    now (epoch milliseconds)
   */
  public static ObjectNode json(String id, BatchSpec spec, List<TaskResult> results, int running, long lastAtMs,
                                long nowMs) {
    int total = spec.tasks().size();
    boolean done = results.size() >= total;
    long elapsedMs = Math.max(0, (done && lastAtMs > 0 ? lastAtMs : nowMs) - spec.submittedAtMs());
    ProgressTracker tracker = new ProgressTracker(total, List.of(), 0);
    for (TaskResult r : results) {
      tracker.started();
      tracker.finished(r);
    }
    for (int i = 0; i < Math.min(running, total - results.size()); i++) {
      tracker.started();
    }
    Progress progress = tracker.snapshot(elapsedMs * 1_000_000);
    ObjectNode n = progress.toJson();
    ObjectNode out = n.objectNode();
    out.put("id", id);
    out.put("name", spec.name());
    out.put("state", done ? "done" : "running");
    out.setAll(n);
    out.put("results", results.size());
    out.put("parallel", spec.options().parallel());
    out.put("submitted_at", Instant.ofEpochMilli(spec.submittedAtMs()).toString());
    return out;
  }
}
