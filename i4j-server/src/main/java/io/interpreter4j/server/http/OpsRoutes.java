package io.interpreter4j.server.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.server.batch.BatchService;
import io.interpreter4j.server.hub.SessionHub;
import java.util.HashSet;
import java.util.Set;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * Operations: {@code /healthz} (no authentication), {@code /metrics} (Prometheus text), {@code /api/summary}
 * (the dashboard's header counts) and {@code /api/batches} (batches run with {@code i4j batch --dashboard}). Everything is computed from the hub's views and counters.
 */
public final class OpsRoutes extends AllDirectives {
  private final SessionHub hub;
  private final BatchService batches;

  public OpsRoutes(SessionHub hub) {
    this(hub, null);
  }

  /** With the server's batch service (null: none): {@code GET /api/batches} lists its batches too. */
  public OpsRoutes(SessionHub hub, BatchService batches) {
    this.hub = hub;
    this.batches = batches;
  }

  /** {@code /healthz}: mounted outside authentication. */
  public Route health() {
    return path("healthz", () -> get(() -> complete(HttpResponse.create()
        .withEntity(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, "ok")))));
  }

  public Route routes() {
    return concat(
        path("metrics", () -> get(() -> complete(HttpResponse.create()
            .withEntity(HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, hub.metricsText()))))),
        pathPrefix("api", () -> concat(
            path("summary", () -> get(() -> complete(Json.response(StatusCodes.OK, hub.summary())))),
            path("batches", () -> get(this::batches)))));
  }

  /**
   * The dashboard's batches ({@code i4j batch --dashboard}, and those of this process's batch service, with their
   * tasks) and then the service's others (on a cluster: every batch of the cluster, as its progress shows it).
   */
  private Route batches() {
    ObjectNode board = hub.batches().toJson();
    if (batches == null) {
      return complete(Json.response(StatusCodes.OK, board));
    }
    ArrayNode list = (ArrayNode) board.get("batches");
    Set<String> shown = new HashSet<>();
    list.forEach(b -> shown.add(b.path("id").asText()));
    return completeWithFuture(batches.list().handle((all, failure) -> {
      if (all != null) {
        all.stream().filter(b -> !shown.contains(b.path("id").asText())).forEach(list::add);
      } else {
        board.put("incomplete", "the batch service did not answer: " + ApiErrors.unwrap(failure).getMessage());
      }
      return Json.response(StatusCodes.OK, board);
    }));
  }
}
