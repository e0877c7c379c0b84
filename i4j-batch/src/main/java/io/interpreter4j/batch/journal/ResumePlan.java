package io.interpreter4j.batch.journal;

import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a (re)started batch does, from its tasks and its journal: finished tasks keep their results and do not
 * run again (unless {@code --retry-failed} and they did not end {@code done}, or their definition changed);
 * everything else runs, in file order. Pure.
 *
 * @param toRun    tasks to run, in file order
 * @param kept     results that stand, in the order they finished; the results file must hold exactly these
 * @param retried  finished tasks that run again because of {@code --retry-failed}
 * @param changed  finished tasks that run again because their definition changed
 * @param resumed  tasks that were running when the batch last ended
 * @param orphaned finished tasks that are no longer in the task file (their results are dropped)
 */
public record ResumePlan(List<BatchTask> toRun, List<TaskResult> kept, List<String> retried, List<String> changed,
                         List<String> resumed, List<String> orphaned) {

  public ResumePlan {
    toRun = List.copyOf(toRun);
    kept = List.copyOf(kept);
    retried = List.copyOf(retried);
    changed = List.copyOf(changed);
    resumed = List.copyOf(resumed);
    orphaned = List.copyOf(orphaned);
  }

  public static ResumePlan of(List<BatchTask> tasks, JournalState state, boolean retryFailed) {
    Map<String, BatchTask> byId = new LinkedHashMap<>();
    tasks.forEach(t -> byId.put(t.id(), t));
    List<TaskResult> kept = new ArrayList<>();
    List<String> retried = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<String> orphaned = new ArrayList<>();
    for (Map.Entry<String, JournalState.Finished> e : state.finished().entrySet()) {
      BatchTask task = byId.get(e.getKey());
      TaskResult result = e.getValue().result();
      if (task == null) {
        orphaned.add(e.getKey());
      } else if (!task.fingerprint().equals(e.getValue().fingerprint())) {
        changed.add(task.id());
      } else if (retryFailed && !result.done()) {
        retried.add(task.id());
      } else {
        kept.add(result);
      }
    }
    Set<String> keptIds = kept.stream().map(TaskResult::id).collect(Collectors.toSet());
    List<BatchTask> toRun = new ArrayList<>();
    List<String> resumed = new ArrayList<>();
    for (BatchTask task : tasks) {
      if (!keptIds.contains(task.id())) {
        toRun.add(task);
        if (state.wasRunning(task.id())) {
          resumed.add(task.id());
        }
      }
    }
    return new ResumePlan(toRun, kept, retried, changed, resumed, orphaned);
  }
}
