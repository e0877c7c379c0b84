package io.interpreter4j.batch.progress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.TaskStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Where a batch stands at one moment.
 *
 * @param finished     tasks with a result, including those finished in earlier runs of the batch
 * @param counts       finished tasks by status
 * @param ratePerMin   tasks finished per minute in this run (0 until one has)
 * @param etaMs        estimated time until every task has finished, or -1 when unknown
 */
public record Progress(int total, int finished, int running, int queued, Map<TaskStatus, Long> counts,
                       double ratePerMin, long etaMs, long elapsedMs) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public Progress {
    EnumMap<TaskStatus, Long> copy = new EnumMap<>(TaskStatus.class);
    for (TaskStatus s : TaskStatus.values()) {
      copy.put(s, counts.getOrDefault(s, 0L));
    }
    counts = Collections.unmodifiableMap(copy);
  }

  public long done() {
    return counts.get(TaskStatus.DONE);
  }

  /** Finished tasks that did not end done. */
  public long notDone() {
    return finished - done();
  }

  /** Percentage of tasks finished, 0..100. */
  public double percent() {
    return total == 0 ? 100 : 100.0 * finished / total;
  }

  /** Reads back {@link #toJson()}; missing fields are 0 (an unknown ETA is -1). */
  public static Progress fromJson(JsonNode n) {
    Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
    for (Iterator<Map.Entry<String, JsonNode>> it = n.path("counts").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      counts.put(TaskStatus.fromWire(e.getKey()), e.getValue().asLong());
    }
    JsonNode eta = n.path("eta_ms");
    return new Progress(n.path("total").asInt(), n.path("finished").asInt(), n.path("running").asInt(),
        n.path("queued").asInt(), counts, n.path("rate_per_min").asDouble(), eta.isNumber() ? eta.asLong() : -1,
        n.path("elapsed_ms").asLong());
  }

  public ObjectNode toJson() {
    ObjectNode node = JSON.createObjectNode();
    node.put("total", total);
    node.put("finished", finished);
    node.put("running", running);
    node.put("queued", queued);
    ObjectNode c = node.putObject("counts");
    counts.forEach((status, n) -> c.put(status.wireName(), n));
    node.put("rate_per_min", Math.round(ratePerMin * 10) / 10.0);
    if (etaMs >= 0) {
      node.put("eta_ms", etaMs);
    } else {
      node.putNull("eta_ms");
    }
    node.put("elapsed_ms", elapsedMs);
    return node;
  }
}
