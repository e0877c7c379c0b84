package io.interpreter4j.cluster.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The coordinator's scheduling, driven directly: workers are names. */
class BatchScheduleTest {
  private static final List<String> TASKS = List.of("t1", "t2", "t3", "t4", "t5");

  @Test
  void keepsParallelTasksRunningSpreadOverTheLeastLoadedWorkers() {
    BatchSchedule<String> s = new BatchSchedule<>();
    s.add("b", 3, TASKS, Set.of(), Map.of(), Map.of());
    List<BatchSchedule.Dispatch<String>> first = s.next(List.of("n1", "n2"));
    assertEquals(List.of("t1", "t2", "t3"), first.stream().map(BatchSchedule.Dispatch::taskId).toList());
    assertEquals(Map.of("n1", 2, "n2", 1), s.load());
    assertTrue(s.next(List.of("n1", "n2")).isEmpty(), "no more than parallel at once");

    // t1 ends on n1: the next task goes to the least loaded worker (n1 or n2, one each now), as attempt 1
    String n1Task = first.stream().filter(d -> d.worker().equals("n1")).findFirst().orElseThrow().taskId();
    assertTrue(s.finished("b", n1Task));
    List<BatchSchedule.Dispatch<String>> next = s.next(List.of("n1", "n2"));
    assertEquals(1, next.size());
    assertEquals("t4", next.get(0).taskId());
    assertEquals(1, next.get(0).attempt());
    assertEquals(3, s.load().values().stream().mapToInt(Integer::intValue).sum());
  }

  @Test
  void theTasksOfALostWorkerRunAgainAsANewAttemptBeforeTheRest() {
    BatchSchedule<String> s = new BatchSchedule<>();
    s.add("b", 2, TASKS, Set.of(), Map.of(), Map.of());
    List<BatchSchedule.Dispatch<String>> first = s.next(List.of("n1", "n2"));
    String onN2 = first.stream().filter(d -> d.worker().equals("n2")).findFirst().orElseThrow().taskId();
    List<BatchSchedule.Dispatch<String>> lost = s.workersAre(Set.of("n1"));
    assertEquals(List.of(onN2), lost.stream().map(BatchSchedule.Dispatch::taskId).toList());
    List<BatchSchedule.Dispatch<String>> again = s.next(List.of("n1"));
    assertEquals(1, again.size());
    assertEquals(onN2, again.get(0).taskId());
    assertEquals(2, again.get(0).attempt());
    assertEquals("n1", again.get(0).worker());
  }

  @Test
  void aRecoveredBatchKeepsWhatRunsAndQueuesTheRestAfterTheirLastAttempt() {
    BatchSchedule<String> s = new BatchSchedule<>();
    // t1 done; t2 runs on n1 (attempt 1); t3 was dispatched to a lost node (attempt 1) and runs nowhere
    s.add("b", 2, TASKS, Set.of("t1"), Map.of("t2", new BatchSchedule.Dispatch<>("b", "t2", 1, "n1")),
        Map.of("t1", 1, "t2", 1, "t3", 1));
    List<BatchSchedule.Dispatch<String>> next = s.next(List.of("n1", "n3"));
    assertEquals(1, next.size());
    assertEquals("t3", next.get(0).taskId());
    assertEquals(2, next.get(0).attempt());
    assertEquals("n3", next.get(0).worker(), "the least loaded worker");
  }

  @Test
  void aTaskFinishesOnceAndTheBatchIsCompleteWhenEveryTaskHasAResult() {
    BatchSchedule<String> s = new BatchSchedule<>();
    s.add("b", 5, List.of("t1", "t2"), Set.of(), Map.of(), Map.of());
    s.next(List.of("n1"));
    assertTrue(s.finished("b", "t1"));
    assertFalse(s.finished("b", "t1"), "a second result of the same task counts once");
    assertFalse(s.complete("b"));
    // t2's first attempt failed to start and it was queued again; its result still comes from a run that went on
    s.failed("b", "t2", 1);
    assertTrue(s.finished("b", "t2"));
    assertTrue(s.complete("b"));
    assertTrue(s.next(List.of("n1")).isEmpty());
  }

  @Test
  void aFailureOfAnOlderAttemptLeavesTheNewerOneRunning() {
    BatchSchedule<String> s = new BatchSchedule<>();
    s.add("b", 1, List.of("t1"), Set.of(), Map.of(), Map.of());
    s.next(List.of("n1"));
    s.workersAre(Set.of());
    BatchSchedule.Dispatch<String> second = s.next(List.of("n2")).get(0);
    assertEquals(2, second.attempt());
    s.failed("b", "t1", 1); // the lost worker's late answer
    assertEquals(Map.of("n2", 1), s.load());
  }

  @Test
  void nothingIsDispatchedWithoutWorkers() {
    BatchSchedule<String> s = new BatchSchedule<>();
    s.add("b", 2, TASKS, Set.of(), Map.of(), Map.of());
    assertTrue(s.next(List.of()).isEmpty());
    assertEquals(2, s.next(List.of("n1")).size());
  }
}
