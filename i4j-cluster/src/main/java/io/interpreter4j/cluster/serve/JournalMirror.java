package io.interpreter4j.cluster.serve;

import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.server.hub.SessionHub;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.stream.javadsl.Sink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the events of the sessions running on this node into their {@link SessionLog}s in PostgreSQL, from where
 * every node reads them. Follows the hub's feed of all sessions' events (bounded, {@value #BUFFER} events); while its
 * writes are under way the events that come wait, by session (at most {@value #WAITING}), and each session's waiting
 * events are then journaled with one write ({@link SessionLog.AppendAll}: one {@code persistAll}, one insert), in
 * batches of at most {@value #MAX_BATCH} events and {@value #MAX_BATCH_CHARS} characters, in order per session, up
 * to {@value #PARALLEL} sessions at once. Under light load each event goes alone, at once. Deltas are copied too (the
 * file journal keeps none), so that the journal knows every event id a client may have seen. So an event is shown
 * to this node's clients before it is in PostgreSQL, by at most {@link #IN_FLIGHT} events: a session taken over
 * elsewhere numbers on past that many ({@code SessionTakeOver}). Should it fall behind by more than its buffer, the
 * feed is cut: it follows again and counts the gap in {@link #gaps()} (the file journal on this node still has every
 * event).
 */
public final class JournalMirror {
  private static final Logger LOG = LoggerFactory.getLogger(JournalMirror.class);
  static final int BUFFER = 8_192;
  static final int PARALLEL = 8;
  /** Events in one write; pekko-persistence-jdbc inserts up to its {@code batchSize} (400) rows at once. */
  static final int MAX_BATCH = 256;
  /** Characters of JSON in one write (one longer event is a write of its own): keeps an insert's size reasonable. */
  static final int MAX_BATCH_CHARS = 1 << 20;
  /** Events waiting, by session, while the writes are under way. */
  static final int WAITING = 4 * MAX_BATCH;
  /** The stream's input buffer past the feed's queue (its asynchronous boundary; Pekko's default at most 16). */
  private static final int INPUT_BUFFER = 16;
  /**
   * At most this many events of this node are shown but not yet in PostgreSQL: the feed's buffer and the stream's
   * input buffer, the events waiting and those of the waiting batches being handed out (each at most {@link
   * #WAITING}), and the writes under way.
   */
  static final int IN_FLIGHT = BUFFER + INPUT_BUFFER + 2 * WAITING + PARALLEL * MAX_BATCH;
  private static final Duration ASK = Duration.ofSeconds(10);

  private final SessionHub hub;
  private final ActorRef<ShardingEnvelope<SessionLog.Command>> journals;
  private final ActorSystem<?> system;
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong gaps = new AtomicLong();
  /** Events taken from the feed and not yet written (or refused). */
  private final AtomicLong pending = new AtomicLong();
  private final String home;
  private volatile boolean stopped;

  public JournalMirror(SessionHub hub, ActorRef<ShardingEnvelope<SessionLog.Command>> journals,
                       ActorSystem<?> system) {
    this.hub = hub;
    this.journals = journals;
    this.system = system;
    this.home = org.apache.pekko.cluster.typed.Cluster.get(system).selfMember().address().toString();
  }

  /** Starts following; returns at once. */
  public JournalMirror start() {
    hub.allEvents(BUFFER)
        .map(line -> {
          pending.incrementAndGet();
          return line;
        })
        .batch(WAITING, line -> new WaitingEvents(MAX_BATCH, MAX_BATCH_CHARS).add(line), WaitingEvents::add)
        .mapConcat(WaitingEvents::batches)
        .mapAsyncPartitioned(PARALLEL, WaitingEvents.Batch::session, (batch, session) -> append(batch))
        .runWith(Sink.ignore(), hub.materializer())
        .whenComplete((done, failure) -> {
          if (!stopped) {
            gaps.incrementAndGet();
            LOG.warn("the journal mirror {}; following again",
                failure == null ? "fell behind the sessions' events" : "failed: " + failure.getMessage());
            start();
          }
        });
    return this;
  }

  private CompletionStage<SessionLog.AppendedAll> append(WaitingEvents.Batch batch) {
    return AskPattern.<ShardingEnvelope<SessionLog.Command>, SessionLog.AppendedAll>ask(journals,
            replyTo -> new ShardingEnvelope<>(batch.session(),
                new SessionLog.AppendAll(batch.entries(), home, replyTo)), ASK, system.scheduler())
        .whenComplete((appended, failure) -> pending.addAndGet(-batch.entries().size()))
        .thenApply(appended -> {
          if (appended.stale()) {
            LOG.warn("session {} moved to another node: its events {} to {} written here were not journaled",
                batch.session(), batch.entries().get(0).seq(), batch.lastSeq());
          }
          written.addAndGet(appended.written());
          return appended;
        });
  }

  /** Events copied so far. */
  public long written() {
    return written.get();
  }

  /** How many times the mirror fell behind and followed again. */
  public long gaps() {
    return gaps.get();
  }

  /** Waits until every event taken so far is written, or {@code within} passes. */
  public void awaitWritten(Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (pending.get() > 0 && System.nanoTime() < deadline) {
      java.util.concurrent.CompletableFuture.runAsync(() -> { },
          java.util.concurrent.CompletableFuture.delayedExecutor(50, java.util.concurrent.TimeUnit.MILLISECONDS)).join();
    }
  }

  public void stop() {
    stopped = true;
  }
}
