package io.interpreter4j.cluster.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.server.http.OpenAiRoutes;
import io.interpreter4j.server.hub.SessionHub;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;

/**
 * What a cluster node answers beyond a single server, in front of the usual routes:
 * <ul>
 *   <li>{@code /api/sessions/{id}/...} of a session running on another node is passed on to that node (request
 *   and response streamed through, event streams included); a session whose node is gone is first taken over here
 *   or elsewhere ({@link SessionLog.Where});
 *   <li>{@code GET /api/sessions} lists the whole cluster's sessions, each with its {@code node}, and
 *   {@code GET /api/summary} sums every node's counts;
 *   <li>{@code POST /api/sessions} also keeps, in the session's journal, what the request said that its events do
 *   not (autoRun, maxIterations), before answering;
 *   <li>{@code POST /v1/chat/completions} continuing a session ({@code X-I4J-Session}) that runs on another node is
 *   passed on to it the same way, its streamed answer included;
 *   <li>{@code GET /api/events} (the dashboard's live feed) merges every node's feed, so that the list changes live
 *   for the sessions of every node; it ends when the set of nodes changes, and the client reconnects;
 *   <li>{@code GET /api/cluster}: the members as this node sees them; {@code GET /metrics} adds cluster gauges;
 *   <li>{@code POST /api/cluster/take-over}, from a node leaving the cluster only: start one of its sessions here.
 * </ul>
 * A request passed on carries {@value #FORWARDED}, and the node receiving it answers it itself.
 */
public final class ClusterRoutes extends AllDirectives {
  static final String FORWARDED = "X-I4J-Forwarded";
  private static final Duration ASK = Duration.ofSeconds(30);
  private static final Duration BODY = Duration.ofSeconds(10);
  /** How long one {@link SessionLog.Where} may go unanswered, and how many are asked at most (30 s in all). */
  private static final Duration WHERE_WAIT = Duration.ofSeconds(3);
  private static final int WHERE_TRIES = 10;

  private final SessionHub hub;
  private final ActorSystem<?> system;
  private final ActorRef<ShardingEnvelope<SessionLog.Command>> sessions;
  private final JournalMirror mirror;
  private final Map<String, String> nodes;
  private final Supplier<String> token;
  private final String self;
  private final SessionTakeOver takeOver;
  private final int bufferSize;
  private final Duration keepAlive;
  private final boolean autoRunByDefault;

  /**
   * @param nodes      cluster address to HTTP base URL of every node ({@link NodeDirectory})
   * @param token      the API token, the same on every node
   * @param takeOver   starts sessions here that a leaving node hands over
   * @param bufferSize events queued for one client of the live feed before it is cut off (it reconnects)
   * @param keepAlive  how long the live feed may stay silent before a keep-alive comment
   * @param autoRunByDefault whether the server runs blocks without asking (the sessions of {@code /v1} do so then)
   */
  ClusterRoutes(SessionHub hub, ActorSystem<?> system, ActorRef<ShardingEnvelope<SessionLog.Command>> sessions,
                JournalMirror mirror, Map<String, String> nodes, Supplier<String> token, SessionTakeOver takeOver,
                int bufferSize, Duration keepAlive, boolean autoRunByDefault) {
    this.autoRunByDefault = autoRunByDefault;
    this.takeOver = takeOver;
    this.bufferSize = bufferSize;
    this.keepAlive = keepAlive;
    this.hub = hub;
    this.system = system;
    this.sessions = sessions;
    this.mirror = mirror;
    this.nodes = nodes;
    this.token = token;
    this.self = Cluster.get(system).selfMember().address().toString();
  }

