package io.interpreter4j.batch.progress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.TaskResult;
import java.io.PrintStream;
import java.time.Clock;

/**
 * {@code --json}: one JSON object a line on stdout, and nothing else there: {@code task_started},
 * {@code task_finished {result}}, {@code batch_progress} (at most every 5 s) and {@code batch_finished {summary}}.
 */
public final class JsonProgressPrinter implements BatchListener {

  static final long PROGRESS_EVERY_MS = 5_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final PrintStream out;
  private final Clock clock;
  private long lastProgressMs = -PROGRESS_EVERY_MS;

  public JsonProgressPrinter(PrintStream out, Clock clock) {
    this.out = out;
    this.clock = clock;
  }

  @Override
  public void onTaskStarted(TaskStarted started, Progress progress) {
    ObjectNode e = event("task_started");
    e.put("id", started.task().id());
    e.put("session", started.sessionId());
    print(e);
  }

  @Override
  public void onTaskFinished(TaskResult result, Progress progress) {
    ObjectNode e = event("task_finished");
    e.set("result", result.toJson());
    print(e);
  }

  @Override
  public void onProgress(Progress progress) {
    if (progress.elapsedMs() - lastProgressMs < PROGRESS_EVERY_MS) {
      return;
    }
    lastProgressMs = progress.elapsedMs();
    ObjectNode e = event("batch_progress");
    e.setAll(progress.toJson());
    print(e);
  }

  @Override
  public void onBatchFinished(BatchSummary summary) {
    ObjectNode e = event("batch_finished");
    e.set("summary", summary.toJson());
    print(e);
  }

  private ObjectNode event(String type) {
    ObjectNode e = JSON.createObjectNode();
    e.put("type", type);
    e.put("ts", clock.instant().toString());
    return e;
  }

  private void print(ObjectNode e) {
    synchronized (out) {
      out.println(e);
      out.flush();
    }
  }
}
