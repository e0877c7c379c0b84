package io.interpreter4j.cluster.batch;

import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.cluster.ClusterMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.Effect;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * The journal of one batch on the cluster: a sharded entity (entity type {@code batch}, entity id = batch id),
 * event-sourced into PostgreSQL (persistence id {@code batch|ID}). It holds the batch as submitted, each dispatch of a
 * task to a node, and each task's result, recorded at most once: a second result for the same task (the task ran
 * again after its node was lost, and both runs finished) is acknowledged and dropped. The workers write results here
 * themselves, so a result survives the loss of the coordinator; results read back in the order they were recorded.
 */
public final class BatchLog extends EventSourcedBehavior<BatchLog.Command, BatchLog.Recorded, BatchLog.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "batch");
  /** Prefix of every batch's persistence id: {@code batch|ID}. */
  public static final String PERSISTENCE_TYPE = "batch";

  public interface Command extends ClusterMessage {}

  /** Keeps the batch; a resend of the same submission is acknowledged again. */
  public record Submit(BatchSpec spec, ActorRef<Done> replyTo) implements Command {}

  /** Task {@code taskId}'s attempt {@code attempt} goes to {@code node} as session {@code sessionId}. */
  public record RecordDispatch(String taskId, int attempt, String node, String sessionId, ActorRef<Done> replyTo)
      implements Command {}

  /** A task's result line ({@link TaskResult#toJsonLine()}); kept unless the task has one. */
  public record RecordResult(String taskId, int attempt, String node, String line, ActorRef<Done> replyTo)
      implements Command {}

  public record GetSnapshot(ActorRef<Snapshot> replyTo) implements Command {}

  /**
   * What the coordinator needs to go on with the batch.
   *
   * @param spec     null: no such batch
   * @param finished the tasks with a result
   * @param attempts the last attempt dispatched, per task
   * @param nodes    the node of that attempt, per task
   */
  public record Snapshot(BatchSpec spec, List<String> finished, Map<String, Integer> attempts,
                         Map<String, String> nodes) implements ClusterMessage {}

  /** The progress JSON with its tasks (null: no such batch), without the coordinator (see {@link BatchProgress}). */
  public record GetProgress(ActorRef<ProgressJson> replyTo) implements Command {}

  public record ProgressJson(String json) implements ClusterMessage {}

  public record GetResults(int from, ActorRef<Results> replyTo) implements Command {}

  /** @param known false: no such batch */
  public record Results(boolean known, List<String> lines) implements ClusterMessage {}

  /** Persisted events. */
  public interface Recorded extends ClusterMessage {}

  public record Submitted(BatchSpec spec) implements Recorded {}

  public record TaskDispatched(String taskId, int attempt, String node, String sessionId, long atMs)
      implements Recorded {}

  public record TaskFinished(String taskId, int attempt, String node, String line, long atMs) implements Recorded {}

  /** The batch as its events made it; changed in place by the event handler only. */
  public static final class State {
    BatchSpec spec;
    final Map<String, String> results = new LinkedHashMap<>();
    final List<TaskResult> parsed = new ArrayList<>();
    final Map<String, TaskDispatched> dispatched = new HashMap<>();
    /** Each task dispatched or finished, as the progress lists it. */
    final Map<String, BatchProgress.TaskState> tasks = new HashMap<>();
    long lastFinishedAtMs;

    int running() {
      int n = 0;
      for (String taskId : dispatched.keySet()) {
        n += results.containsKey(taskId) ? 0 : 1;
      }
      return n;
    }
  }

  /** Starts the shard region of batches on this node; returns what to send {@link Command}s to. */
  public static ActorRef<ShardingEnvelope<Command>> init(ActorSystem<?> system) {
    return ClusterSharding.get(system).init(Entity.of(TYPE_KEY, ctx -> create(ctx.getEntityId())));
  }

  public static PersistenceId persistenceId(String batchId) {
    return PersistenceId.of(PERSISTENCE_TYPE, batchId);
  }

  public static Behavior<Command> create(String batchId) {
    return new BatchLog(batchId);
  }

  private final String batchId;

  private BatchLog(String batchId) {
    super(persistenceId(batchId));
    this.batchId = batchId;
  }

  @Override
  public State emptyState() {
    return new State();
  }

  @Override
  public CommandHandler<Command, Recorded, State> commandHandler() {
    return newCommandHandlerBuilder().forAnyState()
        .onCommand(Submit.class, this::onSubmit)
        .onCommand(RecordDispatch.class, (state, m) -> Effect()
            .persist(new TaskDispatched(m.taskId(), m.attempt(), m.node(), m.sessionId(), System.currentTimeMillis()))
            .thenRun(after -> m.replyTo().tell(Done.getInstance())))
        .onCommand(RecordResult.class, this::onRecordResult)
        .onCommand(GetSnapshot.class, this::onGetSnapshot)
        .onCommand(GetProgress.class, (state, m) -> {
          m.replyTo().tell(new ProgressJson(state.spec == null ? null : BatchProgress.json(batchId, state.spec,
              state.tasks, state.parsed, state.running(), state.lastFinishedAtMs, System.currentTimeMillis())
              .toString()));
          return Effect().none();
        })
        .onCommand(GetResults.class, (state, m) -> {
          List<String> lines = new ArrayList<>(state.results.values());
          m.replyTo().tell(new Results(state.spec != null,
              List.copyOf(lines.subList(Math.min(Math.max(0, m.from()), lines.size()), lines.size()))));
          return Effect().none();
        })
        .build();
  }

  private Effect<Recorded, State> onSubmit(State state, Submit m) {
    if (state.spec != null) {
      m.replyTo().tell(Done.getInstance());
      return Effect().none();
    }
    return Effect().persist(new Submitted(m.spec())).thenRun(after -> m.replyTo().tell(Done.getInstance()));
  }

  private Effect<Recorded, State> onRecordResult(State state, RecordResult m) {
    if (state.results.containsKey(m.taskId())) {
      m.replyTo().tell(Done.getInstance()); // recorded already: a task's result is kept once
      return Effect().none();
    }
    return Effect().persist(new TaskFinished(m.taskId(), m.attempt(), m.node(), m.line(), System.currentTimeMillis()))
        .thenRun(after -> m.replyTo().tell(Done.getInstance()));
  }

  private Effect<Recorded, State> onGetSnapshot(State state, GetSnapshot m) {
    Map<String, Integer> attempts = new HashMap<>();
    Map<String, String> nodes = new HashMap<>();
    state.dispatched.forEach((taskId, d) -> {
      attempts.put(taskId, d.attempt());
      nodes.put(taskId, d.node());
    });
    m.replyTo().tell(new Snapshot(state.spec, List.copyOf(state.results.keySet()), attempts, nodes));
    return Effect().none();
  }

  @Override
  public EventHandler<State, Recorded> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(Submitted.class, (state, e) -> {
          state.spec = e.spec();
          return state;
        })
        .onEvent(TaskDispatched.class, (state, e) -> {
          state.dispatched.put(e.taskId(), e);
          BatchProgress.TaskState was = state.tasks.get(e.taskId());
          state.tasks.put(e.taskId(), was == null ? new BatchProgress.TaskState(e, null, null)
              : new BatchProgress.TaskState(e, was.result(), was.resultNode()));
          return state;
        })
        .onEvent(TaskFinished.class, (state, e) -> {
          if (state.results.putIfAbsent(e.taskId(), e.line()) == null) {
            TaskResult result = TaskResult.fromJsonLine(e.line());
            state.parsed.add(result);
            BatchProgress.TaskState was = state.tasks.get(e.taskId());
            state.tasks.put(e.taskId(), new BatchProgress.TaskState(was == null ? null : was.dispatched(), result,
                e.node()));
            state.lastFinishedAtMs = Math.max(state.lastFinishedAtMs, e.atMs());
          }
          return state;
        })
        .build();
  }
}
