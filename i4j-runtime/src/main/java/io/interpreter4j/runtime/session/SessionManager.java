package io.interpreter4j.runtime.session;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Creates, finds and stops sessions. Each session is its own supervised child, so a failure in one never
 * touches another; a session that throws is resumed with its conversation intact.
 */
public final class SessionManager extends AbstractBehavior<SessionManager.Command> {

  public interface Command {}

  public record Create(SessionSpec spec, ActorRef<Created> replyTo) implements Command {}

  /** {@code error} is set (and {@code session} null) when the session could not be created. */
  public record Created(String id, ActorRef<Session.Command> session, String error) {}

  public record Find(String id, ActorRef<Optional<ActorRef<Session.Command>>> replyTo) implements Command {}

  public record StopSession(String id) implements Command {}

  private record SessionEnded(String id) implements Command {}

  /**
   * The manager's own dispatcher ({@code interpreter4j.session-manager-dispatcher}, one thread), for the system that
   * has it as guardian: {@code ActorSystem.create(SessionManager.create(), name, config, SessionManager.PROPS)}. On
   * the default dispatcher it shares the threads with every session and their children and gets a turn of a few
   * messages per pass over them all: a burst of a thousand creates on 2 cores then waited minutes for their answers
   * (asks timed out after 60 s). On its own thread each create is answered as it comes; the sessions then start on
   * the default dispatcher, queued there.
   */
  public static final Props PROPS = DispatcherSelector.fromConfig("interpreter4j.session-manager-dispatcher");

  public static Behavior<Command> create() {
    return Behaviors.setup(SessionManager::new);
  }

  private final Map<String, ActorRef<Session.Command>> sessions = new HashMap<>();

  private SessionManager(ActorContext<Command> context) {
    super(context);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Create.class, this::onCreate)
        .onMessage(Find.class, this::onFind)
        .onMessage(StopSession.class, this::onStopSession)
        .onMessage(SessionEnded.class, this::onSessionEnded)
        .build();
  }

  private Behavior<Command> onCreate(Create m) {
    String id = m.spec().id();
    if (!SessionIds.isValid(id)) {
      m.replyTo().tell(new Created(id, null, "invalid session id '" + id + "': use letters, digits, '.', '_' or '-'"));
      return this;
    }
    if (sessions.containsKey(id)) {
      m.replyTo().tell(new Created(id, null, "a session with id '" + id + "' already exists"));
      return this;
    }
    ActorRef<Session.Command> session = getContext().spawn(
        Behaviors.supervise(Session.create(m.spec())).onFailure(SupervisorStrategy.resume()),
        "session-" + id);
    getContext().watchWith(session, new SessionEnded(id));
    sessions.put(id, session);
    m.replyTo().tell(new Created(id, session, null));
    return this;
  }

  private Behavior<Command> onFind(Find m) {
    m.replyTo().tell(Optional.ofNullable(sessions.get(m.id())));
    return this;
  }

  private Behavior<Command> onStopSession(StopSession m) {
    ActorRef<Session.Command> session = sessions.get(m.id());
    if (session != null) {
      session.tell(Session.Stop.INSTANCE);
    }
    return this;
  }

  private Behavior<Command> onSessionEnded(SessionEnded m) {
    sessions.remove(m.id());
    return this;
  }
}
