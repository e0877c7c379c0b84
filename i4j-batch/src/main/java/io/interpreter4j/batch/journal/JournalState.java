package io.interpreter4j.batch.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.batch.TaskResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a batch journal says, replayed record by record: the latest record about a task decides its state. A
 * task whose latest record is {@code task_finished} is finished with that result; one that was started (or
 * requeued) after that is not. Pure: built from the journal's lines.
 */
public final class JournalState {

  /** A finished task: its result and the fingerprint of the task definition it ran. */
  public record Finished(TaskResult result, String fingerprint) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LinkedHashMap<String, Finished> finished = new LinkedHashMap<>();
  private final Map<String, Integer> starts = new HashMap<>();
  private final Map<String, String> lastType = new HashMap<>();
  private final List<String> warnings = new ArrayList<>();
  private int runs;

  private JournalState() {}

  public static JournalState empty() {
    return new JournalState();
  }

  /** Replays complete journal lines; an unreadable line is skipped with a warning. */
  public static JournalState replay(List<String> lines) {
    JournalState state = new JournalState();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      try {
        state.apply(JSON.readTree(line));
      } catch (Exception e) {
        state.warnings.add("journal line " + (i + 1) + " is unreadable and was skipped: " + e.getMessage());
      }
    }
    return state;
  }

  private void apply(JsonNode record) {
    String type = record.path("type").asText();
    if (type.equals("batch_started")) {
      runs++;
      return;
    }
    if (!type.startsWith("task_")) {
      return;
    }
    String id = record.path("id").asText(null);
    if (id == null) {
      throw new IllegalArgumentException("a " + type + " record without an id");
    }
    switch (type) {
      case "task_finished" -> {
        TaskResult result = TaskResult.fromJson(record.get("result"));
        finished.remove(id);
        finished.put(id, new Finished(result, record.path("fp").asText("")));
      }
      case "task_started" -> {
        finished.remove(id);
        starts.merge(id, 1, Integer::sum);
      }
      case "task_requeued", "task_interrupted" -> finished.remove(id);
      default -> throw new IllegalArgumentException("unknown record type " + type);
    }
    lastType.put(id, type);
  }

  /** Finished tasks in the order they (last) finished. */
  public Map<String, Finished> finished() {
    return Collections.unmodifiableMap(finished);
  }

  /** Whether the task was started and has not finished since: it was running when the batch ended. */
  public boolean wasRunning(String id) {
    String type = lastType.get(id);
    return type != null && (type.equals("task_started") || type.equals("task_interrupted"));
  }

  /** How many times the task was started, in all runs of the batch. */
  public int starts(String id) {
    return starts.getOrDefault(id, 0);
  }

  /** How many times the batch was started with this journal. */
  public int runs() {
    return runs;
  }

  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  void warn(String warning) {
    warnings.add(warning);
  }
}
