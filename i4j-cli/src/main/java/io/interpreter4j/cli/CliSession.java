package io.interpreter4j.cli;

import io.interpreter4j.core.event.TurnStatus;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.QuietPekko;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.repl.PythonLocator;
import io.interpreter4j.runtime.session.HostProbe;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.runtime.session.SessionSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * One session of the command line: starts the actor system and a session, sends messages, and waits for the
 * end of each turn. Closing it stops the session (its REPL processes with it) and the actor system.
 */
final class CliSession implements AutoCloseable {

  private final ActorSystem<SessionManager.Command> system;
  private final ActorRef<Session.Command> session;
  private final String id;
  private final String model;
  private volatile CompletableFuture<TurnStatus> turn = new CompletableFuture<>();
  private HostInfo host;

  private CliSession(ActorSystem<SessionManager.Command> system, ActorRef<Session.Command> session, String id,
                     String model) {
    this.system = system;
    this.session = session;
    this.id = id;
    this.model = model;
  }

  private volatile String lastReason;

  /** The actor system for the CLI; its logs go to stderr and only at WARNING and above. */
  static ActorSystem<SessionManager.Command> startSystem(Config config) {
    return ActorSystem.create(SessionManager.create(), "i4j", QuietPekko.CONFIG.withFallback(config),
        SessionManager.PROPS);
  }

  /** Facts about this machine for the system prompt (runs python once to ask its version). */
  static HostInfo host(Settings settings, Map<String, String> env) {
    String python = settings.python().isBlank() ? PythonLocator.resolve() : settings.python();
    return HostProbe.probe(settings.workdir(), python, Session.languages(), env);
  }

  static CliSession start(ActorSystem<SessionManager.Command> system, String id, Settings settings,
                          ModelProvider provider, Approver approver, List<Consumer<Event>> subscribers,
                          HostInfo host) {
    CliSession[] self = new CliSession[1];
    Consumer<Event> turnWatcher = event -> {
      if (event.payload() instanceof EventPayload.TurnFinished t && self[0] != null) {
        self[0].lastReason = t.reason();
        self[0].turn.complete(t.status());
      }
    };
    List<Consumer<Event>> all = new java.util.ArrayList<>(subscribers);
    all.add(turnWatcher);
    SessionSpec spec = new SessionSpec(id, settings, provider, approver, host, all);
    SessionManager.Created created = AskPattern.<SessionManager.Command, SessionManager.Created>ask(system,
            replyTo -> new SessionManager.Create(spec, replyTo), Duration.ofSeconds(10), system.scheduler())
        .toCompletableFuture().join();
    if (created.error() != null) {
      throw new IllegalStateException(created.error());
    }
    self[0] = new CliSession(system, created.session(), id, provider.name());
    self[0].host = host;
    return self[0];
  }

  String id() {
    return id;
  }

  ActorRef<Session.Command> ref() {
    return session;
  }

  String model() {
    return model;
  }

  /**
   * Sends a message and returns the status of the turn it starts, once that turn ends; {@code failed} at once if the
   * session refuses to start one (it said why in an error event; {@link #lastReason()} has it too).
   */
  CompletableFuture<TurnStatus> send(String text) {
    CompletableFuture<TurnStatus> current = new CompletableFuture<>();
    turn = current;
    AskPattern.<Session.Command, Session.TurnStart>ask(session, replyTo -> new Session.UserMessage(text, replyTo),
            Duration.ofSeconds(10), system.scheduler())
        .whenComplete((start, failure) -> {
          if (failure != null || !start.started()) {
            lastReason = failure != null ? "the session did not answer: " + failure.getMessage() : start.reason();
            current.complete(TurnStatus.FAILED);
          }
        });
    return current;
  }

  /** Why the last turn ended as it did (or why no turn started), or null. */
  String lastReason() {
    return lastReason;
  }

  void interrupt() {
    session.tell(Session.Interrupt.INSTANCE);
  }

  /** Facts about the machine the session was told in its system prompt; null if not known. */
  HostInfo host() {
    return host;
  }

  // ---- between turns: the conversation edits of the % commands ----

  Session.Changed reset() {
    return ask(Session.Reset::new);
  }

  Session.Changed undo() {
    return ask(Session.Undo::new);
  }

  Session.Changed restore(List<ChatMessage> messages, String reason, String source, String note) {
    return ask(replyTo -> new Session.Restore(messages, reason, source, note, replyTo));
  }

  /** The conversation as the model gets it next, system prompt first. */
  List<ChatMessage> history() {
    return ask(Session.GetHistory::new).messages();
  }

  Session.Status status() {
    return ask(Session.GetStatus::new);
  }

  /** Switches auto-run on or off; the answer says where the code runs from now on (see Session.SetApprovalMode). */
  Session.ModeSet autoRun(boolean on) {
    Settings.ApprovalMode mode = on ? Settings.ApprovalMode.AUTO : Settings.ApprovalMode.ASK;
    return ask(replyTo -> new Session.SetApprovalMode(mode, replyTo));
  }

  private <T> T ask(org.apache.pekko.japi.function.Function<ActorRef<T>, Session.Command> message) {
    return AskPattern.ask(session, message, Duration.ofSeconds(10), system.scheduler()).toCompletableFuture().join();
  }

  /** Exit code of {@code i4j run} for a turn's status. */
  static int exitCode(TurnStatus status) {
    return switch (status) {
      case DONE -> 0;
      case INTERRUPTED -> 130;
      case FAILED, GAVE_UP, BLOCKED -> 1;
    };
  }

  @Override
  public void close() {
    session.tell(Session.Stop.INSTANCE);
    system.tell(new SessionManager.StopSession(id));
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the JVM exits next; REPL processes were killed by their workers' PostStop
    }
  }
}
