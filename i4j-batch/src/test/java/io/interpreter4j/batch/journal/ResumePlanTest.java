package io.interpreter4j.batch.journal;

import static io.interpreter4j.batch.journal.BatchJournalTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResumePlanTest {

  private final BatchTask a = BatchTask.ofPrompt("a", 1, "prompt a");
  private final BatchTask b = BatchTask.ofPrompt("b", 2, "prompt b");
  private final BatchTask c = BatchTask.ofPrompt("c", 3, "prompt c");
  private final BatchTask d = BatchTask.ofPrompt("d", 4, "prompt d");

  private static String finished(BatchTask t, TaskStatus status) {
    return "{\"type\":\"task_finished\",\"id\":\"" + t.id() + "\",\"fp\":\"" + t.fingerprint() + "\",\"result\":"
        + result(t.id(), status).toJsonLine() + "}";
  }

  private static String started(BatchTask t) {
    return "{\"type\":\"task_started\",\"id\":\"" + t.id() + "\",\"fp\":\"" + t.fingerprint() + "\"}";
  }

  private static List<String> ids(List<BatchTask> tasks) {
    return tasks.stream().map(BatchTask::id).toList();
  }

  private static List<String> resultIds(List<TaskResult> results) {
    return results.stream().map(TaskResult::id).toList();
  }

  @Test
  void aFreshBatchRunsEverythingInFileOrder() {
    ResumePlan p = ResumePlan.of(List.of(a, b, c), JournalState.empty(), false);
    assertEquals(List.of("a", "b", "c"), ids(p.toRun()));
    assertEquals(List.of(), p.kept());
  }

  @Test
  void finishedTasksKeepTheirResultsAndRunningOnesRunAgain() {
    JournalState s = JournalState.replay(List.of(started(a), started(b), started(c), finished(c, TaskStatus.DONE),
        finished(a, TaskStatus.TIMEOUT)));
    ResumePlan p = ResumePlan.of(List.of(a, b, c, d), s, false);
    assertEquals(List.of("c", "a"), resultIds(p.kept()), "in the order they finished");
    assertEquals(List.of("b", "d"), ids(p.toRun()));
    assertEquals(List.of("b"), p.resumed());
  }

  @Test
  void retryFailedRunsAgainWhatDidNotEndDone() {
    JournalState s = JournalState.replay(List.of(finished(a, TaskStatus.DONE), finished(b, TaskStatus.GAVE_UP),
        finished(c, TaskStatus.ERROR)));
    ResumePlan p = ResumePlan.of(List.of(a, b, c), s, true);
    assertEquals(List.of("a"), resultIds(p.kept()));
    assertEquals(List.of("b", "c"), p.retried());
    assertEquals(List.of("b", "c"), ids(p.toRun()));
  }

  @Test
  void aTaskThatChangedRunsAgainAndOneThatWasRemovedIsDropped() {
    JournalState s = JournalState.replay(List.of(finished(a, TaskStatus.DONE), finished(b, TaskStatus.DONE)));
    BatchTask changedA = BatchTask.ofPrompt("a", 1, "a new prompt");
    ResumePlan p = ResumePlan.of(List.of(changedA, c), s, false);
    assertEquals(List.of("a"), p.changed());
    assertEquals(List.of("b"), p.orphaned());
    assertEquals(List.of("a", "c"), ids(p.toRun()));
    assertEquals(List.of(), p.kept());
  }

  @Test
  void everyTaskIsEitherKeptOrRunNeverBoth() {
    List<String> lines = new ArrayList<>();
    lines.add(finished(a, TaskStatus.DONE));
    lines.add(started(a));
    lines.add(finished(b, TaskStatus.FAILED));
    lines.add("{\"type\":\"task_requeued\",\"id\":\"b\"}");
    lines.add(finished(c, TaskStatus.FAILED));
    ResumePlan p = ResumePlan.of(List.of(a, b, c), JournalState.replay(lines), false);
    assertEquals(List.of("c"), resultIds(p.kept()));
    assertEquals(List.of("a", "b"), ids(p.toRun()));
  }
}
