package io.interpreter4j.batch.progress;

import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.TaskResult;
import java.io.PrintStream;

/**
 * Progress for a log file (stderr is not a terminal): a line every 5 s or every 10% of the tasks, whichever
 * comes first, and a line for each task that did not end {@code done}.
 */
public final class PlainProgressPrinter implements BatchListener {

  static final long EVERY_MS = 5_000;

  private final PrintStream err;
  private long lastMs;
  private int lastDecile;

  public PlainProgressPrinter(PrintStream err) {
    this.err = err;
  }

  @Override
  public void onBatchStarted(Progress progress) {
    lastDecile = decile(progress);
    print(progress);
  }

  @Override
  public void onTaskFinished(TaskResult result, Progress progress) {
    if (!result.done()) {
      err.println("batch: task " + result.id() + " " + result.status().wireName()
          + (result.error() == null ? "" : ": " + firstLine(result.error())));
    }
    if (decile(progress) > lastDecile) {
      lastDecile = decile(progress);
      print(progress);
    }
  }

  @Override
  public void onProgress(Progress progress) {
    if (progress.elapsedMs() - lastMs >= EVERY_MS) {
      print(progress);
    }
  }

  private void print(Progress progress) {
    lastMs = progress.elapsedMs();
    err.println("batch: " + ProgressFormat.line(progress));
    err.flush();
  }

  private static int decile(Progress p) {
    return p.total() == 0 ? 10 : p.finished() * 10 / p.total();
  }

  static String firstLine(String text) {
    String line = text.lines().findFirst().orElse("");
    return line.length() > 200 ? line.substring(0, 197) + "..." : line;
  }
}
