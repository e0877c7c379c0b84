package io.interpreter4j.cluster.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The progress JSON of a batch on the cluster, from what its journal holds. */
class BatchProgressTest {
  private static final BatchSpec SPEC = new BatchSpec("nightly", new BatchSpec.Options(2, true, false, 60_000, null),
      List.of(task("a"), task("b"), task("c")), 1_000_000);

  @Test
  void aRunningBatchCountsItsResultsRunningAndQueuedTasks() {
    ObjectNode p = BatchProgress.json("batch-1", SPEC, List.of(result("a", TaskStatus.DONE)), 1, 1_030_000,
        1_060_000);
    assertEquals("batch-1", p.path("id").asText());
    assertEquals("nightly", p.path("name").asText());
    assertEquals("running", p.path("state").asText());
    assertEquals(3, p.path("total").asInt());
    assertEquals(1, p.path("finished").asInt());
    assertEquals(1, p.path("running").asInt());
    assertEquals(1, p.path("queued").asInt());
    assertEquals(1, p.path("counts").path("done").asInt());
    assertEquals(0, p.path("counts").path("failed").asInt());
    assertEquals(1, p.path("results").asInt());
    assertEquals(60_000, p.path("elapsed_ms").asLong());
    assertEquals(1.0, p.path("rate_per_min").asDouble());
    assertEquals(120_000, p.path("eta_ms").asLong());
  }

  @Test
  void aDoneBatchStopsItsClockAtItsLastResult() {
    ObjectNode p = BatchProgress.json("batch-1", SPEC, List.of(result("a", TaskStatus.DONE),
        result("c", TaskStatus.TIMEOUT), result("b", TaskStatus.DONE)), 0, 1_090_000, 5_000_000);
    assertEquals("done", p.path("state").asText());
    assertEquals(3, p.path("finished").asInt());
    assertEquals(0, p.path("queued").asInt());
    assertEquals(2, p.path("counts").path("done").asInt());
    assertEquals(1, p.path("counts").path("timeout").asInt());
    assertEquals(90_000, p.path("elapsed_ms").asLong());
    assertEquals(0, p.path("eta_ms").asLong());
  }

  @Test
  void itsTasksAreListedAsALocalBatchsWithTheNodeTheyRanOn() {
    BatchSpec spec = new BatchSpec("nightly", new BatchSpec.Options(2, true, false, 60_000, null),
        List.of(task("a"), task("b"), task("c"), task("d")), 1_000_000);
    Map<String, BatchProgress.TaskState> tasks = new LinkedHashMap<>();
    TaskResult c = new TaskResult("c", TaskStatus.TIMEOUT, "s-c2", 1, 0, 0, 1000, 10, 5, null, "timed out after 60 s");
    TaskResult a = result("a", TaskStatus.DONE);
    // c ran twice (its first node was lost): the list shows its result's session and node
    tasks.put("c", new BatchProgress.TaskState(dispatch("c", 2, "n2", "s-c2"), c, "n2"));
    tasks.put("b", new BatchProgress.TaskState(dispatch("b", 1, "n1", "s-b"), null, null));
    tasks.put("a", new BatchProgress.TaskState(dispatch("a", 1, "n1", "s-a"), a, "n1"));
    ObjectNode p = BatchProgress.json("batch-1", spec, tasks, List.of(c, a), 1, 1_030_000, 1_060_000);

    JsonNode list = p.path("tasks");
    assertEquals(3, list.size(), "d was never dispatched: " + list);
    assertEquals("a", list.get(0).path("id").asText(), "in file order: " + list);
    assertEquals("done", list.get(0).path("status").asText());
    assertEquals("s-a", list.get(0).path("session").asText());
    assertTrue(list.get(0).path("error").isNull());
    assertEquals("n1", list.get(0).path("node").asText());
    assertEquals("b", list.get(1).path("id").asText());
    assertEquals("running", list.get(1).path("status").asText());
    assertEquals("s-b", list.get(1).path("session").asText());
    assertEquals("n1", list.get(1).path("node").asText());
    assertEquals("c", list.get(2).path("id").asText());
    assertEquals("timeout", list.get(2).path("status").asText());
    assertEquals("s-c2", list.get(2).path("session").asText());
    assertEquals("timed out after 60 s", list.get(2).path("error").asText());
    assertEquals("n2", list.get(2).path("node").asText());
    assertEquals(0, p.path("tasks_omitted").asInt());
    assertEquals(2, p.path("finished").asInt(), "the counts stay as without the list");
  }

