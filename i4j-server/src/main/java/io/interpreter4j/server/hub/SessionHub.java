package io.interpreter4j.server.hub;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.server.approval.HttpApprover;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Every session the server shows: those created through the API and those attached from elsewhere (an interactive
 * terminal session with {@code i4j --dashboard}). Sessions stay listed after they stop, so their transcripts stay
 * readable. A session is registered <em>before</em> it is created, so that its first event already reaches the hub:
 * {@link #register} gives the subscriber (and approver) to put into its {@code SessionSpec}, {@link #attach} the
 * actor once it exists.
 */
public final class SessionHub {
  private static final AtomicLong WATCHERS = new AtomicLong();

  /** What a session needs from the hub before it starts: put these into its {@code SessionSpec}. */
  public record Registration(String id, Consumer<Event> subscriber, Approver approver, SessionEntry entry) {}

  private final ConcurrentMap<String, SessionEntry> entries = new ConcurrentHashMap<>();
  private final Set<LiveFeed<EventLine>> globalFeeds = ConcurrentHashMap.newKeySet();
  private final ServerMetrics metrics = new ServerMetrics();
  private final BatchBoard batches = new BatchBoard();
  private final HttpApprover approver = new HttpApprover();
  private final AtomicInteger openFeeds = new AtomicInteger();
  private final int ringSize;
  private final long ringBytes;
  private final Duration sseFlushInterval;
  /** Runs the delayed hand-outs of every session's {@link SessionFanOut}: one thread, started at the first. */
  private final ScheduledThreadPoolExecutor fanOutTimer;
  private final Materializer materializer;
  private final ActorRef<SessionWatcher.Command> watcher;

  /**
   * @param ringSize         recent events kept per running session for replays
   * @param ringBytes        about how much of their text, at most
   * @param sseFlushInterval the shortest time between two hand-outs of a session's events to its event-stream
   *                         clients ({@link SessionFanOut}); zero: each event at once
   */
  public SessionHub(ActorSystem<?> system, int ringSize, long ringBytes, Duration sseFlushInterval) {
    if (sseFlushInterval.isNegative()) {
      throw new IllegalArgumentException("the SSE flush interval must not be negative, not " + sseFlushInterval);
    }
    this.ringSize = ringSize;
    this.ringBytes = ringBytes;
    this.sseFlushInterval = sseFlushInterval;
    this.fanOutTimer = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "i4j-sse-fan-out");
      thread.setDaemon(true);
      return thread;
    });
    fanOutTimer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.materializer = Materializer.matFromSystem(system);
    this.watcher = system.systemActorOf(SessionWatcher.create(this::ended),
        "i4j-session-watcher-" + WATCHERS.incrementAndGet(), Props.empty());
  }

  /**
   * Registers a session about to be created.
   *
   * @param dataDir      the data dir of its settings (its journal and output files are under it)
   * @param approvedHere whether the dashboard answers its approval questions (then use {@link Registration#approver()})
   * @throws IllegalArgumentException if the id is not a valid session id or is already registered
   */
  public Registration register(String id, Path dataDir, boolean approvedHere) {
    if (!SessionIds.isValid(id)) {
      throw new IllegalArgumentException("invalid session id '" + id + "'");
    }
    SessionEntry entry = new SessionEntry(id, dataDir, approvedHere, ringSize, ringBytes, this, fanOut());
    if (entries.putIfAbsent(id, entry) != null) {
      throw new IllegalArgumentException("a session with id '" + id + "' is already registered");
    }
    return new Registration(id, entry::accept, approver, entry);
  }

  /**
   * Lists the sessions kept under {@code dataDir} by earlier runs (of this server, the terminal or a batch): the
   * newest {@code limit} session folders with a journal that are not registered here. Each is shown stopped, with
   * its view folded from its journal; its transcript and event stream are read from the journal. A journal still
   * being written by another process is shown as it was when read. Reads files: call it off the actors' threads.
   *
   * @return how many sessions were added
   */
  public int restore(Path dataDir, int limit) throws IOException {
    Path sessions = dataDir.toAbsolutePath().normalize().resolve("sessions");
    if (!Files.isDirectory(sessions)) {
      return 0;
    }
    List<String> ids;
    try (Stream<Path> folders = Files.list(sessions)) {
      ids = folders.map(f -> f.getFileName().toString())
          .filter(id -> SessionIds.isValid(id) && !entries.containsKey(id)
              && Files.isRegularFile(sessions.resolve(id).resolve("events.jsonl")))
          .sorted(Comparator.reverseOrder())
          .limit(Math.max(0, limit))
          .toList();
    }
    int added = 0;
    for (String id : ids) {
      SessionEntry entry = new SessionEntry(id, dataDir, false, 1, 1, this, fanOut());
      try (Stream<String> lines = Files.lines(entry.journal())) {
        lines.forEach(line -> {
          try {
            entry.view().apply(EventCodec.fromJson(line));
          } catch (RuntimeException e) {
            // a line cut short by a crash, or not an event: the view is folded from the others
          }
        });
      } catch (IOException | java.io.UncheckedIOException e) {
        continue; // unreadable journal: not listed (the folder is left as it is)
      }
      if (entries.putIfAbsent(id, entry) == null) {
        entry.end();
        added++;
      }
    }
    return added;
  }

  /** The session actor of a registered session: from now on the API can message, interrupt and stop it. */
  public void attach(String id, ActorRef<Session.Command> session) {
    SessionEntry entry = entries.get(id);
    if (entry == null) {
      throw new IllegalArgumentException("no session '" + id + "' is registered; call register first");
    }
    entry.attach(session);
    watcher.tell(new SessionWatcher.Watch(id, session));
  }

  /** Forgets a session that could not be created. */
  public void unregister(String id) {
    entries.remove(id);
    approver.forget(id);
  }

  public Optional<SessionEntry> find(String id) {
    return Optional.ofNullable(entries.get(id));
  }

  /** All sessions, newest first. */
  public List<SessionEntry> all() {
    return entries.values().stream()
        .sorted(Comparator.comparing(SessionEntry::id).reversed())
        .toList();
  }

  public ServerMetrics metrics() {
    return metrics;
  }

  /** Answers the approval questions of the sessions registered with {@code approvedHere}. */
  public HttpApprover approver() {
    return approver;
  }

  /**
   * Live events of every session, from when the source is materialized on; completes when the client falls
   * {@code bufferSize} behind. The queue runs inside the client's own stream; the source is materialized once.
   */
  public Source<EventLine, NotUsed> allEvents(int bufferSize) {
    return Source.<EventLine>queue(bufferSize)
        .mapMaterializedValue(queue -> {
          LiveFeed<EventLine> feed = new LiveFeed<>(queue, e -> true, metrics::sseOverflow);
          globalFeeds.add(feed);
          return feed;
        })
        .watchTermination((feed, done) -> {
          feedOpened();
          done.whenComplete((d, failure) -> {
            globalFeeds.remove(feed);
            feedClosed();
            feed.complete();
          });
          return NotUsed.getInstance();
        });
  }

  public Materializer materializer() {
    return materializer;
  }

  /** {@code GET /metrics}. */
  public String metricsText() {
    return metrics.render(entries.values().stream().map(SessionEntry::view).toList(), openFeeds.get());
  }

  /** {@code GET /api/summary}: turns running, blocks running and questions waiting, over live sessions. */
  public ObjectNode summary() {
    int active = 0;
    int running = 0;
    int waiting = 0;
    int live = 0;
    for (SessionEntry entry : entries.values()) {
      SessionView v = entry.view();
      if (v.stopped()) {
        continue;
      }
      live++;
      if (SessionView.RUNNING.contains(v.status())) {
        active++;
      }
      if (v.runningLanguage() != null) {
        running++;
      }
      if (v.pendingApproval() != null) {
        waiting++;
      }
    }
    ObjectNode n = EventCodec.mapper().createObjectNode();
    n.put("activeSessions", active);
    n.put("runningBlocks", running);
    n.put("approvalsWaiting", waiting);
    n.put("liveSessions", live);
    n.put("totalSessions", entries.size());
    return n;
  }

  /** Ends every open event stream (the server is stopping). */
  public void closeFeeds() {
    entries.values().forEach(SessionEntry::closeFeeds);
    globalFeeds.forEach(LiveFeed::complete);
    globalFeeds.clear();
  }

  /** Ends every event stream and stops watching sessions (the server has stopped). */
  public void shutdown() {
    closeFeeds();
    fanOutTimer.shutdown();
    watcher.tell(SessionWatcher.Stop.INSTANCE);
  }

  private SessionFanOut fanOut() {
    return new SessionFanOut(sseFlushInterval, fanOutTimer);
  }

  Collection<SessionEntry> entries() {
    return entries.values();
  }

  /** Hands an event to every all-sessions client, as one shared JSON line ({@code line}, or made here; may be null). */
  void broadcast(Event event, EventLine line) {
    EventLine shared = line;
    for (LiveFeed<EventLine> feed : globalFeeds) {
      if (shared == null) {
        shared = EventLine.of(event);
      }
      if (!feed.offer(shared)) {
        globalFeeds.remove(feed);
      }
    }
  }

  void feedOpened() {
    openFeeds.incrementAndGet();
  }

  void feedClosed() {
    openFeeds.decrementAndGet();
  }

  private void ended(String id) {
    SessionEntry entry = entries.get(id);
    if (entry != null) {
      entry.end();
    }
    approver.forget(id);
  }

  /** Batches shown in the dashboard. */
  public BatchBoard batches() {
    return batches;
  }
}
