package io.interpreter4j.server.http;

import io.interpreter4j.server.hub.SessionEntry;
import io.interpreter4j.server.hub.SessionHub;
import java.time.Duration;
import java.util.Optional;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;

/**
 * Server-Sent Events: {@code /api/sessions/{id}/events} (the session's events from the first, or after
 * {@code Last-Event-ID}, then live ones) and {@code /api/events} (every session's live events). Each client has a
 * bounded buffer: one that falls behind gets the end of its stream and reconnects, it never slows a session. A
 * stream ends as soon as its client closes the connection ({@link ConnectionWatch}).
 */
public final class EventRoutes extends AllDirectives {
  private final SessionHub hub;
  private final int bufferSize;
  private final Duration keepAlive;

  public EventRoutes(SessionHub hub, int bufferSize, Duration keepAlive) {
    this.hub = hub;
    this.bufferSize = bufferSize;
    this.keepAlive = keepAlive;
  }

  public Route routes() {
    return pathPrefix("api", () -> concat(
        path(PathMatchers.segment("sessions").slash(PathMatchers.segment()).slash("events"), id ->
            get(() -> optionalHeaderValueByName("Last-Event-ID", lastEventId -> extractRequest(request ->
                sessionEvents(request, id, lastEventId))))),
        path("events", () -> get(() -> extractRequest(this::allEvents)))));
  }

  private Route sessionEvents(HttpRequest request, String id, Optional<String> lastEventId) {
    SessionEntry entry = hub.find(id).orElseThrow(() -> ApiError.notFound("no session '" + id + "'"));
    long after = lastEventId.map(EventRoutes::seq).orElse(0L);
    Source<ByteString, NotUsed> frames = entry.batches(after, bufferSize)
        .map(batch -> batch.sseFrames(true))
        .concatLazy(Source.lazySource(() -> entry.ended() ? Source.single(Sse.end(id)) : Source.<ByteString>empty())
            .mapMaterializedValue(m -> NotUsed.getInstance()));
    return complete(Sse.response(ConnectionWatch.untilClientGone(request, frames), keepAlive));
  }

  private Route allEvents(HttpRequest request) {
    Source<ByteString, NotUsed> frames = hub.allEvents(bufferSize).map(line -> Sse.frame(line, false));
    return complete(Sse.response(ConnectionWatch.untilClientGone(request, frames), keepAlive));
  }

  /** The seq in a {@code Last-Event-ID}; a value that is not one is a 400. */
  static long seq(String lastEventId) {
    String v = lastEventId.strip();
    if (v.isEmpty()) {
      return 0;
    }
    try {
      long seq = Long.parseLong(v);
      if (seq < 0) {
        throw new NumberFormatException();
      }
      return seq;
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("Last-Event-ID must be the seq of an event (a whole number), not \"" + v + "\"");
    }
  }
}
