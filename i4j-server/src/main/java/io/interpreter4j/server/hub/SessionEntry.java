package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.runtime.session.Session;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The server's side of one session: its view, its recent events, the clients following it, and the ref to talk
 * to it. {@link #accept} is the session's event subscriber: it runs on the session's thread and only updates
 * memory and offers to bounded queues.
 */
public final class SessionEntry {
  private final String id;
  private final Path dataDir;
  private final Path journal;
  private final boolean approvedHere;
  private final SessionView view;
  private final EventRing ring;
  private final SessionHub hub;
  private final Set<LiveFeed<EventLine>> feeds = ConcurrentHashMap.newKeySet();
  private final CompletableFuture<Done> ended = new CompletableFuture<>();
  private volatile ActorRef<Session.Command> session;

  SessionEntry(String id, Path dataDir, boolean approvedHere, int ringSize, long ringBytes, SessionHub hub) {
    this.id = id;
    this.dataDir = dataDir.toAbsolutePath().normalize();
    this.journal = this.dataDir.resolve("sessions").resolve(id).resolve("events.jsonl");
    this.approvedHere = approvedHere;
    this.view = new SessionView(id, Instant.now());
    this.ring = new EventRing(ringSize, ringBytes);
    this.hub = hub;
  }

  public String id() {
    return id;
  }

  public SessionView view() {
    return view;
  }

  /** The folder under which the session's journal and output files must lie. */
  public Path dataDir() {
    return dataDir;
  }

  public Path journal() {
    return journal;
  }

  /** Whether the dashboard answers this session's approval questions (its approver is the server's). */
  public boolean approvedHere() {
    return approvedHere;
  }

  /** The session actor, or null until it is attached. */
  public ActorRef<Session.Command> session() {
    return session;
  }

  void attach(ActorRef<Session.Command> ref) {
    this.session = ref;
  }

  /** Completes when the session actor has stopped. */
  public CompletionStage<Done> whenEnded() {
    return ended;
  }

  public boolean ended() {
    return ended.isDone();
  }

  /**
   * The session's subscriber: fold into the view, keep in the ring, count, hand to every follower. The event is
   * written as JSON once here (if anyone follows), and every client's stream shares that line.
   */
  void accept(Event event) {
    view.apply(event);
    ring.add(event);
    hub.metrics().record(event);
    EventLine line = null;
    for (LiveFeed<EventLine> feed : feeds) {
      if (line == null) {
        line = EventLine.of(event);
      }
      if (!feed.offer(line)) {
        feeds.remove(feed);
      }
    }
    hub.broadcast(event, line);
  }

  /**
   * The session's events with {@code seq > after}: first what happened (from the ring when it reaches back far
   * enough, else from the journal and then the ring), then live events as they happen, with no gap and no
   * duplicate. The live feed is subscribed before history is read; live events already replayed are dropped by
   * seq. Completes when the session ends or when the client falls {@code bufferSize} events behind.
   */
  public Source<EventLine, NotUsed> events(long after, int bufferSize, Materializer materializer) {
    Pair<BoundedSourceQueue<EventLine>, Source<EventLine, NotUsed>> live =
        Source.<EventLine>queue(bufferSize).preMaterialize(materializer);
    LiveFeed<EventLine> feed = new LiveFeed<>(live.first(), e -> true, hub.metrics()::sseOverflow);
    feeds.add(feed);
    if (ended()) {
      feed.complete();
    }
    // read before the ring: when nothing had happened after `after` yet, everything comes live (the journal, which
    // has no deltas, would hide the deltas of a session that has just started behind its later events)
    boolean happened = view.lastSeq() > after;
    EventRing.Slice slice = ring.after(after);
    Source<EventLine, NotUsed> fromRing = Source.from(slice.events()).map(EventLine::of);
    Source<EventLine, NotUsed> history = happened && slice.needsJournal(after)
        ? Transcripts.stream(id, journal, after, slice.firstSeq()).concat(fromRing)
        : fromRing;
    return history
        .concat(live.second())
        .statefulMapConcat(() -> dropSeenBefore(after))
        .watchTermination((mat, done) -> {
          hub.feedOpened();
          done.whenComplete((d, failure) -> {
            feeds.remove(feed);
            hub.feedClosed();
            feed.complete();
          });
          return mat;
        });
  }

  /** Lets an event through only if its seq is past every seq let through before. */
  private static Function<EventLine, Iterable<EventLine>> dropSeenBefore(long after) {
    long[] last = {after};
    return line -> {
      if (line.seq() <= last[0]) {
        return List.of();
      }
      last[0] = line.seq();
      return List.of(line);
    };
  }

  /** The session actor stopped: nothing runs or waits any more; followers get the end of their streams. */
  void end() {
    view.markStopped();
    ended.complete(Done.getInstance());
    for (LiveFeed<EventLine> feed : feeds) {
      feed.complete();
    }
    feeds.clear();
    ring.release();
  }

  /** Ends every follower's stream (the server is stopping). */
  void closeFeeds() {
    for (LiveFeed<EventLine> feed : feeds) {
      feed.complete();
    }
    feeds.clear();
  }
}
