package io.interpreter4j.cluster.serve;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.server.http.ConnectionWatch;
import io.interpreter4j.server.http.Sse;
import io.interpreter4j.server.hub.EventLine;
import io.interpreter4j.server.hub.SessionHub;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;

/**
 * What a cluster node answers beyond a single server, tried before the usual routes: {@code GET /api/cluster} (the
 * members as this node sees them), {@code GET /metrics} with the cluster gauges added, and the event stream of a
 * session running on another node ({@code GET /api/sessions/{id}/events}, after {@code Last-Event-ID}), read from
 * the PostgreSQL journal. A session running here is left to the usual routes.
 */
public final class ClusterRoutes extends AllDirectives {
  private static final Duration ASK = Duration.ofSeconds(5);

  private final SessionHub hub;
  private final ActorSystem<?> system;
  private final JdbcReadJournal reads;
  private final org.apache.pekko.actor.typed.ActorRef<ShardingEnvelope<SessionLog.Command>> journals;
  private final JournalMirror mirror;
  private final Duration keepAlive;

  public ClusterRoutes(SessionHub hub, ActorSystem<?> system, JdbcReadJournal reads,
                       org.apache.pekko.actor.typed.ActorRef<ShardingEnvelope<SessionLog.Command>> journals,
                       JournalMirror mirror, Duration keepAlive) {
    this.hub = hub;
    this.system = system;
    this.reads = reads;
    this.journals = journals;
    this.mirror = mirror;
    this.keepAlive = keepAlive;
  }

  public Route routes() {
    return concat(
        path("metrics", () -> get(() -> onSuccess(shardState(), state -> complete(HttpResponse.create()
            .withEntity(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, hub.metricsText() + gauges(state))))))),
        pathPrefix("api", () -> concat(
            path("cluster", () -> get(() -> complete(HttpResponse.create().withEntity(
                HttpEntities.create(ContentTypes.APPLICATION_JSON, EventCodec.mapper().valueToTree(members())
                    .toString()))))),
            path(PathMatchers.segment("sessions").slash(PathMatchers.segment()).slash("events"), id ->
                get(() -> hub.find(id).isPresent() ? reject()
                    : optionalHeaderValueByName("Last-Event-ID", last -> extractRequest(request ->
                        remoteEvents(request, id, last))))))));
  }

  private Route remoteEvents(HttpRequest request, String id, Optional<String> lastEventId) {
    long after = lastEventId.map(ClusterRoutes::seq).orElse(0L);
    CompletionStage<SessionLog.Last> last = AskPattern.ask(journals,
        replyTo -> new ShardingEnvelope<>(id, new SessionLog.GetLast(replyTo)), ASK, system.scheduler());
    return onSuccess(last, l -> {
      if (l.seq() == 0) {
        return complete(StatusCodes.NOT_FOUND, "{\"error\":\"no session '" + id + "'\"}");
      }
      Source<ByteString, NotUsed> frames = reads
          .eventsByPersistenceId(SessionLog.persistenceId(id).id(), 0, Long.MAX_VALUE)
          .map(envelope -> (SessionLog.Recorded) envelope.event())
          .filter(recorded -> recorded.seq() > after)
          .map(recorded -> new EventLine(id, recorded.seq(), recorded.json()).sseFrame(true));
      return complete(Sse.response(ConnectionWatch.untilClientGone(request, frames), keepAlive));
    });
  }

  private CompletionStage<ShardRegion.CurrentShardRegionState> shardState() {
    return AskPattern.ask(ClusterSharding.get(system).shardState(),
        replyTo -> new GetShardRegionState(SessionLog.TYPE_KEY, replyTo), ASK, system.scheduler());
  }

  private ObjectNode members() {
    var state = Cluster.get(system).state();
    ObjectNode n = EventCodec.mapper().createObjectNode();
    n.put("self", Cluster.get(system).selfMember().address().toString());
    ArrayNode all = n.putArray("members");
    for (Member m : state.getMembers()) {
      ObjectNode o = all.addObject();
      o.put("address", m.address().toString());
      o.put("status", m.status().toString());
      o.put("reachable", !state.getUnreachable().contains(m));
    }
    n.put("leader", state.getLeader() == null ? null : state.getLeader().toString());
    return n;
  }

  /** The cluster gauges, in the Prometheus text format, after the server's own. */
  private String gauges(ShardRegion.CurrentShardRegionState state) {
    var cluster = Cluster.get(system).state();
    long members = java.util.stream.StreamSupport.stream(cluster.getMembers().spliterator(), false).count();
    String node = Cluster.get(system).selfMember().address().toString();
    long liveHere = hub.all().stream().filter(e -> !e.ended()).count();
    long journalsHere = state.getShards().stream().mapToLong(s -> s.getEntityIds().size()).sum();
    return "# HELP i4j_cluster_members Members of the cluster as this node sees them.\n"
        + "# TYPE i4j_cluster_members gauge\n"
        + "i4j_cluster_members " + members + "\n"
        + "# HELP i4j_cluster_unreachable_members Members this node cannot reach.\n"
        + "# TYPE i4j_cluster_unreachable_members gauge\n"
        + "i4j_cluster_unreachable_members " + cluster.getUnreachable().size() + "\n"
        + "# HELP i4j_cluster_shards Shards of session journals held by this node.\n"
        + "# TYPE i4j_cluster_shards gauge\n"
        + "i4j_cluster_shards{node=\"" + node + "\"} " + state.getShards().size() + "\n"
        + "# HELP i4j_cluster_session_journals Session journals held by this node.\n"
        + "# TYPE i4j_cluster_session_journals gauge\n"
        + "i4j_cluster_session_journals{node=\"" + node + "\"} " + journalsHere + "\n"
        + "# HELP i4j_cluster_sessions Live sessions running on this node.\n"
        + "# TYPE i4j_cluster_sessions gauge\n"
        + "i4j_cluster_sessions{node=\"" + node + "\"} " + liveHere + "\n"
        + "# HELP i4j_cluster_journal_events_written Events copied into the PostgreSQL journal by this node.\n"
        + "# TYPE i4j_cluster_journal_events_written counter\n"
        + "i4j_cluster_journal_events_written " + mirror.written() + "\n"
        + "# HELP i4j_cluster_journal_gaps Times the copy into the journal fell behind and followed again.\n"
        + "# TYPE i4j_cluster_journal_gaps counter\n"
        + "i4j_cluster_journal_gaps " + mirror.gaps() + "\n";
  }

  private static long seq(String lastEventId) {
    try {
      long v = Long.parseLong(lastEventId.strip());
      return Math.max(0, v);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
