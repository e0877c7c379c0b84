package io.interpreter4j.batch.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.BatchRunner;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import io.interpreter4j.batch.progress.Progress;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.server.hub.SessionHub;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One batch of a {@link LocalBatchService}: where it stands, as the batch job tells it (it is one of the job's
 * listeners), shown in the hub (its tasks' sessions, live) and on the dashboard's batch board.
 */
final class ServerBatch implements BatchListener {
  private static final Logger LOG = LoggerFactory.getLogger(ServerBatch.class);

  /** What a server batch is doing. */
  enum State {
    /** Its tasks run (or wait to). */
    RUNNING,
    /** Every task has a result (or it was stopped). */
    DONE,
    /** It did not end and cannot go on here (its journal is unusable, its task file no longer checks). */
    INTERRUPTED;

    String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  final BatchRecord record;
  final Path dir;
  private final SessionHub hub;
  private final Path sessionsDataDir;
  private final long invalid;
  private final AtomicInteger results = new AtomicInteger();
  private volatile State state = State.RUNNING;
  private volatile Progress progress;
  private volatile BatchSummary summary;
  private volatile String error;
  private volatile BatchRunner runner;
  /** Task id -> session id of the running tasks (at most the batch's {@code parallel}). */
  private final Map<String, String> runningTasks = new LinkedHashMap<>();

  ServerBatch(BatchRecord record, Path dir, SessionHub hub, Path sessionsDataDir, long invalid, Progress initial,
              int results) {
    this.record = record;
    this.dir = dir;
    this.hub = hub;
    this.sessionsDataDir = sessionsDataDir;
    this.invalid = invalid;
    this.progress = initial;
    this.results.set(results);
  }

  String id() {
    return record.id();
  }

  Path resultsFile() {
    return dir.resolve(BatchRecord.RESULTS);
  }

  State state() {
    return state;
  }

  void running(BatchRunner runner) {
    this.runner = runner;
    this.results.set(runner.plan().kept().size());
    this.state = State.RUNNING;
  }

  void done(BatchSummary summary) {
    this.summary = summary;
    Progress last = progress;
    // the job's last word keeps this run's rate; a batch read back from its folder has only its summary
    this.progress = last != null && last.finished() == summary.total() - summary.notRun() && last.running() == 0
        ? last : fromSummary(summary);
    this.runner = null;
    this.state = State.DONE;
    board(progress);
  }

  void interrupted(String why) {
    this.error = why;
    this.runner = null;
    this.state = State.INTERRUPTED;
    if (progress != null) {
      board(progress);
    }
  }

  /** The running batch's runner, or null. */
  BatchRunner runner() {
    return runner;
  }

  @Override
  public void onBatchStarted(Progress p) {
    progress = p;
    board(p);
  }

  /** Registered in the hub before their session was made, not yet attached. */
  private final java.util.Set<String> registered = java.util.concurrent.ConcurrentHashMap.newKeySet();

  @Override
  public List<Consumer<Event>> subscribersOf(BatchTask task, String sessionId) {
    try {
      SessionHub.Registration registration = hub.register(sessionId, sessionsDataDir, true);
      registered.add(sessionId);
      return List.of(registration.subscriber());
    } catch (RuntimeException e) {
      LOG.warn("batch {}: task {}'s session {} is not shown in the hub: {}", id(), task.id(), sessionId,
          e.toString());
      return List.of();
    }
  }

  @Override
  public void onTaskStarted(TaskStarted started, Progress p) {
    progress = p;
    synchronized (runningTasks) {
      runningTasks.put(started.task().id(), started.sessionId());
    }
    if (registered.remove(started.sessionId())) {
      hub.attach(started.sessionId(), started.session());
    }
    hub.batches().task(id(), started.task().id(), "running", started.sessionId(), null);
    board(p);
  }

  @Override
  public void onTaskFinished(TaskResult result, Progress p) {
    progress = p;
    synchronized (runningTasks) {
      runningTasks.remove(result.id());
    }
    results.incrementAndGet();
    hub.batches().task(id(), result.id(), result.status().wireName(), result.session(), result.error());
    board(p);
  }

  @Override
  public void onProgress(Progress p) {
    progress = p;
    board(p);
  }

  private void board(Progress p) {
    ObjectNode snapshot = p.toJson();
    snapshot.put("state", state.wireName());
    hub.batches().progress(id(), record.name(), snapshot);
  }

  /**
   * {@code {id, name, state, total, finished, running, queued, counts, rate_per_min, eta_ms, elapsed_ms, results,
   * invalid, running_tasks: [{id, session}]}}, with {@code summary} once done and {@code error} when interrupted.
   */
  ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("id", id());
    n.put("name", record.name());
    n.put("state", state.wireName());
    Progress p = progress;
    if (p != null) {
      n.setAll(p.toJson());
    }
    n.put("results", results.get());
    n.put("invalid", invalid);
    ArrayNode running = n.putArray("running_tasks");
    synchronized (runningTasks) {
      if (state == State.RUNNING) {
        runningTasks.forEach((task, session) -> running.addObject().put("id", task).put("session", session));
      }
    }
    BatchSummary s = summary;
    if (s != null) {
      ObjectNode sj = s.toJson();
      sj.remove("results");
      sj.remove("journal");
      n.set("summary", sj);
    }
    if (error != null) {
      n.put("error", error);
    }
    return n;
  }

  static Progress fromSummary(BatchSummary s) {
    int finished = s.total() - s.notRun();
    return new Progress(s.total(), finished, 0, s.notRun(), s.counts(), 0, s.notRun() == 0 ? 0 : -1, s.wallMs());
  }

  /** Progress made from finished results alone (nothing running): a batch read back from its folder. */
  static Progress fromResults(int total, List<TaskResult> results) {
    Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
    results.forEach(r -> counts.merge(r.status(), 1L, Long::sum));
    int finished = results.size();
    return new Progress(Math.max(total, finished), finished, 0, Math.max(0, total - finished), counts, 0, -1, 0);
  }
}
