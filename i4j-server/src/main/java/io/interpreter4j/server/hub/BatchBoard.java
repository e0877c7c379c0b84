package io.interpreter4j.server.hub;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The batches shown in the dashboard ({@code i4j batch --dashboard}): each batch's progress and its tasks' status,
 * with the session each task ran in. The batch runner pushes snapshots; {@code GET /api/batches} reads them.
 */
public final class BatchBoard {
  private static final int MAX_BATCHES = 16;

  private final Map<String, ObjectNode> progress = new LinkedHashMap<>();
  private final Map<String, Map<String, ObjectNode>> tasks = new LinkedHashMap<>();

  /** The batch's latest progress (total, finished, running, queued, counts, rate, ETA). */
  public synchronized void progress(String batchId, String name, ObjectNode snapshot) {
    if (!progress.containsKey(batchId) && progress.size() >= MAX_BATCHES) {
      String oldest = progress.keySet().iterator().next();
      progress.remove(oldest);
      tasks.remove(oldest);
    }
    ObjectNode copy = snapshot.deepCopy();
    copy.put("id", batchId);
    copy.put("name", name);
    progress.put(batchId, copy);
  }

  /** One task's state: {@code status} is running or a final status; {@code session} links to its session page. */
  public synchronized void task(String batchId, String taskId, String status, String session, String error) {
    ObjectNode t = JsonNodeFactory.instance.objectNode();
    t.put("id", taskId);
    t.put("status", status);
    t.put("session", session);
    t.put("error", error);
    tasks.computeIfAbsent(batchId, k -> new LinkedHashMap<>()).put(taskId, t);
  }

  /** {@code {"batches": [{id, name, total, finished, ..., tasks: [{id, status, session, error}]}]}}. */
  public synchronized ObjectNode toJson() {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    ArrayNode list = root.putArray("batches");
    progress.forEach((id, p) -> {
      ObjectNode b = p.deepCopy();
      ArrayNode ts = b.putArray("tasks");
      tasks.getOrDefault(id, Map.of()).values().forEach(ts::add);
      list.add(b);
    });
    return root;
  }
}
