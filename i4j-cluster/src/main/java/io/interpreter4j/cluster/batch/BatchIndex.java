package io.interpreter4j.cluster.batch;

import io.interpreter4j.cluster.ClusterMessage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.Effect;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * Every batch of the cluster, and which of them still run: a small event-sourced list (persistence id
 * {@code batches|index}) kept by the coordinator, a child of the cluster singleton, so one writer at a time. A new
 * coordinator reads it to find the batches to go on with.
 */
public final class BatchIndex extends EventSourcedBehavior<BatchIndex.Command, BatchIndex.Recorded, BatchIndex.State> {

  public static final PersistenceId PERSISTENCE_ID = PersistenceId.of("batches", "index");

  public interface Command extends ClusterMessage {}

  public record Add(String batchId, ActorRef<Done> replyTo) implements Command {}

  public record End(String batchId) implements Command {}

  public record GetAll(ActorRef<All> replyTo) implements Command {}

  /** Every batch, oldest first, and those not done. */
  public record All(List<String> batches, List<String> active) implements ClusterMessage {}

  public interface Recorded extends ClusterMessage {}

  public record Added(String batchId) implements Recorded {}

  public record Ended(String batchId) implements Recorded {}

  /** Changed in place by the event handler only. */
  public static final class State {
    final Set<String> all = new LinkedHashSet<>();
    final Set<String> active = new LinkedHashSet<>();
  }

  public static Behavior<Command> create() {
    return new BatchIndex();
  }

  private BatchIndex() {
    super(PERSISTENCE_ID);
  }

  @Override
  public State emptyState() {
    return new State();
  }

  @Override
  public CommandHandler<Command, Recorded, State> commandHandler() {
    return newCommandHandlerBuilder().forAnyState()
        .onCommand(Add.class, (state, m) -> (state.all.contains(m.batchId()) ? Effect().none()
            : Effect().persist(new Added(m.batchId()))).thenRun(after -> m.replyTo().tell(Done.getInstance())))
        .onCommand(End.class, (state, m) -> state.active.contains(m.batchId())
            ? Effect().persist(new Ended(m.batchId())) : Effect().none())
        .onCommand(GetAll.class, (state, m) -> {
          m.replyTo().tell(new All(new ArrayList<>(state.all), new ArrayList<>(state.active)));
          return Effect().none();
        })
        .build();
  }

  @Override
  public EventHandler<State, Recorded> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(Added.class, (state, e) -> {
          state.all.add(e.batchId());
          state.active.add(e.batchId());
          return state;
        })
        .onEvent(Ended.class, (state, e) -> {
          state.active.remove(e.batchId());
          return state;
        })
        .build();
  }
}
