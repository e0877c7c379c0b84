package io.interpreter4j.cluster.serve;

import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.ConversationRebuilder;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.runtime.session.SessionSpec;
import io.interpreter4j.server.hub.SessionHub;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * Takes a session over on this node after the node it ran on was lost: its events are read from the PostgreSQL
 * journal and written to this node's file journal (so that transcripts and event streams read as they do for any
 * session here); an {@code error} event says what happened, and a turn that was running is ended
 * {@code interrupted} with the reason; the session is started again
 * with its conversation rebuilt from the events and a note telling the model that its interpreters restarted and their
 * state is gone. The new session numbers its events on from the last one journaled.
 */
final class SessionTakeOver implements SessionLog.Host {
  /** Why a session moves here; {@link #source} is the {@code conversation} event's source. */
  enum Reason {
    /** Its node was downed (killed, stalled, cut off): taken over on the session's next request. */
    LOST("node lost", "was lost"),
    /** Its node left the cluster (SIGTERM) and handed it here before exiting. */
    LEFT("node left", "left the cluster");

    final String source;
    final String what;

    Reason(String source, String what) {
      this.source = source;
      this.what = what;
    }

    /** What the model is told on its next call (added to the system prompt). */
    String note() {
      return "This session was moved to another machine because the one running it " + what + ": its "
          + "interpreters were restarted and their state (variables, imports, definitions, open files) is gone. "
          + "Define again whatever you need before you use it.";
    }
  }

  private static final Duration ASK = Duration.ofSeconds(30);

  private final ActorSystem<SessionManager.Command> system;
  private final SessionHub hub;
  private final JdbcReadJournal reads;
  private final Settings base;
  private final Function<String, ModelProvider> models;
  private final HostInfo host;
  private final Executor blocking;

  SessionTakeOver(ActorSystem<SessionManager.Command> system, SessionHub hub, JdbcReadJournal reads, Settings base,
                  Function<String, ModelProvider> models, HostInfo host, Executor blocking) {
    this.system = system;
    this.hub = hub;
    this.reads = reads;
    this.base = base;
    this.models = models;
    this.host = host;
    this.blocking = blocking;
  }

  @Override
  public CompletionStage<Void> takeOver(String id, SessionLog.Request request, String lostHome) {
    return takeOver(id, request, lostHome, Reason.LOST);
  }

  /** Starts session {@code id} here from its journal; {@code from} is the node it ran on. */
  CompletionStage<Void> takeOver(String id, SessionLog.Request request, String from, Reason reason) {
    return CompletableFuture.runAsync(() -> run(id, request, from, reason), blocking);
  }

