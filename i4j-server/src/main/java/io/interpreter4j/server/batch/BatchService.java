package io.interpreter4j.server.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Batches run by the server: {@code POST /api/batches} with the JSONL of {@code i4j batch}, progress at
 * {@code GET /api/batches/{id}}, result lines at {@code GET /api/batches/{id}/results} (see docs/batch.md, "Batches
 * on a server"). A single {@code i4j serve} runs them in its own process; cluster mode runs them over the cluster
 * with a singleton coordinator and the batch journal in PostgreSQL. {@link BatchRoutes} serves any of them.
 */
public interface BatchService {

  /**
   * What a client asks for: the task file's text and the options of {@code i4j batch} that make sense on a server.
   *
   * @param tasks        the task file's text (JSONL, or one prompt a line), checked as {@code i4j batch} checks a file
   * @param baseDir      the folder relative {@code workdir} and {@code cassette} paths are resolved against (absolute;
   *                     the client's task file folder), or null for the server's working folder
   * @param name         shown in the dashboard and the progress (default: "batch")
   * @param parallel     tasks at a time, in all (on a cluster: over all its nodes), >= 1
   * @param autoApprove  {@code -y}: without it a task whose model writes a block ends {@code blocked}
   * @param allowAll     {@code --dangerously-allow-all}
   * @param skipInvalid  run the valid tasks when some lines are invalid
   * @param taskTimeout  the wall-clock limit of a task without {@code timeout_s}
   * @param model        the model of tasks without {@code model} or {@code cassette}, or null for the server's
   */
  record Submission(String tasks, String baseDir, String name, int parallel, boolean autoApprove, boolean allowAll,
                    boolean skipInvalid, Duration taskTimeout, String model) {}

  /** The batch was accepted: its id and task count; {@code skipped} lines were invalid and skipped. */
  record Accepted(String id, int total, List<Problem> skipped) {}

  /** One problem of the task file, with its 1-based line number (0: the file as a whole). */
  record Problem(int line, String message) {}

  /**
   * The task file is invalid (and {@code skipInvalid} was not asked, or no valid task is left): nothing started.
   * Completes {@link #submit}'s stage exceptionally; the routes answer 400 with every problem.
   */
  final class Rejected extends RuntimeException {
    private final List<Problem> problems;

    public Rejected(List<Problem> problems) {
      super(problems.isEmpty() ? "the task file is invalid" : problems.get(0).message());
      this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
      return problems;
    }
  }

  /** Checks the task file and starts the batch; fails with {@link Rejected} when it is invalid. */
  CompletionStage<Accepted> submit(Submission submission);

  /**
   * Where the batch stands, or empty for an unknown id: {@code id}, {@code name}, {@code state} ({@code running},
   * {@code done}), the progress fields of {@code i4j batch --json} ({@code total}, {@code finished}, {@code running},
   * {@code queued}, {@code counts}, {@code rate_per_min}, {@code eta_ms}, {@code elapsed_ms}) and {@code results}
   * (the number of result lines).
   */
  CompletionStage<Optional<ObjectNode>> progress(String id);

  /**
   * The batch's result lines from the {@code from}-th on (0-based), each the JSON of one task's result exactly as
   * {@code i4j batch} writes it to its results file, in the order they were recorded; empty for an unknown id.
   */
  CompletionStage<Optional<List<String>>> results(String id, int from);

  /** Every batch this service knows, newest last, as {@link #progress} shows each. */
  CompletionStage<List<ObjectNode>> list();
}
