package io.interpreter4j.batch.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTrackerTest {

  private static final long MS = 1_000_000;

  private static TaskResult result(String id, TaskStatus status, long ms) {
    return new TaskResult(id, status, "s", 1, 0, 0, ms, 0, 0, null, null);
  }

  @Test
  void countsQueuedRunningAndFinished() {
    ProgressTracker t = new ProgressTracker(10, List.of(), 0);
    t.started();
    t.started();
    t.started();
    t.finished(result("a", TaskStatus.DONE, 100));
    t.finished(result("b", TaskStatus.TIMEOUT, 100));
    Progress p = t.snapshot(1000 * MS);
    assertEquals(2, p.finished());
    assertEquals(1, p.running());
    assertEquals(7, p.queued());
    assertEquals(1, p.done());
    assertEquals(1, p.notDone());
    assertEquals(1, p.counts().get(TaskStatus.TIMEOUT));
    assertEquals(20.0, p.percent());
  }

  @Test
  void rateAndEtaComeFromThisRunOnly() {
    List<TaskResult> earlier = List.of(result("x", TaskStatus.DONE, 50), result("y", TaskStatus.DONE, 50));
    ProgressTracker t = new ProgressTracker(12, earlier, 0);
    assertEquals(-1, t.snapshot(5000 * MS).etaMs(), "unknown until a task of this run finished");
    assertEquals(0.0, t.snapshot(5000 * MS).ratePerMin());
    for (int i = 0; i < 5; i++) {
      t.started();
      t.finished(result("t" + i, TaskStatus.DONE, 100));
    }
    Progress p = t.snapshot(10_000 * MS);
    assertEquals(7, p.finished());
    assertEquals(30.0, p.ratePerMin(), 1e-9, "5 tasks in 10 s");
    assertEquals(10_000, p.etaMs(), "5 left at 2 s each");
  }

  @Test
  void etaIsZeroWhenEverythingFinished() {
    ProgressTracker t = new ProgressTracker(1, List.of(), 0);
    t.started();
    t.finished(result("a", TaskStatus.DONE, 1));
    assertEquals(0, t.snapshot(10 * MS).etaMs());
    assertEquals(100.0, t.snapshot(10 * MS).percent());
  }

  @Test
  void percentilesAreNearestRank() {
    List<Long> values = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
    assertEquals(5, ProgressTracker.percentile(values, 50));
    assertEquals(10, ProgressTracker.percentile(values, 95));
    assertEquals(1, ProgressTracker.percentile(values, 0));
    assertEquals(0, ProgressTracker.percentile(List.of(), 50));
    assertEquals(7, ProgressTracker.percentile(List.of(7L), 95));
  }

  @Test
  void theSummaryCoversEveryResultAndTheExitCodeFollowsIt() {
    ProgressTracker t = new ProgressTracker(4, List.of(result("old", TaskStatus.DONE, 400)), 0);
    for (long ms : new long[] {100, 200}) {
      t.started();
      t.finished(result("t" + ms, TaskStatus.DONE, ms));
    }
    t.started();
    t.abandoned();
    BatchSummary stopped = t.summary(3000 * MS, true, 0, null, null);
    assertEquals(3, stopped.count(TaskStatus.DONE));
    assertEquals(1, stopped.notRun());
    assertEquals(200, stopped.p50Ms());
    assertEquals(400, stopped.p95Ms());
    assertEquals(3000, stopped.wallMs());
    assertEquals(130, stopped.exitCode());
    assertEquals(1, t.summary(3000 * MS, false, 0, null, null).exitCode(), "a task was not run");
    t.started();
    t.finished(result("last", TaskStatus.DONE, 1));
    assertEquals(0, t.summary(3000 * MS, false, 0, null, null).exitCode());
    assertEquals(1, t.summary(3000 * MS, false, 2, null, null).exitCode(), "skipped invalid lines are not done");
  }

  @Test
  void progressReadsWellForPeople() {
    ProgressTracker t = new ProgressTracker(200, List.of(), 0);
    for (int i = 0; i < 45; i++) {
      t.started();
      t.finished(result("t" + i, i < 40 ? TaskStatus.DONE : TaskStatus.FAILED, 100));
    }
    for (int i = 0; i < 16; i++) {
      t.started();
    }
    String line = ProgressFormat.line(t.snapshot(60_000 * MS));
    assertEquals("45/200 (22%) | done 40, not done 5 | running 16, queued 139 | 45.0/min, ETA 3m26s", line);
    assertEquals("[#####...............]", ProgressFormat.bar(22.5, 20));
    assertEquals("850ms", ProgressFormat.duration(850));
    assertEquals("12.3s", ProgressFormat.duration(12_340));
    assertEquals("1h02m", ProgressFormat.duration(3_720_000));
    String summary = ProgressFormat.summary(t.summary(60_000 * MS, true, 0, null, null));
    assertTrue(summary.startsWith("Batch stopped: 200 tasks, 1m00s wall time"), summary);
    assertTrue(summary.contains("done 40 failed 5"), summary);
    assertTrue(summary.contains("not run 155"), summary);
  }
}