  private void run(String id, SessionLog.Request request, String lostHome, Reason reason) {
    if (hub.find(id).map(e -> !e.ended()).orElse(false)) {
      return; // runs here already
    }
    hub.find(id).ifPresent(stale -> hub.unregister(id));
    List<Event> events = journaled(id);
    EventPayload.SessionStarted started = events.stream().map(Event::payload)
        .filter(p -> p instanceof EventPayload.SessionStarted).map(p -> (EventPayload.SessionStarted) p)
        .reduce((a, b) -> b).orElseThrow(() -> new IllegalStateException("session " + id + " has no "
            + "session_started event in the journal: it cannot be started again"));
    // a client may have seen events of the lost node that were not written to PostgreSQL yet (at most
    // JournalMirror.IN_FLIGHT): number on past them, so that no id is given twice
    long seq = (events.isEmpty() ? 0 : events.get(events.size() - 1).seq()) + JournalMirror.IN_FLIGHT + 1;
    String where = lostHome == null ? "" : " (" + lostHome + ")";
    boolean running = turnWasRunning(events);
    events.add(new Event(id, seq, Instant.now(), new EventPayload.Error("the node running this session" + where
        + (reason == Reason.LEFT ? " left the cluster" : " is gone (it left the cluster or was lost)")
        + "; the session moved to this node with every event journaled "
        + "before, and its interpreters restarted")));
    if (running) {
      events.add(new Event(id, seq + 1, Instant.now(), new EventPayload.TurnFinished(TurnStatus.INTERRUPTED, 0,
          "the node running this session" + where + " " + reason.what + "; the turn was interrupted")));
    }
    Path workdir = Path.of(started.cwd());
    Settings settings = base.forSession(started.model(), workdir,
        request.autoRun() ? Settings.ApprovalMode.AUTO : Settings.ApprovalMode.ASK,
        request.maxIterations() == null ? base.maxIterations() : request.maxIterations());
    writeJournal(settings.dataDir().resolve("sessions").resolve(id).resolve("events.jsonl"), events.stream()
        .filter(e -> !(e.payload() instanceof EventPayload.AssistantDelta)).toList());
    ModelProvider provider = models.apply(started.model());
    SessionHub.Registration registration = hub.register(id, settings.dataDir(), true);
    try {
      events.forEach(registration.subscriber());
      SessionSpec spec = new SessionSpec(id, settings, provider, registration.approver(),
          new HostInfo(host.osName(), host.osVersion(), host.arch(), host.user(), workdir.toString(), host.shell(),
              host.pythonVersion(), host.languages()),
          List.of(registration.subscriber()));
      SessionManager.Created created = AskPattern.<SessionManager.Command, SessionManager.Created>ask(system,
              replyTo -> new SessionManager.Create(spec, replyTo), ASK, system.scheduler())
          .toCompletableFuture().get(ASK.toSeconds(), TimeUnit.SECONDS);
      if (created.error() != null) {
        throw new IllegalStateException(created.error());
      }
      hub.attach(id, created.session());
      List<io.interpreter4j.core.model.ChatMessage> messages =
          ConversationRebuilder.rebuild(events.stream()
              .filter(e -> !(e.payload() instanceof EventPayload.AssistantDelta)).toList(), settings.maxOutput())
              .messages();
      AskPattern.<Session.Command, Session.Changed>ask(created.session(),
              replyTo -> new Session.Restore(messages, "resume", reason.source, reason.note(), replyTo), ASK,
              system.scheduler())
          .toCompletableFuture().get(ASK.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      hub.unregister(id);
      throw new IllegalStateException("cannot start session " + id + " again on this node: " + e.getMessage(), e);
    }
  }

  private List<Event> journaled(String id) {
    try {
      List<Event> events = new ArrayList<>();
      reads.currentEventsByPersistenceId(SessionLog.persistenceId(id).id(), 0, Long.MAX_VALUE)
          .runWith(Sink.seq(), system).toCompletableFuture().get(ASK.toSeconds(), TimeUnit.SECONDS)
          .forEach(envelope -> {
            if (envelope.event() instanceof SessionLog.EventRecorded e) {
              events.add(EventCodec.fromJson(e.json()));
            }
          });
      return events;
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the journal of session " + id + ": " + e.getMessage(), e);
    }
  }

  /** Whether the last user message came after the last end of a turn. */
  static boolean turnWasRunning(List<Event> events) {
    long lastMessage = -1;
    long lastEnd = -1;
    for (Event e : events) {
      if (e.payload() instanceof EventPayload.UserMessage) {
        lastMessage = e.seq();
      } else if (e.payload() instanceof EventPayload.TurnFinished) {
        lastEnd = e.seq();
      }
    }
    return lastMessage > lastEnd;
  }

  /** Replaces the file journal with the journaled events (PostgreSQL is the truth for a session that moved). */
  private static void writeJournal(Path file, List<Event> events) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling("events.jsonl.moving");
      StringBuilder text = new StringBuilder();
      for (Event e : events) {
        text.append(EventCodec.toJson(e)).append('\n');
      }
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the journal " + file + ": " + e.getMessage(), e);
    }
  }
}
