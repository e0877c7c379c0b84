package io.interpreter4j.batch;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to run a batch.
 *
 * @param tasksFile      the task file (its absolute path names the default journal)
 * @param out            the results file
 * @param journalDir     the journal folder, or null for {@code <data-dir>/batches/<hash of tasks file + out>/}
 * @param parallel       tasks at a time, at least 1
 * @param autoApprove    {@code -y}: run blocks without asking; without it blocks end {@code blocked}
 * @param retryFailed    run again the tasks that finished other than {@code done}
 * @param defaultTimeout wall-clock limit of a task without {@code timeout_s}
 * @param invalidLines   lines of the task file skipped as invalid, for the summary and the exit code
 */
public record BatchOptions(Path tasksFile, Path out, Path journalDir, int parallel, boolean autoApprove,
                           boolean retryFailed, Duration defaultTimeout, long invalidLines) {

  public static final int DEFAULT_PARALLEL = 4;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

  public BatchOptions {
    if (parallel < 1) {
      throw new IllegalArgumentException("--parallel must be at least 1, not " + parallel);
    }
    if (defaultTimeout == null || defaultTimeout.isZero() || defaultTimeout.isNegative()) {
      throw new IllegalArgumentException("the task timeout must be positive, not " + defaultTimeout);
    }
    tasksFile = tasksFile.toAbsolutePath().normalize();
    out = out.toAbsolutePath().normalize();
    journalDir = journalDir == null ? null : journalDir.toAbsolutePath().normalize();
  }
}
