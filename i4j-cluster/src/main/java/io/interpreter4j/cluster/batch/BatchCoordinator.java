package io.interpreter4j.cluster.batch;

import io.interpreter4j.cluster.ClusterMessage;
import io.interpreter4j.runtime.session.SessionIds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.StashBuffer;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Schedules the cluster's batches: a cluster singleton, so one runs at a time, on the oldest node. It keeps each
 * batch's {@code parallel} tasks running over the nodes' {@link BatchWorker}s, least loaded first ({@link
 * BatchSchedule}), records each dispatch in the batch's {@link BatchLog} before sending it, and ends a batch in the
 * {@link BatchIndex} once every task has a result.
 *
 * <p>When its node is lost, the singleton starts again on another node and first recovers: the batches still running
 * from the index, what every live worker runs now, then each batch's journal. A task with a result is done; a task a
 * live worker runs keeps running; any other (dispatched to the lost node, or never sent) runs again as a new attempt,
 * in a fresh session. Messages that come meanwhile wait in a bounded stash.
 */
public final class BatchCoordinator extends AbstractBehavior<BatchCoordinator.Command> {
  private static final Duration ASK = Duration.ofSeconds(10);
  private static final Duration WORKER_ASK = Duration.ofSeconds(5);
  private static final Duration AGAIN = Duration.ofSeconds(1);
  /** Messages kept while recovering; more are dropped with a warning (workers' reports are also in the journal). */
  static final int STASH = 10_000;

  public interface Command extends ClusterMessage {}

  /** A batch was submitted (its {@link BatchLog} has it): run it; answered once it is in the index. */
  public record Start(String batchId, ActorRef<Done> replyTo) implements Command {}

  /** A worker kept the task's result in the batch's journal. */
  public record TaskEnded(String batchId, String taskId, int attempt) implements Command {}

  /** A worker stopped the task without a result (its node is leaving): it runs again. */
  public record TaskStopped(String batchId, String taskId, int attempt) implements Command {}

  public record ListBatches(ActorRef<BatchIndex.All> replyTo) implements Command {}

  public record WhereAreYou(ActorRef<Here> replyTo) implements Command {}

  /** The node (cluster address) the coordinator runs on. */
  public record Here(String node) implements ClusterMessage {}

  private record Indexed(BatchIndex.All all) implements Command {}

  private record WorkersListed(Set<ActorRef<BatchWorker.Command>> reachable, Set<ActorRef<BatchWorker.Command>> all)
      implements Command {}

  private record Answered(ActorRef<BatchWorker.Command> worker, BatchWorker.Runs runs) implements Command {}

  /** @param snapshot null: it could not be read */
  private record Loaded(String batchId, BatchLog.Snapshot snapshot, ActorRef<Done> replyTo) implements Command {}

  private record DispatchKept(BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>> dispatch, String sessionId,
                              boolean ok) implements Command {}

  private record RunAnswered(BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>> dispatch, boolean ok)
      implements Command {}

  /** Read the batch's journal (again); {@code replyTo} (or null) is told once it runs. */
  private record Load(String batchId, ActorRef<Done> replyTo) implements Command {}

  private record Added(String batchId, ActorRef<Done> replyTo, boolean ok) implements Command {}

  private enum Pump implements Command { INSTANCE }

