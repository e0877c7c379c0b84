package io.interpreter4j.cluster.batch;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskEnvironment;
import io.interpreter4j.batch.TaskRunner;
import io.interpreter4j.batch.TaskSettings;
import io.interpreter4j.cluster.ClusterMessage;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.server.hub.SessionHub;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Runs batch tasks on one node: one per node, registered with the receptionist. Each task runs with its
 * {@link TaskRunner} as a session of this node's hub (listed by {@code GET /api/sessions} with this node, its events
 * journaled like any session's). Its result goes to the batch's {@link BatchLog} first, tried again until kept, and
 * only then is the coordinator told: a result outlives the coordinator. Asked what it runs, it names every task it has
 * not had a result kept for. When its node leaves ({@link Leave}) it takes no more tasks and stops its running ones,
 * which the coordinator runs again elsewhere.
 */
public final class BatchWorker extends AbstractBehavior<BatchWorker.Command> {
  public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "i4j-batch-worker");
  private static final Duration ASK = Duration.ofSeconds(10);
  private static final Duration RETRY = Duration.ofSeconds(2);

  public interface Command extends ClusterMessage {}

  /** Run attempt {@code attempt} of a task as session {@code sessionId}; answered at once. */
  public record Run(String batchId, BatchSpec.Options options, BatchSpec.TaskSpec task, int attempt, String sessionId,
                    ActorRef<RunAnswer> replyTo) implements Command {}

  /** @param accepted false: this node is leaving, run it elsewhere */
  public record RunAnswer(String node, boolean accepted) implements ClusterMessage {}

  /**
   * This node is leaving the cluster: take no more tasks, stop the running ones (they get no result here and run
   * again on another node); results already in hand are still kept.
   */
  public record Leave(ActorRef<Integer> replyTo) implements Command {}

  public record WhatRuns(ActorRef<Runs> replyTo) implements Command {}

  /** The tasks a worker runs (or whose result it is still keeping). */
  public record Runs(String node, List<Running> tasks) implements ClusterMessage {}

  public record Running(String batchId, String taskId, int attempt) implements ClusterMessage {}

  private record FromTask(String key, TaskRunner.Reply reply) implements Command {}

  private record Kept(String key, boolean ok) implements Command {}

  private record Retry(String key) implements Command {}

  /** What this node's tasks are made from: the server's hub, configuration, models and host facts. */
  public record Node(SessionHub hub, Settings settings, Config config, Map<String, String> env,
                     Function<String, ModelProvider> models, HostInfo host) {}

  private static final class Task {
    final String batchId;
    final String taskId;
    final int attempt;
    String sessionId;
    String line;
    ActorRef<TaskRunner.Command> runner;

    Task(String batchId, String taskId, int attempt, String sessionId) {
      this.batchId = batchId;
      this.taskId = taskId;
      this.attempt = attempt;
      this.sessionId = sessionId;
    }
  }

  public static Behavior<Command> create(Node node, ActorRef<ShardingEnvelope<BatchLog.Command>> logs,
                                         ActorRef<BatchCoordinator.Command> coordinator) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new BatchWorker(ctx, timers, node, logs,
        coordinator)));
  }

  private final TimerScheduler<Command> timers;
  private final Node node;
  private final ActorRef<ShardingEnvelope<BatchLog.Command>> logs;
  private final ActorRef<BatchCoordinator.Command> coordinator;
  private final String self;
  /** By {@code batchId/taskId}. */
  private final Map<String, Task> tasks = new LinkedHashMap<>();
  private final Map<String, TaskSettings> settingsByBatch = new HashMap<>();
  private long spawned;
  private boolean leaving;

  private BatchWorker(ActorContext<Command> context, TimerScheduler<Command> timers, Node node,
                      ActorRef<ShardingEnvelope<BatchLog.Command>> logs,
                      ActorRef<BatchCoordinator.Command> coordinator) {
    super(context);
    this.timers = timers;
    this.node = node;
    this.logs = logs;
    this.coordinator = coordinator;
    this.self = Cluster.get(context.getSystem()).selfMember().address().toString();
    context.getSystem().receptionist().tell(Receptionist.register(KEY, context.getSelf()));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Run.class, this::onRun)
        .onMessage(WhatRuns.class, this::onWhatRuns)
        .onMessage(FromTask.class, this::onFromTask)
        .onMessage(Kept.class, this::onKept)
        .onMessage(Retry.class, m -> keep(m.key()))
        .onMessage(Leave.class, this::onLeave)
        .build();
  }

  private Behavior<Command> onRun(Run m) {
    m.replyTo().tell(new RunAnswer(self, !leaving));
    if (leaving) {
      return this;
    }
    String key = m.batchId() + "/" + m.task().id();
    if (tasks.containsKey(key)) {
      return this; // a resend, or the coordinator thought it lost: it runs here already
    }
    BatchTask task = m.task().toTask();
    SessionHub.Registration registration;
    String sessionId = m.sessionId();
    try {
      registration = node.hub().register(sessionId, node.settings().dataDir(), false);
    } catch (IllegalArgumentException e) {
      sessionId = SessionIds.next(); // the id is taken here (or not valid): the result names the one used
      registration = node.hub().register(sessionId, node.settings().dataDir(), false);
    }
    Task t = new Task(m.batchId(), task.id(), m.attempt(), sessionId);
    tasks.put(key, t);
    TaskSettings settings = settingsByBatch.computeIfAbsent(m.batchId(), id -> settings(m.options()));
    TaskEnvironment env = new TaskEnvironment(settings, node.models(), node.host(),
        Duration.ofMillis(m.options().taskTimeoutMs()));
    ActorRef<Command> worker = getContext().getSelf();
    // replies carry the task's id only: a forwarder per task names its batch too
    ActorRef<TaskRunner.Reply> replies = getContext().spawn(Behaviors.<TaskRunner.Reply>receiveMessage(reply -> {
      worker.tell(new FromTask(key, reply));
      return reply instanceof TaskRunner.Started ? Behaviors.same() : Behaviors.stopped();
    }), "replies-" + (++spawned));
    t.runner = getContext().spawn(TaskRunner.create(task, sessionId, env, List.of(registration.subscriber()),
        replies), "task-" + spawned);
    return this;
  }

  private Behavior<Command> onLeave(Leave m) {
    if (leaving) {
      m.replyTo().tell(0);
      return this;
    }
    leaving = true;
    getContext().getSystem().receptionist().tell(Receptionist.deregister(KEY, getContext().getSelf()));
    int stopped = 0;
    for (Task t : tasks.values()) {
      if (t.line == null && t.runner != null) {
        t.runner.tell(TaskRunner.Abort.INSTANCE);
        stopped++;
      }
    }
    m.replyTo().tell(stopped);
    return this;
  }

  private TaskSettings settings(BatchSpec.Options options) {
    Map<String, Object> over = new HashMap<>();
    if (options.model() != null) {
      over.put("interpreter4j.model", options.model());
    }
    if (options.allowAll()) {
      over.put("interpreter4j.approval.dangerously-allow-all", true);
    }
    return new TaskSettings(ConfigFactory.parseMap(over, "the batch's options").withFallback(node.config()),
        node.env(), options.autoApprove());
  }

  private Behavior<Command> onWhatRuns(WhatRuns m) {
    List<Running> list = new ArrayList<>();
    tasks.values().forEach(t -> list.add(new Running(t.batchId, t.taskId, t.attempt)));
    m.replyTo().tell(new Runs(self, list));
    return this;
  }

  private Behavior<Command> onFromTask(FromTask m) {
    Task t = tasks.get(m.key());
    if (t == null) {
      return this;
    }
    if (m.reply() instanceof TaskRunner.Started started) {
      if (started.session() != null) {
        node.hub().attach(started.sessionId(), started.session());
      } else {
        node.hub().unregister(started.sessionId());
      }
    } else if (m.reply() instanceof TaskRunner.Finished finished) {
      t.line = finished.result().toJsonLine();
      return keep(m.key());
    } else if (m.reply() instanceof TaskRunner.Aborted) {
      tasks.remove(m.key());
      coordinator.tell(new BatchCoordinator.TaskStopped(t.batchId, t.taskId, t.attempt));
      forgetSettingsOf(t.batchId);
    }
    return this;
  }

  /** Keeps the task's result in its batch's journal (again, until it is kept). */
  private Behavior<Command> keep(String key) {
    Task t = tasks.get(key);
    if (t == null || t.line == null) {
      return this;
    }
    getContext().ask(Done.class, logs, ASK,
        replyTo -> new ShardingEnvelope<>(t.batchId,
            new BatchLog.RecordResult(t.taskId, t.attempt, self, t.line, replyTo)),
        (done, failure) -> new Kept(key, failure == null));
    return this;
  }

  private Behavior<Command> onKept(Kept m) {
    Task t = tasks.get(m.key());
    if (t == null) {
      return this;
    }
    if (!m.ok()) {
      getContext().getLog().warn("batch {}: the result of task {} is not kept yet; trying again in {}", t.batchId,
          t.taskId, RETRY);
      timers.startSingleTimer(m.key(), new Retry(m.key()), RETRY);
      return this;
    }
    tasks.remove(m.key());
    coordinator.tell(new BatchCoordinator.TaskEnded(t.batchId, t.taskId, t.attempt));
    forgetSettingsOf(t.batchId);
    return this;
  }

  private void forgetSettingsOf(String batchId) {
    if (tasks.values().stream().noneMatch(t -> t.batchId.equals(batchId))) {
      settingsByBatch.remove(batchId);
    }
  }
}
