package io.interpreter4j.cluster.journal;

import io.interpreter4j.cluster.ClusterMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.Effect;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;

/**
 * One session in cluster mode: a sharded entity (entity id = session id), event-sourced into PostgreSQL by Pekko
 * Persistence JDBC. It holds the session's journaled events (written by the node the session runs on, its
 * <em>home</em>), the request it was made with, and decides where the session runs: at its home while that node is a
 * member of the cluster; once the home has been downed and removed, here, on the node holding this entity, by the
 * node's {@link Host} (which rebuilds the session from the journal); or, when its home leaves the cluster, at the
 * node it is handed to ({@link HandOver}). Being the one writer of that decision, it never lets a session run on two
 * nodes at once. Appends are idempotent by the session's event number; a batch of events ({@link AppendAll}) is
 * persisted with one write.
 */
public final class SessionLog
    extends EventSourcedBehavior<SessionLog.Command, SessionLog.Recorded, SessionLog.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "session");
  /** Prefix of every session's persistence id: {@code session|ID}. */
  public static final String PERSISTENCE_TYPE = "session";

  public interface Command extends ClusterMessage {}

  /** Journals the session's event number {@code seq} (its JSON line), written at {@code home}, unless it has it. */
  public record Append(long seq, String json, String home, ActorRef<Appended> replyTo) implements Command {}

  /**
   * @param journalSeq the event's sequence number in the journal; -1 for an event it had already, {@link #STALE}
   *                   for one from a node the session has moved away from
   */
  public record Appended(long seq, long journalSeq) implements ClusterMessage {}

  public static final long STALE = -2;

  /** One event to journal: the session's event number and its JSON line. */
  public record Entry(long seq, String json) implements ClusterMessage {}

  /**
   * Journals the session's events {@code entries} (in increasing {@code seq}), written at {@code home}, with one
   * write: those it has already are left out (a batch partly journaled journals only the rest); none from a node the
   * session has moved away from.
   */
  public record AppendAll(List<Entry> entries, String home, ActorRef<AppendedAll> replyTo) implements Command {}

  /**
   * @param written    how many of the batch's events were journaled now (0: all of them were there already, or
   *                   {@code stale})
   * @param journalSeq the journal's sequence number after the batch
   * @param stale      the session has moved away from the batch's node: none of it was journaled (a batch it has
   *                   already is not stale, as with {@link Append})
   */
  public record AppendedAll(int written, long journalSeq, boolean stale) implements ClusterMessage {}

  /** What the session was made with that its events do not say, and the node it was made on; replies once kept. */
  public record SetRequest(Request request, String home, ActorRef<Done> replyTo) implements Command {}

  public record GetLast(ActorRef<Last> replyTo) implements Command {}

  /** The last event journaled, and the node (its cluster address) holding this entity. */
  public record Last(long seq, long journalSeq, String node) implements ClusterMessage {}

  /** Where the session runs now; taken over here first if its home is gone. {@code home} null: no such session. */
  public record Where(ActorRef<Location> replyTo) implements Command {}

  /**
   * @param error   why the session could not be taken over, or null
   * @param request what the session was made with (for the home, should it have to start the session itself)
   */
  public record Location(String home, long seq, String error, Request request) implements ClusterMessage {}

  private record TookOver(String error) implements Command {}

  /**
   * The session's home {@code from} is leaving the cluster and hands it to {@code to}: from now on it runs there (an
   * event written at {@code from} is refused), and {@link Where} waits until {@link HandedOver} says it started
   * there (or {@link #HAND_OVER_WAIT} passes). Refused when the session's home is not {@code from}.
   */
  public record HandOver(String from, String to, ActorRef<HandingOver> replyTo) implements Command {}

  /** @param error why the session is not handed over (its home is not the leaving node), or null */
  public record HandingOver(Request request, String error) implements ClusterMessage {}

  /**
   * The hand-over ended (told by the new home once it started the session, or failed to): {@code error} null, the
   * session runs at its new home; else it goes back to the leaver's.
   */
  public record HandedOver(String error) implements Command {}

  private enum HandOverTimedOut implements Command { INSTANCE }

  /** How long a hand-over may take before it counts as failed (the leaving node may have died meanwhile). */
  public static final Duration HAND_OVER_WAIT = Duration.ofSeconds(60);

  /** autoRun and maxIterations (null: the server's) of the request that made the session. */
  public record Request(boolean autoRun, Integer maxIterations) implements ClusterMessage {}

  /** Persisted events. */
  public interface Recorded extends ClusterMessage {}

  /** One of the session's events: its number, its JSON line, and the node that wrote it. */
  public record EventRecorded(long seq, String json, String home) implements Recorded {}

  public record RequestRecorded(Request request, String home) implements Recorded {}

  /** The session moved: it runs at {@code home} from now on. */
  public record Moved(String home) implements Recorded {}

  public record State(long seq, long journalSeq, String home, Request request) {}

  /** Rebuilds a session on this node from its journal (the server of a cluster node). */
  public interface Host {
    /** Completes when the session runs here; fails with a message for a person. */
    CompletionStage<Void> takeOver(String sessionId, Request request, String lostHome);
  }

  private static final Map<ActorSystem<?>, Host> HOSTS = new ConcurrentHashMap<>();

  /** Starts the shard region of sessions on this node; returns what to send {@link Command}s to. */
  public static ActorRef<ShardingEnvelope<Command>> init(ActorSystem<?> system) {
    return ClusterSharding.get(system).init(Entity.of(TYPE_KEY, ctx -> create(ctx.getEntityId())));
  }

  /** Who takes sessions over on this node; without one, a session whose home is gone cannot be taken over here. */
  public static void hostOn(ActorSystem<?> system, Host host) {
    HOSTS.put(system, host);
  }

  public static PersistenceId persistenceId(String sessionId) {
    return PersistenceId.of(PERSISTENCE_TYPE, sessionId);
  }

  public static Behavior<Command> create(String sessionId) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new SessionLog(ctx, timers, sessionId)));
  }

  private final ActorContext<Command> context;
  private final TimerScheduler<Command> timers;
  private final String sessionId;
  private final String self;
  /** Who asked {@link Where} while the session is being taken over. */
  private final List<ActorRef<Location>> waiting = new ArrayList<>();
  /** The node handing the session over (not persisted: a hand-over cut short by a restart counts as done). */
  private String handingOverFrom;

  private SessionLog(ActorContext<Command> context, TimerScheduler<Command> timers, String sessionId) {
    super(persistenceId(sessionId));
    this.context = context;
    this.timers = timers;
    this.sessionId = sessionId;
    this.self = Cluster.get(context.getSystem()).selfMember().address().toString();
  }

  @Override
  public State emptyState() {
    return new State(0, 0, null, null);
  }

  @Override
  public CommandHandler<Command, Recorded, State> commandHandler() {
    return newCommandHandlerBuilder().forAnyState()
        .onCommand(Append.class, this::onAppend)
        .onCommand(AppendAll.class, this::onAppendAll)
        .onCommand(SetRequest.class, (state, m) -> Effect().persist(new RequestRecorded(m.request(), m.home()))
            .thenRun(after -> m.replyTo().tell(Done.getInstance())))
        .onCommand(GetLast.class, (state, m) -> {
          m.replyTo().tell(new Last(state.seq(), state.journalSeq(), self));
          return Effect().none();
        })
        .onCommand(Where.class, this::onWhere)
        .onCommand(TookOver.class, this::onTookOver)
        .onCommand(HandOver.class, this::onHandOver)
        .onCommand(HandedOver.class, (state, m) -> endHandOver(state, m.error()))
        .onCommand(HandOverTimedOut.class, (state, m) -> endHandOver(state, "no word from the new node within "
            + HAND_OVER_WAIT.toSeconds() + " s"))
        .build();
  }

  private Effect<Recorded, State> onAppend(State state, Append m) {
    if (m.seq() <= state.seq()) {
      m.replyTo().tell(new Appended(m.seq(), -1)); // a resend: journaled already
      return Effect().none();
    }
    if (state.home() != null && !state.home().equals(m.home())) {
      m.replyTo().tell(new Appended(m.seq(), STALE)); // the session moved away from that writer's node
      return Effect().none();
    }
    return Effect().persist(new EventRecorded(m.seq(), m.json(), m.home()))
        .thenRun(after -> m.replyTo().tell(new Appended(after.seq(), after.journalSeq())));
  }

  private Effect<Recorded, State> onAppendAll(State state, AppendAll m) {
    List<Recorded> fresh = new ArrayList<>(m.entries().size());
    long last = state.seq();
    for (Entry e : m.entries()) {
      if (e.seq() > last) { // else a resend, or out of order: journaled already or never to be
        fresh.add(new EventRecorded(e.seq(), e.json(), m.home()));
        last = e.seq();
      }
    }
    if (fresh.isEmpty()) {
      m.replyTo().tell(new AppendedAll(0, state.journalSeq(), false));
      return Effect().none();
    }
    if (state.home() != null && !state.home().equals(m.home())) {
      m.replyTo().tell(new AppendedAll(0, state.journalSeq(), true)); // the session moved away from that node
      return Effect().none();
    }
    int written = fresh.size();
    return Effect().persist(fresh).thenRun(after -> m.replyTo().tell(new AppendedAll(written, after.journalSeq(),
        false)));
  }

  private Effect<Recorded, State> onWhere(State state, Where m) {
    if (state.home() == null) {
      m.replyTo().tell(new Location(null, 0, null, null));
      return Effect().none();
    }
    if (!waiting.isEmpty() || handingOverFrom != null) {
      waiting.add(m.replyTo()); // a take-over or a hand-over is under way
      return Effect().none();
    }
    if (state.home() != null && (state.home().equals(self) || isMember(state.home()))) {
      m.replyTo().tell(new Location(state.home(), state.seq(), null, requestOf(state)));
      return Effect().none();
    }
    Host host = HOSTS.get(context.getSystem());
    if (host == null) {
      m.replyTo().tell(new Location(null, state.seq(), "no server on " + self + " to take the session over",
          null));
      return Effect().none();
    }
    waiting.add(m.replyTo());
    String lost = state.home();
    Request request = requestOf(state);
    return Effect().persist(new Moved(self)).thenRun(after -> context.pipeToSelf(
        host.takeOver(sessionId, request, lost),
        (ok, failure) -> new TookOver(failure == null ? null : String.valueOf(
            failure.getCause() == null ? failure.getMessage() : failure.getCause().getMessage()))));
  }


  private Effect<Recorded, State> onHandOver(State state, HandOver m) {
    if (state.home() == null || !state.home().equals(m.from()) || handingOverFrom != null || !waiting.isEmpty()) {
      m.replyTo().tell(new HandingOver(null, "session " + sessionId + " runs at " + state.home() + ", not at "
          + m.from() + (handingOverFrom != null || !waiting.isEmpty() ? " (it is being moved)" : "")));
      return Effect().none();
    }
    handingOverFrom = m.from();
    timers.startSingleTimer(HandOverTimedOut.INSTANCE, HAND_OVER_WAIT);
    Request request = requestOf(state);
    return Effect().persist(new Moved(m.to())).thenRun(after -> m.replyTo().tell(new HandingOver(request, null)));
  }

  private Effect<Recorded, State> endHandOver(State state, String error) {
    if (handingOverFrom == null) {
      return Effect().none();
    }
    String from = handingOverFrom;
    handingOverFrom = null;
    timers.cancel(HandOverTimedOut.INSTANCE);
    if (error == null) {
      return Effect().none().thenRun(after -> answerWaiting(after.home(), after.seq(), null, requestOf(after)));
    }
    // back to the leaver's: once it is gone, the session is taken over on its next request, as after a loss
    return Effect().persist(new Moved(from)).thenRun(after -> answerWaiting(null, after.seq(), "its hand-over "
        + "failed (" + error + "); it is taken over once " + from + " is gone", null));
  }

  private void answerWaiting(String home, long seq, String error, Request request) {
    for (ActorRef<Location> replyTo : waiting) {
      replyTo.tell(new Location(home, seq, error, request));
    }
    waiting.clear();
  }

  private Effect<Recorded, State> onTookOver(State state, TookOver m) {
    for (ActorRef<Location> replyTo : waiting) {
      replyTo.tell(new Location(m.error() == null ? self : null, state.seq(), m.error(), requestOf(state)));
    }
    waiting.clear();
    return Effect().none();
  }

  private static Request requestOf(State state) {
    return state.request() == null ? new Request(false, null) : state.request();
  }

  /** Whether the node at {@code address} is a member that has not been downed or removed. */
  private boolean isMember(String address) {
    for (Member member : Cluster.get(context.getSystem()).state().getMembers()) {
      if (member.address().toString().equals(address)) {
        MemberStatus s = member.status();
        return !(s.equals(MemberStatus.down()) || s.equals(MemberStatus.removed()));
      }
    }
    return false;
  }

  @Override
  public EventHandler<State, Recorded> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(EventRecorded.class, (state, e) -> new State(e.seq(), state.journalSeq() + 1,
            state.home() == null ? e.home() : state.home(), state.request()))
        .onEvent(RequestRecorded.class, (state, e) -> new State(state.seq(), state.journalSeq() + 1,
            state.home() == null ? e.home() : state.home(), e.request()))
        .onEvent(Moved.class, (state, e) -> new State(state.seq(), state.journalSeq() + 1, e.home(), state.request()))
        .build();
  }
}
