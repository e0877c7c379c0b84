package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.runtime.session.Session;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The server's side of one session: its view, its recent events, the clients following it, and the ref to talk
 * to it. {@link #accept} is the session's event subscriber: it runs on the session's thread and only updates
 * memory and offers to bounded queues.
 */
public final class SessionEntry {
  /** Replayed events sent to a client in one batch at most. */
  private static final int HISTORY_BATCH = 64;

  private final String id;
  private final Path dataDir;
  private final Path journal;
  private final boolean approvedHere;
  private final SessionView view;
  private final EventRing ring;
  private final SessionHub hub;
  private final SessionFanOut fanOut;
  private final CompletableFuture<Done> ended = new CompletableFuture<>();
  private volatile ActorRef<Session.Command> session;

  SessionEntry(String id, Path dataDir, boolean approvedHere, int ringSize, long ringBytes, SessionHub hub,
      SessionFanOut fanOut) {
    this.id = id;
    this.dataDir = dataDir.toAbsolutePath().normalize();
    this.journal = this.dataDir.resolve("sessions").resolve(id).resolve("events.jsonl");
    this.approvedHere = approvedHere;
    this.view = new SessionView(id, Instant.now());
    this.ring = new EventRing(ringSize, ringBytes);
    this.hub = hub;
    this.fanOut = fanOut;
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
   * written as JSON once here (if anyone follows), and every client's stream shares that line; the followers of
   * this session get it in a batch ({@link SessionFanOut}).
   */
  void accept(Event event) {
    view.apply(event);
    ring.add(event);
    hub.metrics().record(event);
    EventLine line = fanOut.followed() ? EventLine.of(event) : null;
    if (line != null) {
      fanOut.publish(line);
    }
    hub.broadcast(event, line);
  }

  /**
   * The session's events with {@code seq > after}, one by one ({@link #batches}).
   */
  public Source<EventLine, NotUsed> events(long after, int bufferSize) {
    return batches(after, bufferSize).mapConcat(EventBatch::lines);
  }

  /**
   * The session's events with {@code seq > after}, in batches: first what happened (from the ring when it reaches
   * back far enough, else from the journal and then the ring), then live events as they happen, with no gap and no
   * duplicate. The live feed is subscribed when the stream is materialized, before history is read (on the first
   * demand); live events already replayed are dropped by seq. Completes when the session ends or when the client
   * falls {@code bufferSize} events behind (its batches hold that many not yet taken by its stream).
   *
   * <p>The live queue runs inside the client's own stream (no stream of its own in between): a batch costs one
   * wake-up of the client's stream, not two and a Reactive Streams hand-over. The source is one client's: it is
   * materialized once (a second time is refused, as it would share the first one's place in the events).
   */
  public Source<EventBatch, NotUsed> batches(long after, int bufferSize) {
    AtomicReference<LiveFeed<EventBatch>> subscribed = new AtomicReference<>();
    // bounded in events, not batches: a batch holds up to SessionFanOut.MAX_HELD of them (and at least one, so a
    // queue of bufferSize batches never fills before the events do)
    Source<EventBatch, LiveFeed<EventBatch>> live = Source.<EventBatch>queue(bufferSize).mapMaterializedValue(queue -> {
      LiveFeed<EventBatch> feed = new LiveFeed<>(queue, e -> true, hub.metrics()::sseOverflow,
          batch -> batch.lines().size(), bufferSize);
      if (!subscribed.compareAndSet(null, feed)) {
        throw new IllegalStateException("the events of session " + id + " after " + after
            + " were materialized twice; ask SessionEntry.events for a source per client");
      }
      fanOut.add(feed);
      if (ended()) {
        feed.complete();
      }
      return feed;
    });
    Source<EventBatch, NotUsed> history = Source.lazySource(() -> {
      if (subscribed.get() == null) {
        throw new IllegalStateException("history read before the live feed of session " + id + " was subscribed");
      }
      return history(after).grouped(HISTORY_BATCH).map(EventBatch::new);
    }).mapMaterializedValue(ignored -> NotUsed.getInstance());
    long[] last = {after};
    return history
        .concatMat(live.map(batch -> subscribed.get().taken(batch)), Keep.right())
        .filter(batch -> batch.lastSeq() > last[0])
        .map(batch -> {
          EventBatch fresh = batch.after(last[0]);
          last[0] = batch.lastSeq();
          return fresh;
        })
        .watchTermination((feed, done) -> {
          hub.feedOpened();
          done.whenComplete((d, failure) -> {
            fanOut.remove(feed);
            hub.feedClosed();
            feed.complete();
          });
          return NotUsed.getInstance();
        });
  }

  /** What happened after {@code after}, read now (the live feed is subscribed already). */
  private Source<EventLine, NotUsed> history(long after) {
    // read before the ring: when nothing had happened after `after` yet, everything comes live (the journal, which
    // has no deltas, would hide the deltas of a session that has just started behind its later events)
    boolean happened = view.lastSeq() > after;
    EventRing.Slice slice = ring.after(after);
    Source<EventLine, NotUsed> fromRing = Source.from(slice.events()).map(EventLine::of);
    return happened && slice.needsJournal(after)
        ? Transcripts.stream(id, journal, after, slice.firstSeq()).concat(fromRing)
        : fromRing;
  }

  /** The session actor stopped: nothing runs or waits any more; followers get the end of their streams. */
  void end() {
    view.markStopped();
    ended.complete(Done.getInstance());
    fanOut.complete();
    ring.release();
  }

  /** Ends every follower's stream (the server is stopping). */
  void closeFeeds() {
    fanOut.complete();
  }
}
