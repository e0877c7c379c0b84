package io.interpreter4j.batch.progress;

import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.TaskResult;
import java.io.PrintStream;

/**
 * A live progress bar on a terminal, redrawn in place on stderr: done, not done, running, queued, rate and ETA.
 * A task that does not end {@code done} gets a line of its own above the bar.
 */
public final class TerminalProgressBar implements BatchListener {

  private static final String CLEAR_LINE = "\r\033[2K";

  private final PrintStream err;
  private final int columns;

  /** @param columns the terminal's width (the line is cut to fit, so it never wraps) */
  public TerminalProgressBar(PrintStream err, int columns) {
    this.err = err;
    this.columns = Math.max(40, columns);
  }

  @Override
  public void onBatchStarted(Progress progress) {
    draw(progress);
  }

  @Override
  public void onTaskFinished(TaskResult result, Progress progress) {
    if (!result.done()) {
      err.print(CLEAR_LINE + "  " + result.id() + ": " + result.status().wireName()
          + (result.error() == null ? "" : " - " + PlainProgressPrinter.firstLine(result.error())) + "\n");
    }
    draw(progress);
  }

  @Override
  public void onProgress(Progress progress) {
    draw(progress);
  }

  @Override
  public void onBatchFinished(BatchSummary summary) {
    err.print(CLEAR_LINE);
    err.flush();
  }

  private void draw(Progress progress) {
    String line = ProgressFormat.line(progress);
    String withBar = ProgressFormat.bar(progress.percent(), 16) + " " + line;
    if (withBar.length() < columns) {
      line = withBar;
    } else if (line.length() > columns - 1) {
      line = line.substring(0, columns - 1);
    }
    err.print(CLEAR_LINE + line);
    err.flush();
  }
}
