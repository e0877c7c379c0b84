package io.interpreter4j.server.http;

import io.interpreter4j.server.hub.SessionHub;
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

  public OpsRoutes(SessionHub hub) {
    this.hub = hub;
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
            path("batches", () -> get(() -> complete(Json.response(StatusCodes.OK, hub.batches().toJson())))))));
  }
}
