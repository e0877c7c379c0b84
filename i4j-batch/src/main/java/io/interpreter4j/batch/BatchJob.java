package io.interpreter4j.batch;

import io.interpreter4j.batch.journal.BatchJournal;
import io.interpreter4j.batch.journal.ResultsFile;
import io.interpreter4j.batch.progress.Progress;
import io.interpreter4j.batch.progress.ProgressTracker;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.runtime.session.SessionIds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Runs a batch: at most {@code parallel} {@link TaskRunner} children at a time, each watched, so a task that
 * crashes ends as {@code error} and never disturbs the others. Every step is journaled before anyone is told: a
 * finished task is forced to the journal, then appended to the results file, then shown. Stopping stops starting
 * tasks and aborts the running ones ({@code drain}: lets them finish). Completes {@link Plan#completion} with
 * the summary and stops; runs on a blocking dispatcher because it writes and forces files.
 */
public final class BatchJob extends AbstractBehavior<BatchJob.Command> {

  public interface Command {}

  /** Stop the batch: no new tasks; running ones are aborted, or with {@code drain} allowed to finish. */
  public record RequestStop(boolean drain) implements Command {}

  private record FromRunner(TaskRunner.Reply reply) implements Command {}

  private record RunnerStopped(String taskId) implements Command {}

  private enum Tick implements Command { INSTANCE }

  /** Everything a batch job runs with; the journal and results file are open and reconciled. */
  public record Plan(List<BatchTask> toRun, int parallel, TaskEnvironment env, BatchJournal journal,
                     ResultsFile results, ProgressTracker tracker, List<BatchListener> listeners, long invalid,
                     CompletableFuture<BatchSummary> completion) {}

  static final Duration TICK = Duration.ofMillis(500);

  public static Behavior<Command> create(Plan plan) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerAtFixedRate(Tick.INSTANCE, TICK);
      ctx.getSelf().tell(Tick.INSTANCE);
      return new BatchJob(ctx, plan);
    }));
  }

  private record Running(BatchTask task, ActorRef<TaskRunner.Command> runner, long startNanos) {}

  private final Plan plan;
  private final Deque<BatchTask> queue;
  private final Map<String, Running> running = new LinkedHashMap<>();
  private final List<BatchListener> listeners;
  private final ActorRef<TaskRunner.Reply> runnerAdapter;
  private final Path sessionsDir;
  private final Set<String> sessionIds = new HashSet<>();
  private int spawned;
  private boolean stopping;
  private boolean finished;
  private Throwable failure;

  private BatchJob(ActorContext<Command> context, Plan plan) {
    super(context);
    this.plan = plan;
    this.queue = new ArrayDeque<>(plan.toRun());
    this.listeners = new ArrayList<>(plan.listeners());
    this.runnerAdapter = context.messageAdapter(TaskRunner.Reply.class, FromRunner::new);
    this.sessionsDir = plan.env().settings().batch().dataDir().resolve("sessions");
    Progress first = progress();
    tellListeners(l -> l.onBatchStarted(first));
    // The first tick (sent in create) starts the tasks: a failure then stops the job through PostStop.
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(FromRunner.class, this::onRunner)
        .onMessage(RunnerStopped.class, this::onRunnerStopped)
        .onMessage(RequestStop.class, this::onRequestStop)
        .onMessage(Tick.class, this::onTick)
        .onSignal(PostStop.class, this::onPostStop)
        .build();
  }

  private Behavior<Command> onRunner(FromRunner m) {
    TaskRunner.Reply reply = m.reply();
    Running r = running.get(reply.taskId());
    if (r == null) {
      return this;
    }
    if (reply instanceof TaskRunner.Started s) {
      Progress now = progress();
      BatchListener.TaskStarted started = new BatchListener.TaskStarted(r.task(), s.sessionId(), s.session());
      tellListeners(l -> l.onTaskStarted(started, now));
    } else if (reply instanceof TaskRunner.Finished f) {
      running.remove(reply.taskId());
      record(r.task(), f.result());
    } else if (reply instanceof TaskRunner.Aborted) {
      running.remove(reply.taskId());
      io(() -> plan.journal().taskInterrupted(reply.taskId()));
      plan.tracker().abandoned();
    }
    return next();
  }

  private Behavior<Command> onRunnerStopped(RunnerStopped m) {
    Running r = running.remove(m.taskId());
    if (r != null) {
      // It stopped without telling us how the task ended: it crashed (the log has the exception).
      record(r.task(), TaskResult.error(r.task().id(), null, (System.nanoTime() - r.startNanos()) / 1_000_000,
          "the task's runner failed unexpectedly; see the log for the exception"));
    }
    return next();
  }

  private Behavior<Command> onRequestStop(RequestStop m) {
    boolean wasDraining = stopping;
    stopping = true;
    queue.clear();
    if (!m.drain()) {
      running.values().forEach(r -> r.runner().tell(TaskRunner.Abort.INSTANCE));
    }
    getContext().getLog().debug("stop requested (drain={}, already stopping={})", m.drain(), wasDraining);
    return next();
  }

  private Behavior<Command> onTick(Tick m) {
    Progress now = progress();
    tellListeners(l -> l.onProgress(now));
    return next();
  }

  private Behavior<Command> onPostStop(PostStop signal) {
    if (!finished) {
      closeQuietly();
      plan.completion().completeExceptionally(failure != null ? failure
          : new IllegalStateException("the batch job stopped unexpectedly"));
    }
    return this;
  }

  // ---- helpers ----

  private void startTasks() {
    while (!stopping && running.size() < plan.parallel() && !queue.isEmpty()) {
      BatchTask task = queue.poll();
      String sessionId = newSessionId();
      io(() -> plan.journal().taskStarted(task.id(), task.fingerprint(), sessionId));
      plan.tracker().started();
      List<Consumer<Event>> alsoTell = new ArrayList<>();
      tellListeners(l -> alsoTell.addAll(l.subscribersOf(task, sessionId)));
      ActorRef<TaskRunner.Command> runner = getContext().spawn(
          TaskRunner.create(task, sessionId, plan.env(), alsoTell, runnerAdapter), "task-" + (++spawned));
      getContext().watchWith(runner, new RunnerStopped(task.id()));
      running.put(task.id(), new Running(task, runner, System.nanoTime()));
    }
  }

  /**
   * A session id no other session has: ids are a second's timestamp and 24 random bits, and a large batch starts
   * many sessions a second, so a clash is unlikely but possible; two sessions must never share a folder.
   */
  private String newSessionId() {
    while (true) {
      String id = SessionIds.next();
      if (sessionIds.add(id) && !Files.exists(sessionsDir.resolve(id))) {
        return id;
      }
    }
  }

  /** Journal (forced), then results file (forced), then listeners. */
  private void record(BatchTask task, TaskResult result) {
    io(() -> plan.journal().taskFinished(result, task.fingerprint()));
    io(() -> plan.results().append(result));
    plan.tracker().finished(result);
    Progress now = progress();
    tellListeners(l -> l.onTaskFinished(result, now));
  }

  private Behavior<Command> next() {
    startTasks();
    if (!running.isEmpty() || (!stopping && !queue.isEmpty())) {
      return this;
    }
    BatchSummary summary = plan.tracker().summary(System.nanoTime(), stopping, plan.invalid(),
        plan.results().file(), plan.journal().file().getParent());
    Map<String, Long> counts = new LinkedHashMap<>();
    summary.counts().forEach((status, n) -> counts.put(status.wireName(), n));
    io(() -> plan.journal().batchEnded(stopping, counts));
    closeQuietly();
    finished = true;
    tellListeners(l -> l.onBatchFinished(summary));
    plan.completion().complete(summary);
    return Behaviors.stopped();
  }

  private Progress progress() {
    return plan.tracker().snapshot(System.nanoTime());
  }

  private void tellListeners(Consumer<BatchListener> call) {
    for (BatchListener listener : List.copyOf(listeners)) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        getContext().getLog().warn("batch listener {} failed and was removed: {}", listener, e.toString());
        listeners.remove(listener);
      }
    }
  }

  private interface IoStep {
    void run() throws IOException;
  }

  /** The journal is the record: if it cannot be written the batch fails (and says why) rather than go on. */
  private void io(IoStep step) {
    try {
      step.run();
    } catch (IOException e) {
      failure = new UncheckedIOException("cannot write the batch journal or results: " + e.getMessage(), e);
      throw (UncheckedIOException) failure;
    }
  }

  private void closeQuietly() {
    try {
      plan.journal().close();
    } catch (IOException e) {
      // already forced after every completion
    }
    try {
      plan.results().close();
    } catch (IOException e) {
      // already forced after every line
    }
  }
}
