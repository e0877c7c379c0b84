package io.interpreter4j.cluster.batch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskFileParser;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.server.batch.BatchService;
import io.interpreter4j.server.http.ApiError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * Batches on the cluster, behind the usual batch routes of every node: the task file is checked on the node that
 * receives it (as {@code i4j batch} checks it), kept in the batch's {@link BatchLog} in PostgreSQL, and handed to the
 * {@link BatchCoordinator} singleton, which runs its tasks over the nodes. Progress and results are read from the
 * batch's journal, so any node answers them, during a failover too; the progress names the node the coordinator runs
 * on ({@code coordinator}, null while it moves).
 */
public final class ClusterBatchService implements BatchService {
  private static final Duration ASK = Duration.ofSeconds(30);
  /** For reads: a client polling the progress is better told soon to try again than kept waiting. */
  private static final Duration READ = Duration.ofSeconds(15);
  private static final Duration WHERE = Duration.ofSeconds(3);

  private final ActorSystem<?> system;
  private final ActorRef<ShardingEnvelope<BatchLog.Command>> logs;
  private final ActorRef<BatchCoordinator.Command> coordinator;
  private final Settings settings;
  private final Executor blocking;

  /**
   * @param settings the server's settings: its model (for tasks without one) and working folder (for relative paths
   *                 when the client gives no base folder)
   * @param blocking where the task file is checked (it reads cassettes and looks for folders)
   */
  public ClusterBatchService(ActorSystem<?> system, ActorRef<ShardingEnvelope<BatchLog.Command>> logs,
                             ActorRef<BatchCoordinator.Command> coordinator, Settings settings, Executor blocking) {
    this.system = system;
    this.logs = logs;
    this.coordinator = coordinator;
    this.settings = settings;
    this.blocking = blocking;
  }

  @Override
  public CompletionStage<Accepted> submit(Submission s) {
    return CompletableFuture.supplyAsync(() -> check(s), blocking).thenCompose(checked -> {
      String id = "batch-" + SessionIds.next();
      BatchSpec spec = new BatchSpec(s.name(), new BatchSpec.Options(s.parallel(), s.autoApprove(), s.allowAll(),
          s.taskTimeout().toMillis(), s.model()), checked.tasks().stream().map(BatchSpec.TaskSpec::of).toList(),
          System.currentTimeMillis());
      return AskPattern.<ShardingEnvelope<BatchLog.Command>, Done>ask(logs,
              r -> new ShardingEnvelope<>(id, new BatchLog.Submit(spec, r)), ASK, system.scheduler())
          .thenCompose(kept -> AskPattern.<BatchCoordinator.Command, Done>ask(coordinator,
              r -> new BatchCoordinator.Start(id, r), ASK, system.scheduler()))
          .thenApply(started -> new Accepted(id, spec.tasks().size(), checked.skipped()))
          .exceptionally(failure -> {
            throw unavailable(failure, "the batch could not be started: the cluster did not answer within " + ASK
                .toSeconds() + " s (a node may have been lost and the batches' coordinator be moving)");
          });
    });
  }

  private record Checked(List<BatchTask> tasks, List<Problem> skipped) {}

  /** The task file's valid tasks; fails with {@link Rejected} as {@code i4j batch} would stop with exit code 2. */
  private Checked check(Submission s) {
    Path base = s.baseDir() != null ? Path.of(s.baseDir()) : settings.workdir();
    TaskFileParser.ParseResult parsed = TaskFileParser.parse(s.tasks(), base.toAbsolutePath().normalize());
    List<Problem> problems = new ArrayList<>();
    parsed.errors().forEach(e -> problems.add(new Problem(e.line(), e.message())));
    if (!problems.isEmpty() && !s.skipInvalid()) {
      throw new CompletionException(new Rejected(problems));
    }
    if (parsed.tasks().isEmpty()) {
      problems.add(new Problem(0, "no task to run: the file has no valid line"));
      throw new CompletionException(new Rejected(problems));
    }
    boolean defaultModel = s.model() != null || (settings.model() != null && !settings.model().isBlank());
    if (!defaultModel) {
      List<Problem> noModel = new ArrayList<>();
      for (BatchTask t : parsed.tasks()) {
        if (t.modelSpec() == null) {
          noModel.add(new Problem(t.line(), "task \"" + t.id() + "\" has no model: give the batch a model (model=...), "
              + "the task a \"model\" or \"cassette\", or the server a default model"));
        }
      }
      if (!noModel.isEmpty()) {
        throw new CompletionException(new Rejected(noModel));
      }
    }
    return new Checked(parsed.tasks(), problems);
  }

  @Override
  public CompletionStage<Optional<ObjectNode>> progress(String id) {
    CompletionStage<String> where = AskPattern.<BatchCoordinator.Command, BatchCoordinator.Here>ask(coordinator,
            BatchCoordinator.WhereAreYou::new, WHERE, system.scheduler())
        .thenApply(BatchCoordinator.Here::node)
        .exceptionally(failure -> null); // moving to another node: the progress is still read from the journal
    CompletionStage<BatchLog.ProgressJson> progress = AskPattern.<ShardingEnvelope<BatchLog.Command>,
            BatchLog.ProgressJson>ask(logs, r -> new ShardingEnvelope<>(id, new BatchLog.GetProgress(r)), READ,
            system.scheduler())
        .exceptionally(failure -> {
          throw unavailable(failure, journalSilent(id));
        });
    return progress.thenCombine(where, (p, node) -> {
      if (p.json() == null) {
        return Optional.empty();
      }
      try {
        ObjectNode n = (ObjectNode) EventCodec.mapper().readTree(p.json());
        n.put("coordinator", node);
        return Optional.of(n);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Override
  public CompletionStage<Optional<List<String>>> results(String id, int from) {
    return AskPattern.<ShardingEnvelope<BatchLog.Command>, BatchLog.Results>ask(logs,
            r -> new ShardingEnvelope<>(id, new BatchLog.GetResults(from, r)), READ, system.scheduler())
        .exceptionally(failure -> {
          throw unavailable(failure, journalSilent(id));
        })
        .thenApply(r -> r.known() ? Optional.of(r.lines()) : Optional.empty());
  }

  private static String journalSilent(String id) {
    return "the journal of batch " + id + " did not answer within " + READ.toSeconds() + " s (the node holding it "
        + "may have been lost, and it is moving to another)";
  }

  /**
   * A timeout as {@code 503} with {@code Retry-After}, saying what did not answer; anything else as it failed.
   */
  static RuntimeException unavailable(Throwable failure, String what) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
        : failure;
    if (cause instanceof TimeoutException) {
      return new ApiError(StatusCodes.SERVICE_UNAVAILABLE, "unavailable", what + "; try again",
          List.of(RawHeader.create("Retry-After", "5")));
    }
    return cause instanceof RuntimeException r ? r : new CompletionException(cause);
  }

  /** {@link #list} shows the newest this many batches (each is a question to its journal). */
  static final int LISTED = 50;

  /** The newest {@value #LISTED} batches of the cluster. */
  @Override
  public CompletionStage<List<ObjectNode>> list() {
    return AskPattern.<BatchCoordinator.Command, BatchIndex.All>ask(coordinator, BatchCoordinator.ListBatches::new,
            ASK, system.scheduler())
        .thenCompose(all -> {
          List<String> ids = all.batches();
          List<CompletableFuture<Optional<ObjectNode>>> each = ids.subList(Math.max(0, ids.size() - LISTED), ids.size())
              .stream().map(id -> progress(id).toCompletableFuture()).toList();
          return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
              .thenApply(done -> each.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList());
        });
  }
}