  @Test
  void aLargeBatchListsItsRunningTasksThenItsFailuresThenItsLatestDone() {
    int total = 1000;
    List<BatchSpec.TaskSpec> specs = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      specs.add(task("t" + i));
    }
    BatchSpec spec = new BatchSpec("big", new BatchSpec.Options(4, true, false, 60_000, null), specs, 1_000_000);
    Map<String, BatchProgress.TaskState> tasks = new LinkedHashMap<>();
    List<TaskResult> results = new ArrayList<>();
    for (int i = 0; i < 900; i++) { // t0..t899 finished, in order; t7 failed with a long error
      TaskResult r = i == 7 ? new TaskResult("t7", TaskStatus.FAILED, "s-t7", 1, 0, 0, 1000, 10, 5, null,
          "x".repeat(5000)) : result("t" + i, TaskStatus.DONE);
      results.add(r);
      tasks.put("t" + i, new BatchProgress.TaskState(dispatch("t" + i, 1, "n1", "s-t" + i), r, "n1"));
    }
    for (int i = 900; i < 904; i++) { // running
      tasks.put("t" + i, new BatchProgress.TaskState(dispatch("t" + i, 1, "n2", "s-t" + i), null, null));
    }
    ObjectNode p = BatchProgress.json("batch-2", spec, tasks, results, 4, 1_030_000, 1_060_000);

    JsonNode list = p.path("tasks");
    assertEquals(BatchProgress.TASKS_SHOWN, list.size());
    assertEquals(904 - BatchProgress.TASKS_SHOWN, p.path("tasks_omitted").asInt());
    List<String> ids = new ArrayList<>();
    list.forEach(t -> ids.add(t.path("id").asText()));
    assertEquals("t7", ids.get(0), "the failure first, in file order: " + ids);
    assertEquals("failed", list.get(0).path("status").asText());
    assertEquals(BatchProgress.ERROR_SHOWN, list.get(0).path("error").asText().length(), "the error cut");
    assertTrue(list.get(0).path("error").asText().endsWith("..."));
    assertTrue(p.toString().length() < 20_000, "bounded: " + p.toString().length() + " characters");
    // then the latest 95 done (t805..t899) and the 4 running
    assertEquals("t805", ids.get(1), ids.toString());
    assertEquals("t899", ids.get(95), ids.toString());
    assertEquals(List.of("t900", "t901", "t902", "t903"), ids.subList(96, 100));
    for (int i = 1; i < 96; i++) {
      assertEquals("done", list.get(i).path("status").asText(), list.get(i).toString());
    }
    for (int i = 96; i < 100; i++) {
      assertEquals("running", list.get(i).path("status").asText(), list.get(i).toString());
      assertEquals("n2", list.get(i).path("node").asText(), list.get(i).toString());
    }
  }

  private static BatchLog.TaskDispatched dispatch(String id, int attempt, String node, String session) {
    return new BatchLog.TaskDispatched(id, attempt, node, session, 1_010_000);
  }

  private static BatchSpec.TaskSpec task(String id) {
    return new BatchSpec.TaskSpec(id, 1, "prompt " + id, null, null, null, null, null);
  }

  private static TaskResult result(String id, TaskStatus status) {
    return new TaskResult(id, status, "s-" + id, 1, 0, 0, 1000, 10, 5, "ok", null);
  }
}
