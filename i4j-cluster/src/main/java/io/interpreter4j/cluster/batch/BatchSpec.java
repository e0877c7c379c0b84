package io.interpreter4j.cluster.batch;

import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.cluster.ClusterMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A batch as submitted to the cluster, as it is journaled ({@link BatchLog.Submitted}) and sent to the nodes that run
 * its tasks: plain values only (paths and durations as text and milliseconds), so that it reads back as written.
 *
 * @param name          shown in the progress
 * @param options       how its tasks run
 * @param tasks         the valid tasks of the task file, in file order
 * @param submittedAtMs when it was accepted (epoch milliseconds)
 */
public record BatchSpec(String name, Options options, List<TaskSpec> tasks, long submittedAtMs)
    implements ClusterMessage {

  public BatchSpec {
    tasks = List.copyOf(tasks);
  }

  /**
   * @param parallel      tasks at a time over the whole cluster
   * @param autoApprove   {@code -y}
   * @param allowAll      {@code --dangerously-allow-all}
   * @param taskTimeoutMs wall-clock limit of a task without {@code timeout_s}
   * @param model         the model of tasks without one, or null for the server's
   */
  public record Options(int parallel, boolean autoApprove, boolean allowAll, long taskTimeoutMs, String model)
      implements ClusterMessage {}

  /** One {@link BatchTask} as values. */
  public record TaskSpec(String id, int line, String prompt, String model, String workdir, Long timeoutMs,
                         Integer maxIterations, String cassette) implements ClusterMessage {

    public static TaskSpec of(BatchTask t) {
      return new TaskSpec(t.id(), t.line(), t.prompt(), t.model(), t.workdir() == null ? null : t.workdir().toString(),
          t.timeout() == null ? null : t.timeout().toMillis(), t.maxIterations(),
          t.cassette() == null ? null : t.cassette().toString());
    }

    public BatchTask toTask() {
      return new BatchTask(id, line, prompt, model, workdir == null ? null : Path.of(workdir),
          timeoutMs == null ? null : Duration.ofMillis(timeoutMs), maxIterations,
          cassette == null ? null : Path.of(cassette));
    }
  }
}
