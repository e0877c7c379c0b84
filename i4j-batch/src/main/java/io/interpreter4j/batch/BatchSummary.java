package io.interpreter4j.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.Map;

/**
 * How a batch ended.
 *
 * @param counts   results by status, over every task of the batch (earlier runs included)
 * @param notRun   tasks without a result: the batch was stopped before they finished
 * @param invalid  lines of the task file skipped as invalid ({@code --skip-invalid})
 * @param wallMs   wall time of this run
 * @param p50Ms    median task duration, over all results
 * @param p95Ms    95th percentile of task duration
 * @param stopped  the batch was stopped (Ctrl-C, SIGTERM) before the end
 */
public record BatchSummary(int total, Map<TaskStatus, Long> counts, int notRun, long invalid, long wallMs,
                           long p50Ms, long p95Ms, boolean stopped, Path results, Path journal) {

  private static final ObjectMapper JSON = new ObjectMapper();

  public BatchSummary {
    EnumMap<TaskStatus, Long> copy = new EnumMap<>(TaskStatus.class);
    for (TaskStatus s : TaskStatus.values()) {
      copy.put(s, counts.getOrDefault(s, 0L));
    }
    counts = Collections.unmodifiableMap(copy);
  }

  public long count(TaskStatus status) {
    return counts.get(status);
  }

  /** 0 when every task is done, 130 when the batch was stopped, else 1. */
  public int exitCode() {
    if (stopped) {
      return 130;
    }
    return count(TaskStatus.DONE) == total && notRun == 0 && invalid == 0 ? 0 : 1;
  }

  /** Reads back {@link #toJson()} (its {@code results} and {@code journal} paths are replaced by those given). */
  public static BatchSummary fromJson(JsonNode n, Path results, Path journal) {
    Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
    for (Iterator<Map.Entry<String, JsonNode>> it = n.path("counts").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      counts.put(TaskStatus.fromWire(e.getKey()), e.getValue().asLong());
    }
    return new BatchSummary(n.path("total").asInt(), counts, n.path("not_run").asInt(), n.path("invalid").asLong(),
        n.path("wall_ms").asLong(), n.path("p50_ms").asLong(), n.path("p95_ms").asLong(),
        n.path("stopped").asBoolean(), results, journal);
  }

  public ObjectNode toJson() {
    ObjectNode node = JSON.createObjectNode();
    node.put("total", total);
    ObjectNode c = node.putObject("counts");
    counts.forEach((status, n) -> c.put(status.wireName(), n));
    node.put("not_run", notRun);
    node.put("invalid", invalid);
    node.put("wall_ms", wallMs);
    node.put("p50_ms", p50Ms);
    node.put("p95_ms", p95Ms);
    node.put("stopped", stopped);
    node.put("exit_code", exitCode());
    node.put("results", results == null ? null : results.toString());
    node.put("journal", journal == null ? null : journal.toString());
    return node;
  }
}
