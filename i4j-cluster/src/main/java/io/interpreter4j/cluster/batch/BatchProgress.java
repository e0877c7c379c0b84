package io.interpreter4j.cluster.batch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import io.interpreter4j.batch.progress.Progress;
import io.interpreter4j.batch.progress.ProgressTracker;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The progress of a batch on the cluster as {@code GET /api/batches/{id}} shows it, from what its journal holds: the
 * fields of {@code i4j batch --json}'s {@code batch_progress} ({@link Progress#toJson()}), its {@code id},
 * {@code name}, {@code state} ({@code running} until every task has a result, then {@code done}), {@code results}
 * (result lines) and {@code submitted_at}. The rate counts from the submission; a done batch's time stops at its
 * last result.
 *
 * <p>With the tasks, it also holds {@code tasks}, the dashboard's task list in the shape of a local batch's
 * ({@code BatchBoard}): {@code {id, status, session, error, node}} for each task dispatched or finished, in file order;
 * {@code status} is {@code running} for a task dispatched without a result, else its result's. A batch of thousands
 * of tasks would make every poll of {@code GET /api/batches} (each 2 s, up to 50 batches) large, and the progress
 * crosses the cluster in one message: the list holds at most {@link #TASKS_SHOWN} tasks, chosen as the running ones,
 * then those that ended other than {@code done}, then the latest {@code done}; {@code tasks_omitted} counts the tasks
 * dispatched or finished that it leaves out (every result is at {@code GET /api/batches/{id}/results}); a task's
 * {@code error} is cut to {@value #ERROR_SHOWN} characters.
 */
public final class BatchProgress {
  private BatchProgress() {}

  /**
   * @param results  the results recorded, in order
   * @param running  tasks dispatched that have no result
   * @param lastAtMs when the last result was recorded (epoch milliseconds)
   * @param nowMs    now (epoch milliseconds)
   */
  /** The most tasks {@code tasks} lists. */
  public static final int TASKS_SHOWN = 100;
  /** A task's {@code error} in the list is cut to this many characters (its result line has it whole). */
  static final int ERROR_SHOWN = 300;

  /**
   * What the journal says of a task dispatched or finished.
   *
   * @param dispatched its latest dispatch (null: none recorded, which a finished task normally has)
   * @param result     its result (null: none yet)
   * @param resultNode the node its result came from (null with no result)
   */
  public record TaskState(BatchLog.TaskDispatched dispatched, TaskResult result, String resultNode) {}

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

  /**
   * {@link #json(String, BatchSpec, List, int, long, long)} with {@code tasks} and {@code tasks_omitted}.
   *
   * @param tasks   by task id, each task dispatched or finished
   * @param results the results recorded, in order
   */
  public static ObjectNode json(String id, BatchSpec spec, Map<String, TaskState> tasks, List<TaskResult> results,
                                int running, long lastAtMs, long nowMs) {
    ObjectNode out = json(id, spec, results, running, lastAtMs, nowMs);
    List<String> shown = shown(spec, tasks, results, TASKS_SHOWN);
    ArrayNode list = out.putArray("tasks");
    for (String taskId : shown) {
      TaskState t = tasks.get(taskId);
      ObjectNode n = list.addObject();
      n.put("id", taskId);
      if (t.result() != null) {
        n.put("status", t.result().status().wireName());
        n.put("session", t.result().session() != null ? t.result().session()
            : t.dispatched() != null ? t.dispatched().sessionId() : null);
        n.put("error", cut(t.result().error()));
        n.put("node", t.resultNode());
      } else {
        n.put("status", "running");
        n.put("session", t.dispatched().sessionId());
        n.putNull("error");
        n.put("node", t.dispatched().node());
      }
    }
    out.put("tasks_omitted", tasks.size() - shown.size());
    return out;
  }

  /**
   * The ids of the tasks to list, at most {@code limit}, in file order: those running first, then those finished
   * other than {@code done} (latest first), then the latest {@code done}.
   */
  static List<String> shown(BatchSpec spec, Map<String, TaskState> tasks, List<TaskResult> results, int limit) {
    Set<String> chosen = new LinkedHashSet<>();
    tasks.forEach((taskId, t) -> {
      if (t.result() == null && t.dispatched() != null && chosen.size() < limit) {
        chosen.add(taskId);
      }
    });
    for (int i = results.size() - 1; i >= 0 && chosen.size() < limit; i--) {
      if (results.get(i).status() != TaskStatus.DONE && tasks.containsKey(results.get(i).id())) {
        chosen.add(results.get(i).id());
      }
    }
    for (int i = results.size() - 1; i >= 0 && chosen.size() < limit; i--) {
      if (tasks.containsKey(results.get(i).id())) {
        chosen.add(results.get(i).id());
      }
    }
    return fileOrder(spec, chosen);
  }

  private static String cut(String error) {
    return error == null || error.length() <= ERROR_SHOWN ? error : error.substring(0, ERROR_SHOWN - 3) + "...";
  }

  private static List<String> fileOrder(BatchSpec spec, Collection<String> ids) {
    Map<String, Integer> index = new HashMap<>();
    List<BatchSpec.TaskSpec> all = spec.tasks();
    for (int i = 0; i < all.size(); i++) {
      index.put(all.get(i).id(), i);
    }
    List<String> sorted = new ArrayList<>(ids);
    sorted.sort(Comparator.comparingInt(taskId -> index.getOrDefault(taskId, Integer.MAX_VALUE)));
    return sorted;
  }
}
