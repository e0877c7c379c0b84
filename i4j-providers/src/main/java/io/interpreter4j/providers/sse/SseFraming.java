package io.interpreter4j.providers.sse;

import org.apache.pekko.NotUsed;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.util.ByteString;

/**
 * The stream stage around {@link SseParser}.
 *
 * <p>We parse SSE ourselves rather than use pekko-http's {@code EventStreamUnmarshalling}: that one caps an
 * event at {@code pekko.http.sse.max-event-size} (8 KiB) for the whole actor system, while a model's usage or
 * error event can be larger, and the limit here belongs to the provider's settings. Our parser is pure, so its
 * edge cases (CR/LF/CRLF, cuts inside a UTF-8 character, comments) are unit-tested without a stream.
 */
public final class SseFraming {

  private SseFraming() {}

  /** Bytes of a {@code text/event-stream} body in, events out; fails with {@link SseParser.SseException} past the bound. */
  public static Flow<ByteString, SseEvent, NotUsed> events(int maxEventChars) {
    return Flow.of(ByteString.class)
        .statefulMapConcat(() -> {
          SseParser parser = new SseParser(maxEventChars);
          Function<ByteString, Iterable<SseEvent>> step = bytes -> parser.feed(bytes.asByteBuffer());
          return step;
        })
        .named("sse-events");
  }
}
