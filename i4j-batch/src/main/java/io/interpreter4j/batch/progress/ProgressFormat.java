package io.interpreter4j.batch.progress;

import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.TaskStatus;
import java.util.Locale;

/** Progress and summaries as text for people. Pure. */
public final class ProgressFormat {

  private ProgressFormat() {}

  /** {@code 45/200 (22%) | done 40, not done 5 | running 16, queued 139 | 12.3/min, ETA 3m05s}. */
  public static String line(Progress p) {
    return p.finished() + "/" + p.total() + " (" + (int) Math.floor(p.percent()) + "%) | done " + p.done()
        + ", not done " + p.notDone() + " | running " + p.running() + ", queued " + p.queued() + " | "
        + rate(p.ratePerMin()) + ", ETA " + (p.etaMs() < 0 ? "?" : duration(p.etaMs()));
  }

  /** A bar of {@code width} cells for a percentage. */
  public static String bar(double percent, int width) {
    int full = (int) Math.round(Math.max(0, Math.min(100, percent)) / 100 * width);
    return "[" + "#".repeat(full) + ".".repeat(width - full) + "]";
  }

  public static String rate(double perMinute) {
    return String.format(Locale.ROOT, "%.1f/min", perMinute);
  }

  /** {@code 850ms}, {@code 12.3s}, {@code 3m05s}, {@code 1h02m}. */
  public static String duration(long ms) {
    if (ms < 1000) {
      return ms + "ms";
    }
    if (ms < 60_000) {
      return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    long s = ms / 1000;
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
  }

  /** The summary printed at the end, several lines, no trailing newline. */
  public static String summary(BatchSummary s) {
    StringBuilder sb = new StringBuilder();
    sb.append(s.stopped() ? "Batch stopped" : "Batch finished").append(": ").append(s.total()).append(" tasks, ")
        .append(duration(s.wallMs())).append(" wall time\n ");
    for (TaskStatus status : TaskStatus.values()) {
      sb.append(' ').append(status.wireName()).append(' ').append(s.count(status));
    }
    if (s.notRun() > 0) {
      sb.append("  not run ").append(s.notRun());
    }
    if (s.invalid() > 0) {
      sb.append("  invalid lines skipped ").append(s.invalid());
    }
    sb.append("\n  task time: p50 ").append(duration(s.p50Ms())).append(", p95 ").append(duration(s.p95Ms()));
    if (s.results() != null) {
      sb.append("\n  results: ").append(s.results());
    }
    if (s.journal() != null) {
      sb.append("\n  journal: ").append(s.journal());
    }
    if (s.stopped() && s.notRun() > 0) {
      sb.append("\n  run the same command again to resume the ").append(s.notRun()).append(" task(s) not run");
    }
    return sb.toString();
  }
}
