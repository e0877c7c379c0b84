package io.interpreter4j.server.http;

import io.interpreter4j.server.hub.EventLine;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.CacheControl;
import org.apache.pekko.http.javadsl.model.headers.CacheDirectives;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;

/**
 * Server-Sent Events framing: {@code id: SEQ} and {@code data: EVENT-JSON} (the JSON is one line), no
 * {@code event:} field, so a browser's {@code EventSource.onmessage} sees every event; a {@code : keep-alive}
 * comment when nothing was sent for a while; a final {@code event: end} when the session has ended.
 */
final class Sse {
  static final ByteString KEEP_ALIVE = ByteString.fromString(": keep-alive\n\n");

  private Sse() {}

  /** One event; {@code withId} false for streams mixing sessions, whose seqs are not one sequence. */
  static ByteString frame(EventLine line, boolean withId) {
    return line.sseFrame(withId);
  }

  /** The named {@code end} event: the session has ended and nothing more will come (reconnecting is useless). */
  static ByteString end(String sessionId) {
    return ByteString.fromString("event: end\ndata: {\"session\":\"" + sessionId + "\",\"reason\":\"ended\"}\n\n");
  }

  static HttpResponse response(Source<ByteString, NotUsed> frames, Duration keepAlive) {
    return response(frames, keepAlive, KEEP_ALIVE);
  }

  /**
   * The stream as a response, with {@code comment} (a whole {@code : ...} frame) after each idle {@code keepAlive}
   * ({@link IdleKeepAlive}: no timer work per frame).
   */
  static HttpResponse response(Source<ByteString, NotUsed> frames, Duration keepAlive, ByteString comment) {
    List<HttpHeader> headers = List.of(CacheControl.create(CacheDirectives.NO_CACHE),
        RawHeader.create("X-Accel-Buffering", "no"));
    return HttpResponse.create()
        .withEntity(HttpEntities.create(MediaTypes.TEXT_EVENT_STREAM.toContentType(),
            frames.via(new IdleKeepAlive<>(keepAlive, comment))))
        .addHeaders(headers);
  }
}
