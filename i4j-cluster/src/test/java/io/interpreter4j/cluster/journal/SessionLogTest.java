package io.interpreter4j.cluster.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.cluster.boot.ClusterSettings;
import io.interpreter4j.core.testing.PostgresServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A session's journal written in batches ({@link SessionLog.AppendAll}) on a one-node cluster with a private
 * PostgreSQL: a batch is one write, a resend is not journaled twice, a batch partly journaled journals only the rest,
 * a gap in the numbers is journaled as it is, and a node the session moved away from is refused; what PostgreSQL
 * holds is read back.
 */
class SessionLogTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String WRITER = "pekko://i4j@writer:1";

  private PostgresServer pg;
  private ClusterNode<Void> node;
  private ActorRef<ShardingEnvelope<SessionLog.Command>> logs;
  private TestProbe<SessionLog.AppendedAll> replies;

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.system().terminate();
      node.system().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void journalsABatchOnceAndOnlyWhatItLacks() throws Exception {
    start("i4j_session_log");
    assertEquals(new SessionLog.AppendedAll(3, 3, false), appendAll("s1", WRITER, 1, 2, 3));
    // the same batch again (the mirror followed again after an ask timed out): nothing journaled
    assertEquals(new SessionLog.AppendedAll(0, 3, false), appendAll("s1", WRITER, 1, 2, 3));
    // overlapping: 2 and 3 are there, 4 and 5 are not
    assertEquals(new SessionLog.AppendedAll(2, 5, false), appendAll("s1", WRITER, 2, 3, 4, 5));
    // a gap (the feed was cut and followed again): 6 to 8 never came; 9 and 10 are journaled as they are
    assertEquals(new SessionLog.AppendedAll(2, 7, false), appendAll("s1", WRITER, 9, 10));
    // an event older than the last journaled, in a batch with a new one: only the new one
    assertEquals(new SessionLog.AppendedAll(1, 8, false), appendAll("s1", WRITER, 7, 11));

    List<EventEnvelope> read = journaled("s1");
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), read.stream().map(EventEnvelope::sequenceNr).toList());
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 9L, 10L, 11L), read.stream()
        .map(e -> ((SessionLog.EventRecorded) e.event()).seq()).toList());
    SessionLog.EventRecorded fourth = (SessionLog.EventRecorded) read.get(3).event();
    assertEquals(new SessionLog.EventRecorded(4, json(4), WRITER), fourth);

    // one event at a time (Append) after batches: the same numbering, the same idempotency
    TestProbe<SessionLog.Appended> one = TestProbe.create(node.system());
    logs.tell(new ShardingEnvelope<>("s1", new SessionLog.Append(11, json(11), WRITER, one.ref())));
    assertEquals(new SessionLog.Appended(11, -1), one.expectMessageClass(SessionLog.Appended.class, WAIT));
    logs.tell(new ShardingEnvelope<>("s1", new SessionLog.Append(12, json(12), WRITER, one.ref())));
    assertEquals(new SessionLog.Appended(12, 9), one.expectMessageClass(SessionLog.Appended.class, WAIT));
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void refusesABatchFromANodeTheSessionMovedAwayFrom() throws Exception {
    start("i4j_session_log_moved");
    String to = "pekko://i4j@new-home:2";
    assertEquals(new SessionLog.AppendedAll(2, 2, false), appendAll("s2", WRITER, 1, 2));
    TestProbe<SessionLog.HandingOver> handing = TestProbe.create(node.system());
    logs.tell(new ShardingEnvelope<>("s2", new SessionLog.HandOver(WRITER, to, handing.ref())));
    assertEquals(null, handing.expectMessageClass(SessionLog.HandingOver.class, WAIT).error());
    // journal: 1, 2, Moved; the old home's later events are refused, even those it had not sent before
    assertEquals(new SessionLog.AppendedAll(0, 3, true), appendAll("s2", WRITER, 3, 4));
    assertEquals(new SessionLog.AppendedAll(2, 5, false), appendAll("s2", to, 3, 4));
    // the old home resending what was journaled before the move: acknowledged as journaled, not refused
    assertEquals(new SessionLog.AppendedAll(0, 5, false), appendAll("s2", WRITER, 1, 2));

    List<EventEnvelope> read = journaled("s2");
    assertEquals(List.of("EventRecorded", "EventRecorded", "Moved", "EventRecorded", "EventRecorded"),
        read.stream().map(e -> e.event().getClass().getSimpleName()).toList());
    assertEquals(to, ((SessionLog.EventRecorded) read.get(4).event()).home());
  }

  private void start(String database) throws Exception {
    pg = PostgresServer.start(database);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    node = ClusterNode.start(new ClusterSettings("127.0.0.1", port, List.of("127.0.0.1:" + port), pg.jdbcUrl(),
        pg.user(), "", Duration.ofSeconds(30)), ConfigFactory.load(), Behaviors.empty(), false);
    logs = node.journals();
    replies = TestProbe.create(node.system());
  }

  private SessionLog.AppendedAll appendAll(String session, String home, long... seqs) {
    List<SessionLog.Entry> entries = java.util.Arrays.stream(seqs).mapToObj(s -> new SessionLog.Entry(s, json(s)))
        .toList();
    logs.tell(new ShardingEnvelope<>(session, new SessionLog.AppendAll(entries, home, replies.ref())));
    return replies.expectMessageClass(SessionLog.AppendedAll.class, WAIT);
  }

  private List<EventEnvelope> journaled(String session) throws Exception {
    return node.reads().currentEventsByPersistenceId(SessionLog.persistenceId(session).id(), 0, Long.MAX_VALUE)
        .runWith(Sink.seq(), node.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static String json(long seq) {
    return "{\"n\":" + seq + "}";
  }
}
