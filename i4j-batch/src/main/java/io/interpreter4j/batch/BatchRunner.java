package io.interpreter4j.batch;

import io.interpreter4j.batch.journal.BatchJournal;
import io.interpreter4j.batch.journal.ResultsFile;
import io.interpreter4j.batch.journal.ResumePlan;
import io.interpreter4j.batch.progress.ProgressTracker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;

/**
 * Starts a batch and lets its caller stop it and wait for it: opens the journal (resuming what it records),
 * reconciles the results file with it, and runs a {@link BatchJob} in the actor system.
 */
public final class BatchRunner {

  private final ActorRef<BatchJob.Command> job;
  private final CompletableFuture<BatchSummary> completion;
  private final ResumePlan plan;
  private final ResultsFile.Reconciliation reconciliation;
  private final Path journalDir;
  private final List<String> warnings;

  private BatchRunner(ActorRef<BatchJob.Command> job, CompletableFuture<BatchSummary> completion, ResumePlan plan,
                      ResultsFile.Reconciliation reconciliation, Path journalDir, List<String> warnings) {
    this.job = job;
    this.completion = completion;
    this.plan = plan;
    this.reconciliation = reconciliation;
    this.journalDir = journalDir;
    this.warnings = List.copyOf(warnings);
  }

  /**
   * Starts running {@code tasks} (already validated). Returns once the journal is open and the batch job runs.
   *
   * @throws IOException when the journal or the results file cannot be opened or repaired (or the journal is in
   *                     use by another batch)
   */
  public static BatchRunner start(BatchOptions options, List<BatchTask> tasks, BatchContext context,
                                  List<BatchListener> listeners) throws IOException {
    TaskSettings taskSettings = new TaskSettings(context.config(), context.env(), options.autoApprove());
    Path journalDir = options.journalDir() != null ? options.journalDir()
        : defaultJournalDir(taskSettings.batch().dataDir(), options.tasksFile(), options.out());
    BatchJournal journal = BatchJournal.open(journalDir, Clock.systemUTC());
    ResultsFile results = null;
    try {
      List<String> warnings = new ArrayList<>(journal.state().warnings());
      ResumePlan plan = ResumePlan.of(tasks, journal.state(), options.retryFailed());
      journal.batchStarted(options.tasksFile(), options.out(), tasks.size(), plan.toRun().size(),
          options.retryFailed());
      journal.taskRequeued(plan.retried(), "--retry-failed");
      journal.taskRequeued(plan.changed(), "the task changed in the task file");
      ResultsFile.Reconciliation reconciliation = ResultsFile.reconcile(options.out(), plan.kept());
      if (reconciliation.rewritten() && journal.state().runs() > 0) {
        warnings.add("the results file was rewritten from the journal: "
            + String.join("; ", reconciliation.problems()));
      }
      results = ResultsFile.openForAppend(options.out());
      ProgressTracker tracker = new ProgressTracker(tasks.size(), plan.kept(), System.nanoTime());
      CompletableFuture<BatchSummary> completion = new CompletableFuture<>();
      TaskEnvironment env = new TaskEnvironment(taskSettings, context.models(), context.host(),
          options.defaultTimeout());
      BatchJob.Plan jobPlan = new BatchJob.Plan(plan.toRun(), options.parallel(), env, journal, results, tracker,
          List.copyOf(listeners), options.invalidLines(), completion);
      ActorRef<BatchJob.Command> job = context.system().systemActorOf(BatchJob.create(jobPlan),
          "batch-" + UUID.randomUUID(), DispatcherSelector.blocking());
      return new BatchRunner(job, completion, plan, reconciliation, journalDir, warnings);
    } catch (IOException | RuntimeException e) {
      journal.close();
      if (results != null) {
        results.close();
      }
      throw e;
    }
  }

  /** {@code <data-dir>/batches/<16 hex digits of SHA-256 of the absolute task file and results paths>}. */
  public static Path defaultJournalDir(Path dataDir, Path tasksFile, Path out) {
    String key = tasksFile.toAbsolutePath().normalize() + "\n" + out.toAbsolutePath().normalize();
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return dataDir.resolve("batches").resolve(HexFormat.of().formatHex(digest, 0, 8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  /**
   * Stops the batch: no more tasks start; running ones are interrupted (they get no result and run again on
   * resume), or with {@code drain} allowed to finish. Safe to call from any thread, more than once (a later call
   * without drain interrupts what an earlier drain let run).
   */
  public void requestStop(boolean drain) {
    if (!completion.isDone()) {
      job.tell(new BatchJob.RequestStop(drain));
    }
  }

  /** Waits for the end of the batch. */
  public BatchSummary await() throws InterruptedException {
    try {
      return completion.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(cause.getMessage(), cause);
    }
  }

  public CompletableFuture<BatchSummary> completion() {
    return completion;
  }

  /** What this run does: tasks to run, results kept from earlier runs, retried and resumed tasks. */
  public ResumePlan plan() {
    return plan;
  }

  public ResultsFile.Reconciliation reconciliation() {
    return reconciliation;
  }

  public Path journalDir() {
    return journalDir;
  }

  /** Things the user should know about the journal (a torn line cut off, a results file repaired). */
  public List<String> warnings() {
    return warnings;
  }
}
