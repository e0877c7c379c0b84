package io.interpreter4j.cluster.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import java.util.List;
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

  private static BatchSpec.TaskSpec task(String id) {
    return new BatchSpec.TaskSpec(id, 1, "prompt " + id, null, null, null, null, null);
  }

  private static TaskResult result(String id, TaskStatus status) {
    return new TaskResult(id, status, "s-" + id, 1, 0, 0, 1000, 10, 5, "ok", null);
  }
}