  /** The cluster's routes in front of {@code usual} (given {@code /api}'s, and apart {@code /v1}'s). */
  public Route around(Route usual) {
    return concat(
        // before any path is matched: the usual routes get the request as it came
        pathPrefixTest("api", () -> post(() -> extractUri(uri -> !uri.path().equals("/api/sessions") ? reject()
            : extractStrictEntity(BODY, body -> mapRouteResultFuture(
                result -> result.thenCompose(r -> keepRequest(body, r)), () -> usual))))),
        path(PathMatchers.segment("v1").slash("chat").slash("completions"), () -> post(() ->
            optionalHeaderValueByName(OpenAiRoutes.SESSION_HEADER, session ->
                optionalHeaderValueByName(FORWARDED, forwarded -> forwarded.isPresent() ? reject()
                    : session.isEmpty() ? mapRouteResultFuture(result -> result.thenCompose(this::keepOpenAiSession),
                        () -> usual)
                    : hub.find(session.get().strip()).map(e -> !e.ended()).orElse(false) ? reject()
                    : withoutRequestTimeout(() -> extractRequest(request ->
                        onSuccess(where(session.get().strip()), at -> passOn(request, session.get().strip(), at)))))))),
        path("metrics", () -> get(() -> onSuccess(shardState(), state -> complete(HttpResponse.create()
            .withEntity(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, hub.metricsText() + gauges(state))))))),
        pathPrefix("api", () -> concat(
            path("cluster", () -> get(() -> complete(HttpResponse.create().withEntity(
                HttpEntities.create(ContentTypes.APPLICATION_JSON, members().toString()))))),
            path(PathMatchers.segment("cluster").slash("take-over"), () -> post(() ->
                headerValueByName(FORWARDED, from -> extractStrictEntity(BODY, body -> takeOverHere(from, body))))),
            path("events", () -> get(() -> optionalHeaderValueByName(FORWARDED, forwarded -> forwarded.isPresent()
                ? reject() : complete(ClusterFeed.response(clusterFeed(), keepAlive))))),
            path("summary", () -> get(() -> optionalHeaderValueByName(FORWARDED, forwarded -> forwarded.isPresent()
                ? reject()
                : onSuccess(clusterSummary(), sum -> complete(HttpResponse.create()
                    .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, sum.toString()))))))),
            path("sessions", () -> get(() -> optionalHeaderValueByName(FORWARDED, forwarded -> forwarded.isPresent()
                ? reject()
                : onSuccess(clusterList(), list -> complete(HttpResponse.create()
                    .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, list.toString()))))))),
            pathPrefix(PathMatchers.segment("sessions").slash(PathMatchers.segment()), id ->
                optionalHeaderValueByName(FORWARDED, forwarded -> forwarded.isPresent()
                    || hub.find(id).map(e -> !e.ended()).orElse(false) ? reject()
                    : extractRequest(request -> onSuccess(where(id), at -> passOn(request, id, at))))))),
        usual);
  }

  /** A session handed over by the node {@code from}, which is leaving: started here from its journal. */
  private Route takeOverHere(String from, HttpEntity.Strict body) {
    JsonNode json;
    try {
      json = EventCodec.mapper().readTree(body.getData().utf8String());
    } catch (IOException e) {
      return complete(StatusCodes.BAD_REQUEST, "{\"error\":\"the body is not JSON: " + e.getMessage()
          .replace("\"", "'") + "\"}");
    }
    String id = json.path("id").asText("");
    if (id.isEmpty()) {
      return complete(StatusCodes.BAD_REQUEST, "{\"error\":\"id is missing\"}");
    }
    SessionLog.Request request = new SessionLog.Request(json.path("autoRun").asBoolean(false),
        json.hasNonNull("maxIterations") ? json.get("maxIterations").asInt() : null);
    CompletionStage<String> started = takeOver.takeOver(id, request, json.path("from").asText(from),
            SessionTakeOver.Reason.LEFT)
        .handle((ok, failure) -> failure == null ? null
            : String.valueOf(failure.getCause() == null ? failure.getMessage() : failure.getCause().getMessage()))
        .thenApply(error -> { // told here, not by the leaver: it may be gone by now
          sessions.tell(new ShardingEnvelope<>(id, new SessionLog.HandedOver(error)));
          return error;
        });
    return onSuccess(started, error -> error == null
        ? complete(HttpResponse.create().withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON,
            "{\"id\":\"" + id + "\",\"node\":\"" + self + "\"}")))
        : complete(StatusCodes.SERVICE_UNAVAILABLE, "{\"error\":\"" + error.replace("\"", "'") + "\"}"));
  }

  /** This node's live feed merged with every other node's, as {@link ClusterFeed} frames them. */
  private Source<ByteString, NotUsed> clusterFeed() {
    Map<String, String> known = Map.copyOf(nodes);
    List<Source<ByteString, NotUsed>> others = new ArrayList<>();
    for (Map.Entry<String, String> node : known.entrySet()) {
      if (!node.getKey().equals(self)) {
        HttpRequest ask = HttpRequest.create(node.getValue() + "/api/events").withMethod(HttpMethods.GET)
            .addHeaders(List.of(RawHeader.create("Authorization", "Bearer " + token.get()),
                RawHeader.create(FORWARDED, self)));
        others.add(ClusterFeed.remote(Http.get(system).singleRequest(ask), system));
      }
    }
    return ClusterFeed.merge(hub.allEvents(bufferSize).map(line -> line.sseFrame(false)), others,
        () -> nodes.keySet().equals(known.keySet()));
  }

  private Route passOn(HttpRequest request, String id, SessionLog.Location at) {
    if (at.home() == null && at.error() != null) {
      return complete(StatusCodes.SERVICE_UNAVAILABLE, "{\"error\":\"session '" + id + "' cannot be started on "
          + "another node yet: " + at.error().replace("\"", "'") + "; try again\"}");
    }
    if (at.home() != null && at.home().equals(self) && hub.find(id).isEmpty()) {
      // its journal says it runs here and it does not: a hand-over to this node was cut short (the leaving node
      // died before asking this one to start it); start it here now
      CompletionStage<String> started = takeOver.takeOver(id, at.request(), null, SessionTakeOver.Reason.LEFT)
          .handle((ok, failure) -> failure == null ? null : String.valueOf(failure.getCause() == null
              ? failure.getMessage() : failure.getCause().getMessage()));
      return onSuccess(started, error -> error == null ? reject() : complete(StatusCodes.SERVICE_UNAVAILABLE,
          "{\"error\":\"session '" + id + "' cannot be started on this node yet: " + error.replace("\"", "'")
              + "; try again\"}"));
    }
    if (at.home() == null || at.home().equals(self)) {
      return reject(); // none such (the usual 404), or it runs here now
    }
    String url = nodes.get(at.home());
    if (url == null) {
      return complete(StatusCodes.SERVICE_UNAVAILABLE, "{\"error\":\"session '" + id + "' runs on " + at.home()
          + ", whose HTTP address is not known here yet; try again\"}");
    }
    return completeWithFuture(Http.get(system).singleRequest(forward(request, url)));
  }

  /** The request as sent to {@code url}: the same method, path, query and body, this node's token, no Origin. */
  private HttpRequest forward(HttpRequest request, String url) {
    String target = url + request.getUri().getPathString()
        + request.getUri().rawQueryString().map(q -> "?" + q).orElse("");
    List<HttpHeader> headers = new ArrayList<>();
    for (HttpHeader h : request.getHeaders()) {
      String name = h.lowercaseName();
      if (!List.of("host", "origin", "cookie", "authorization", "timeout-access", "connection", "content-length",
          "content-type", "remote-address", "transfer-encoding").contains(name)) {
        headers.add(h);
      }
    }
    headers.add(RawHeader.create("Authorization", "Bearer " + token.get()));
    headers.add(RawHeader.create(FORWARDED, self));
    return HttpRequest.create(target).withMethod(request.method()).addHeaders(headers).withEntity(request.entity());
  }

  private CompletionStage<SessionLog.Location> where(String id) {
    return where(id, WHERE_TRIES);
  }

  /**
   * Asks again after {@link #WHERE_WAIT} without an answer: a question sent to a node just lost is lost with it, and
   * once the node is downed the session's shard answers from a survivor. A question asked twice does no harm (a
   * take-over under way answers every one).
   */
  private CompletionStage<SessionLog.Location> where(String id, int tries) {
    CompletionStage<SessionLog.Location> asked = AskPattern.ask(sessions,
        replyTo -> new ShardingEnvelope<>(id, new SessionLog.Where(replyTo)), WHERE_WAIT, system.scheduler());
    return asked.exceptionallyCompose(failure -> tries > 1 && isTimeout(failure) ? where(id, tries - 1)
        : CompletableFuture.failedStage(failure));
  }

  private static boolean isTimeout(Throwable failure) {
    Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
    return cause instanceof java.util.concurrent.TimeoutException;
  }

  /** After a 201 of {@code POST /api/sessions}: keeps autoRun and maxIterations in the new session's journal. */
  private CompletionStage<org.apache.pekko.http.javadsl.server.RouteResult> keepRequest(
      HttpEntity.Strict body, org.apache.pekko.http.javadsl.server.RouteResult result) {
    if (!(result instanceof org.apache.pekko.http.scaladsl.server.RouteResult.Complete complete)
        || complete.getResponse().status().intValue() != 201) {
      return CompletableFuture.completedFuture(result);
    }
    String id = complete.getResponse().getHeader("Location").map(h -> h.value())
        .map(v -> v.substring(v.lastIndexOf('/') + 1)).orElse(null);
    if (id == null) {
      return CompletableFuture.completedFuture(result);
    }
    SessionLog.Request request;
    try {
      JsonNode json = EventCodec.mapper().readTree(body.getData().utf8String());
      request = new SessionLog.Request(json.path("autoRun").asBoolean(false),
          json.hasNonNull("maxIterations") ? json.get("maxIterations").asInt() : null);
    } catch (IOException e) {
      request = new SessionLog.Request(false, null);
    }
    return keep(id, request, result);
  }

  /**
   * After {@code POST /v1/chat/completions} made a session here (its answer, streamed or not, names it): keeps it in
   * its journal with this node as its home before the answer goes out, so that the next request of the client finds
   * it through any node. Such sessions run blocks as the server's approval mode says.
   */
  private CompletionStage<org.apache.pekko.http.javadsl.server.RouteResult> keepOpenAiSession(
      org.apache.pekko.http.javadsl.server.RouteResult result) {
    if (!(result instanceof org.apache.pekko.http.scaladsl.server.RouteResult.Complete complete)
        || complete.getResponse().status().intValue() != 200) {
      return CompletableFuture.completedFuture(result);
    }
    return complete.getResponse().getHeader(OpenAiRoutes.SESSION_HEADER).map(h -> h.value())
        .map(id -> keep(id, new SessionLog.Request(autoRunByDefault, null), result))
        .orElse(CompletableFuture.completedFuture(result));
  }

  private CompletionStage<org.apache.pekko.http.javadsl.server.RouteResult> keep(
      String id, SessionLog.Request request, org.apache.pekko.http.javadsl.server.RouteResult result) {
    return AskPattern.<ShardingEnvelope<SessionLog.Command>, Done>ask(sessions,
            replyTo -> new ShardingEnvelope<>(id, new SessionLog.SetRequest(request, self, replyTo)), ASK,
            system.scheduler())
        .thenApply(done -> result);
  }

  /** Every node's {@code GET /api/sessions}, each session with its node, newest first. */
  private CompletionStage<ObjectNode> clusterList() {
    List<CompletableFuture<List<JsonNode>>> parts = new ArrayList<>();
    for (Map.Entry<String, String> node : Map.copyOf(nodes).entrySet()) {
      HttpRequest ask = HttpRequest.create(node.getValue() + "/api/sessions").withMethod(HttpMethods.GET)
          .addHeaders(List.of(RawHeader.create("Authorization", "Bearer " + token.get()),
              RawHeader.create(FORWARDED, self)));
      parts.add(Http.get(system).singleRequest(ask)
          .thenCompose(r -> r.entity().toStrict(ASK.toMillis(), system))
          .thenApply(strict -> {
            List<JsonNode> out = new ArrayList<>();
            try {
              for (JsonNode s : EventCodec.mapper().readTree(strict.getData().utf8String()).path("sessions")) {
                ((ObjectNode) s).put("node", node.getKey());
                out.add(s);
              }
            } catch (IOException e) {
              // a node that did not answer with a list: its sessions are left out of this one
            }
            return out;
          })
          .exceptionally(failure -> List.of())
          .toCompletableFuture());
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(all -> {
      List<JsonNode> merged = new ArrayList<>();
      parts.forEach(p -> merged.addAll(p.join()));
      // a session that moved is listed by its old node too (stopped there): the live one wins
      Map<String, JsonNode> byId = new java.util.LinkedHashMap<>();
      for (JsonNode s : merged) {
        String id = s.path("id").asText();
        JsonNode before = byId.get(id);
        if (before == null || (isStopped(before) && !isStopped(s))) {
          byId.put(id, s);
        }
      }
      ObjectNode out = EventCodec.mapper().createObjectNode();
      ArrayNode list = out.putArray("sessions");
      byId.values().stream().sorted(Comparator.comparing((JsonNode s) -> s.path("id").asText()).reversed())
          .forEach(list::add);
      return out;
    });
  }

  /**
   * Every node's {@code GET /api/summary}, each count summed (a session that moved is counted in
   * {@code totalSessions} at each node that ran it; it is live at one only).
   */
  private CompletionStage<ObjectNode> clusterSummary() {
    List<CompletableFuture<JsonNode>> parts = new ArrayList<>();
    for (String url : List.copyOf(nodes.values())) {
      HttpRequest ask = HttpRequest.create(url + "/api/summary").withMethod(HttpMethods.GET)
          .addHeaders(List.of(RawHeader.create("Authorization", "Bearer " + token.get()),
              RawHeader.create(FORWARDED, self)));
      parts.add(Http.get(system).singleRequest(ask)
          .thenCompose(r -> r.entity().toStrict(ASK.toMillis(), system))
          .thenApply(strict -> {
            try {
              return EventCodec.mapper().readTree(strict.getData().utf8String());
            } catch (IOException e) {
              return (JsonNode) EventCodec.mapper().createObjectNode(); // not a summary: left out
            }
          })
          .exceptionally(failure -> EventCodec.mapper().createObjectNode())
          .toCompletableFuture());
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(all -> {
      ObjectNode sum = EventCodec.mapper().createObjectNode();
      for (CompletableFuture<JsonNode> part : parts) {
        part.join().fields().forEachRemaining(field -> {
          if (field.getValue().isIntegralNumber()) {
            sum.put(field.getKey(), sum.path(field.getKey()).asLong(0) + field.getValue().asLong());
          }
        });
      }
      return sum;
    });
  }

  private static boolean isStopped(JsonNode session) {
    return session.path("stopped").asBoolean(false);
  }

  private CompletionStage<ShardRegion.CurrentShardRegionState> shardState() {
    return AskPattern.ask(ClusterSharding.get(system).shardState(),
        replyTo -> new GetShardRegionState(SessionLog.TYPE_KEY, replyTo), ASK, system.scheduler());
  }

  private ObjectNode members() {
    var state = Cluster.get(system).state();
    ObjectNode n = EventCodec.mapper().createObjectNode();
    n.put("self", self);
    ArrayNode all = n.putArray("members");
    for (Member m : state.getMembers()) {
      ObjectNode o = all.addObject();
      o.put("address", m.address().toString());
      o.put("status", m.status().toString());
      o.put("reachable", !state.getUnreachable().contains(m));
      o.put("url", nodes.get(m.address().toString()));
    }
    n.put("leader", state.getLeader() == null ? null : state.getLeader().toString());
    return n;
  }

  /** The cluster gauges, in the Prometheus text format, after the server's own. */
  private String gauges(ShardRegion.CurrentShardRegionState state) {
    var cluster = Cluster.get(system).state();
    long members = java.util.stream.StreamSupport.stream(cluster.getMembers().spliterator(), false).count();
    long liveHere = hub.all().stream().filter(e -> !e.ended()).count();
    long entitiesHere = state.getShards().stream().mapToLong(s -> s.getEntityIds().size()).sum();
    String node = "{node=\"" + self + "\"} ";
    return "# HELP i4j_cluster_members Members of the cluster as this node sees them.\n"
        + "# TYPE i4j_cluster_members gauge\n"
        + "i4j_cluster_members " + members + "\n"
        + "# HELP i4j_cluster_unreachable_members Members this node cannot reach.\n"
        + "# TYPE i4j_cluster_unreachable_members gauge\n"
        + "i4j_cluster_unreachable_members " + cluster.getUnreachable().size() + "\n"
        + "# HELP i4j_cluster_shards Shards of sessions held by this node.\n"
        + "# TYPE i4j_cluster_shards gauge\n"
        + "i4j_cluster_shards" + node + state.getShards().size() + "\n"
        + "# HELP i4j_cluster_session_entities Sharded session entities (journals) held by this node.\n"
        + "# TYPE i4j_cluster_session_entities gauge\n"
        + "i4j_cluster_session_entities" + node + entitiesHere + "\n"
        + "# HELP i4j_cluster_sessions Live sessions running on this node.\n"
        + "# TYPE i4j_cluster_sessions gauge\n"
        + "i4j_cluster_sessions" + node + liveHere + "\n"
        + "# HELP i4j_cluster_journal_events_written Events written into the PostgreSQL journal by this node.\n"
        + "# TYPE i4j_cluster_journal_events_written counter\n"
        + "i4j_cluster_journal_events_written " + mirror.written() + "\n"
        + "# HELP i4j_cluster_journal_gaps Times the copy into the journal fell behind and followed again.\n"
        + "# TYPE i4j_cluster_journal_gaps counter\n"
        + "i4j_cluster_journal_gaps " + mirror.gaps() + "\n";
  }
}