  public static Behavior<Command> create(ActorRef<ShardingEnvelope<BatchLog.Command>> logs) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> Behaviors.withStash(STASH,
        stash -> new BatchCoordinator(ctx, timers, stash, logs))));
  }

  private final TimerScheduler<Command> timers;
  private final StashBuffer<Command> stash;
  private final ActorRef<ShardingEnvelope<BatchLog.Command>> logs;
  private final ActorRef<BatchIndex.Command> index;
  private final String self;
  private final BatchSchedule<ActorRef<BatchWorker.Command>> schedule = new BatchSchedule<>();
  /** Each running batch's tasks by id. */
  private final Map<String, Map<String, BatchSpec.TaskSpec>> tasks = new HashMap<>();
  private final Map<String, BatchSpec.Options> options = new HashMap<>();
  private List<ActorRef<BatchWorker.Command>> placeable = List.of();
  private Set<ActorRef<BatchWorker.Command>> alive = Set.of();

  // recovery: the batches to go on with, the workers asked and their answers, the journals still to read
  private boolean recovered;
  private List<String> toRecover;
  private Set<ActorRef<BatchWorker.Command>> asked;
  private final Map<ActorRef<BatchWorker.Command>, BatchWorker.Runs> answers = new HashMap<>();
  private final Map<String, BatchLog.Snapshot> loaded = new LinkedHashMap<>();

  private BatchCoordinator(ActorContext<Command> context, TimerScheduler<Command> timers, StashBuffer<Command> stash,
                           ActorRef<ShardingEnvelope<BatchLog.Command>> logs) {
    super(context);
    this.timers = timers;
    this.stash = stash;
    this.logs = logs;
    this.self = Cluster.get(context.getSystem()).selfMember().address().toString();
    this.index = context.spawn(BatchIndex.create(), "index");
    ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class,
        l -> new WorkersListed(l.getServiceInstances(BatchWorker.KEY), l.getAllServiceInstances(BatchWorker.KEY)));
    context.getSystem().receptionist().tell(Receptionist.subscribe(BatchWorker.KEY, listings));
    context.ask(BatchIndex.All.class, index, ASK, BatchIndex.GetAll::new,
        (all, failure) -> new Indexed(all == null ? new BatchIndex.All(List.of(), List.of()) : all));
    context.getLog().info("batch coordinator on {}: recovering the running batches", self);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(WhereAreYou.class, m -> {
          m.replyTo().tell(new Here(self));
          return this;
        })
        .onMessage(ListBatches.class, m -> {
          index.tell(new BatchIndex.GetAll(m.replyTo()));
          return this;
        })
        .onMessage(Indexed.class, this::onIndexed)
        .onMessage(WorkersListed.class, this::onWorkersListed)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(Loaded.class, this::onLoaded)
        .onMessage(Start.class, m -> recovered ? start(m) : stashed(m))
        .onMessage(TaskEnded.class, m -> recovered ? onTaskEnded(m) : stashed(m))
        .onMessage(TaskStopped.class, m -> recovered ? onTaskStopped(m) : stashed(m))
        .onMessage(Added.class, this::onAdded)
        .onMessage(Load.class, m -> {
          load(m.batchId(), m.replyTo());
          return this;
        })
        .onMessage(DispatchKept.class, this::onDispatchKept)
        .onMessage(RunAnswered.class, this::onRunAnswered)
        .onMessageEquals(Pump.INSTANCE, this::pump)
        .build();
  }

  private Behavior<Command> stashed(Command m) {
    if (stash.isFull()) {
      getContext().getLog().warn("batch coordinator: still recovering, {} dropped", m);
    } else {
      stash.stash(m);
    }
    return this;
  }

  private Behavior<Command> onIndexed(Indexed m) {
    toRecover = m.all().active();
    return askWorkers();
  }

  private Behavior<Command> onWorkersListed(WorkersListed m) {
    placeable = m.reachable().stream().sorted(Comparator.comparing(w -> w.path().toString())).toList();
    alive = m.all();
    if (!recovered) {
      return askWorkers();
    }
    for (BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>> lost : schedule.workersAre(alive)) {
      getContext().getLog().info("batch {}: task {} ran on {}, which is gone; it runs again", lost.batchId(),
          lost.taskId(), nodeOf(lost.worker()));
    }
    return pump();
  }

  /** Once the index and the workers are known: asks every worker what it runs (once). */
  private Behavior<Command> askWorkers() {
    if (toRecover == null || asked != null || alive.isEmpty() && placeable.isEmpty()) {
      return this;
    }
    asked = new HashSet<>(alive);
    for (ActorRef<BatchWorker.Command> worker : asked) {
      getContext().ask(BatchWorker.Runs.class, worker, WORKER_ASK, BatchWorker.WhatRuns::new,
          (runs, failure) -> new Answered(worker, runs));
    }
    return loadAllIfAnswered();
  }

  private Behavior<Command> onAnswered(Answered m) {
    answers.put(m.worker(), m.runs()); // null: it did not answer, so it runs nothing we count on
    return loadAllIfAnswered();
  }

  private Behavior<Command> loadAllIfAnswered() {
    if (asked == null || !answers.keySet().containsAll(asked)) {
      return this;
    }
    if (toRecover.isEmpty()) {
      return finishRecovery();
    }
    toRecover.forEach(id -> load(id, null));
    return this;
  }

  private void load(String batchId, ActorRef<Done> replyTo) {
    getContext().ask(BatchLog.Snapshot.class, logs, ASK,
        r -> new ShardingEnvelope<>(batchId, new BatchLog.GetSnapshot(r)),
        (snapshot, failure) -> new Loaded(batchId, snapshot, replyTo));
  }

  private Behavior<Command> onLoaded(Loaded m) {
    if (m.snapshot() == null) {
      getContext().getLog().warn("batch {}: its journal could not be read; trying again", m.batchId());
      timers.startSingleTimer("load-" + m.batchId(), new Load(m.batchId(), m.replyTo()), AGAIN);
      return this;
    }
    if (!recovered) {
      loaded.put(m.batchId(), m.snapshot());
      return loaded.keySet().containsAll(toRecover) ? finishRecovery() : this;
    }
    run(m.batchId(), m.snapshot(), Map.of());
    if (m.replyTo() != null) {
      m.replyTo().tell(Done.getInstance());
    }
    return pump();
  }

  private Behavior<Command> finishRecovery() {
    Map<String, Map<String, BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>>>> running = new HashMap<>();
    answers.forEach((worker, runs) -> {
      if (runs != null) {
        for (BatchWorker.Running r : runs.tasks()) {
          running.computeIfAbsent(r.batchId(), b -> new HashMap<>())
              .put(r.taskId(), new BatchSchedule.Dispatch<>(r.batchId(), r.taskId(), r.attempt(), worker));
        }
      }
    });
    int again = 0;
    for (Map.Entry<String, BatchLog.Snapshot> e : loaded.entrySet()) {
      again += run(e.getKey(), e.getValue(), running.getOrDefault(e.getKey(), Map.of()));
    }
    recovered = true;
    getContext().getLog().info("batch coordinator on {}: {} batches running, {} tasks to run again", self,
        loaded.size(), again);
    loaded.clear();
    answers.clear();
    stash.unstashAll(this);
    return pump();
  }

  /** Adds a batch to the schedule; returns how many of its tasks were dispatched before and run again. */
  private int run(String batchId, BatchLog.Snapshot snapshot,
                  Map<String, BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>>> running) {
    if (snapshot.spec() == null || schedule.has(batchId)) {
      return 0;
    }
    Map<String, BatchSpec.TaskSpec> byId = new LinkedHashMap<>();
    snapshot.spec().tasks().forEach(t -> byId.put(t.id(), t));
    tasks.put(batchId, byId);
    options.put(batchId, snapshot.spec().options());
    Set<String> finished = new HashSet<>(snapshot.finished());
    schedule.add(batchId, snapshot.spec().options().parallel(), new ArrayList<>(byId.keySet()), finished, running,
        snapshot.attempts());
    int again = 0;
    for (String taskId : snapshot.attempts().keySet()) {
      if (!finished.contains(taskId) && !running.containsKey(taskId)) {
        again++;
        getContext().getLog().info("batch {}: task {} was dispatched to {} and has no result; it runs again", batchId,
            taskId, snapshot.nodes().get(taskId));
      }
    }
    endIfComplete(batchId);
    return again;
  }

  private Behavior<Command> start(Start m) {
    getContext().ask(Done.class, index, ASK, r -> new BatchIndex.Add(m.batchId(), r),
        (done, failure) -> new Added(m.batchId(), m.replyTo(), failure == null));
    return this;
  }

  private Behavior<Command> onAdded(Added m) {
    if (!m.ok()) {
      getContext().getLog().warn("batch {}: the index of batches could not be written; it is not started",
          m.batchId()); // the client's request fails on its timeout; the batch log alone is never run
      return this;
    }
    load(m.batchId(), m.replyTo());
    return this;
  }

  private Behavior<Command> onTaskEnded(TaskEnded m) {
    schedule.finished(m.batchId(), m.taskId());
    endIfComplete(m.batchId());
    return pump();
  }

  private Behavior<Command> onTaskStopped(TaskStopped m) {
    schedule.failed(m.batchId(), m.taskId(), m.attempt());
    return pump();
  }

  private void endIfComplete(String batchId) {
    if (schedule.has(batchId) && schedule.complete(batchId)) {
      schedule.remove(batchId);
      tasks.remove(batchId);
      options.remove(batchId);
      index.tell(new BatchIndex.End(batchId));
      getContext().getLog().info("batch {}: every task has its result", batchId);
    }
  }

  private Behavior<Command> pump() {
    if (!recovered) {
      return this;
    }
    for (BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>> d : schedule.next(placeable)) {
      String sessionId = SessionIds.next();
      getContext().ask(Done.class, logs, ASK,
          r -> new ShardingEnvelope<>(d.batchId(),
              new BatchLog.RecordDispatch(d.taskId(), d.attempt(), nodeOf(d.worker()), sessionId, r)),
          (done, failure) -> new DispatchKept(d, sessionId, failure == null));
    }
    return this;
  }

  private Behavior<Command> onDispatchKept(DispatchKept m) {
    BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>> d = m.dispatch();
    Map<String, BatchSpec.TaskSpec> byId = tasks.get(d.batchId());
    if (byId == null) {
      return this;
    }
    if (!m.ok()) {
      return again(d);
    }
    getContext().ask(BatchWorker.RunAnswer.class, d.worker(), ASK,
        r -> new BatchWorker.Run(d.batchId(), options.get(d.batchId()), byId.get(d.taskId()), d.attempt(),
            m.sessionId(), r),
        (answer, failure) -> new RunAnswered(d, failure == null && answer.accepted()));
    return this;
  }

  private Behavior<Command> onRunAnswered(RunAnswered m) {
    return m.ok() ? this : again(m.dispatch());
  }

  /** The dispatch did not go through: the task is queued again, and tried after a moment. */
  private Behavior<Command> again(BatchSchedule.Dispatch<ActorRef<BatchWorker.Command>> d) {
    getContext().getLog().warn("batch {}: task {} could not be sent to {}; it is queued again", d.batchId(),
        d.taskId(), nodeOf(d.worker()));
    schedule.failed(d.batchId(), d.taskId(), d.attempt());
    timers.startSingleTimer(Pump.INSTANCE, AGAIN);
    return this;
  }

  private String nodeOf(ActorRef<?> ref) {
    return ref.path().address().hasLocalScope() ? self : ref.path().address().toString();
  }
}
