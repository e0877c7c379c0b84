package io.interpreter4j.cluster.journal;

import io.interpreter4j.cluster.ClusterMessage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * The journal of one session in cluster mode: a sharded entity (entity id = session id) whose events are the
 * session's journaled events, event-sourced into PostgreSQL by Pekko Persistence JDBC. Any node reaches it by the
 * session id; when its node is lost, the next message recreates it on a survivor, which replays the journal and
 * carries on from the last event written. Appends are idempotent by the session's event number, so a writer that
 * resends after a failover never journals an event twice.
 */
public final class SessionLog
    extends EventSourcedBehavior<SessionLog.Command, SessionLog.Recorded, SessionLog.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "session-log");
  /** Prefix of every session's persistence id: {@code session|ID}. */
  public static final String PERSISTENCE_TYPE = "session";

  public interface Command extends ClusterMessage {}

  /** Journals the session's event number {@code seq}, as its JSON line, unless it already has it. */
  public record Append(long seq, String json, ActorRef<Appended> replyTo) implements Command {}

  /** @param journalSeq the event's sequence number in the journal */
  public record Appended(long seq, long journalSeq) implements ClusterMessage {}

  public record GetLast(ActorRef<Last> replyTo) implements Command {}

  /** The last event journaled and the node (its cluster address) holding the session's journal now. */
  public record Last(long seq, long journalSeq, String node) implements ClusterMessage {}

  /** A persisted event: the session's event number and its JSON line. */
  public record Recorded(long seq, String json) implements ClusterMessage {}

  /** The last session event number and journal sequence number replayed or written. */
  public record State(long seq, long journalSeq) {
    State next(long newSeq) {
      return new State(newSeq, journalSeq + 1);
    }
  }

  /** Starts the shard region of session journals on this node; returns what to send {@link Command}s to. */
  public static ActorRef<ShardingEnvelope<Command>> init(ActorSystem<?> system) {
    return ClusterSharding.get(system).init(Entity.of(TYPE_KEY, ctx -> create(ctx.getEntityId(),
        Cluster.get(system).selfMember().address().toString())));
  }

  public static PersistenceId persistenceId(String sessionId) {
    return PersistenceId.of(PERSISTENCE_TYPE, sessionId);
  }

  public static Behavior<Command> create(String sessionId, String node) {
    return new SessionLog(sessionId, node);
  }

  private final String node;

  private SessionLog(String sessionId, String node) {
    super(persistenceId(sessionId));
    this.node = node;
  }

  @Override
  public State emptyState() {
    return new State(0, 0);
  }

  @Override
  public CommandHandler<Command, Recorded, State> commandHandler() {
    return newCommandHandlerBuilder().forAnyState()
        .onCommand(Append.class, this::onAppend)
        .onCommand(GetLast.class, (state, m) -> {
          m.replyTo().tell(new Last(state.seq(), state.journalSeq(), node));
          return Effect().none();
        })
        .build();
  }

  private org.apache.pekko.persistence.typed.javadsl.Effect<Recorded, State> onAppend(State state, Append m) {
    if (m.seq() <= state.seq()) {
      m.replyTo().tell(new Appended(m.seq(), -1)); // a resend: journaled already
      return Effect().none();
    }
    return Effect().persist(new Recorded(m.seq(), m.json()))
        .thenRun(after -> m.replyTo().tell(new Appended(after.seq(), after.journalSeq())));
  }

  @Override
  public EventHandler<State, Recorded> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(Recorded.class, (state, e) -> state.next(e.seq()))
        .build();
  }
}
