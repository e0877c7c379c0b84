package io.interpreter4j.providers.http;

import io.interpreter4j.providers.ndjson.NdjsonParser;
import io.interpreter4j.providers.sse.SseEvent;
import io.interpreter4j.providers.sse.SseFraming;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.MediaRanges;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.Accept;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.util.ByteString;

/**
 * How a streamed reply is cut into the payloads a {@link WireDecoder} reads: server-sent events (OpenAI, Anthropic),
 * or newline-delimited JSON (Ollama's native API), each line handed on as the data of a {@code message} event so
 * that every decoder reads one type.
 */
public enum StreamFraming {

  SSE("an event stream") {
    @Override
    public Flow<ByteString, SseEvent, NotUsed> frames(int maxChars) {
      return SseFraming.events(maxChars);
    }

    @Override
    public HttpHeader accept() {
      return Accept.create(MediaRanges.create(MediaTypes.TEXT_EVENT_STREAM));
    }
  },

  NDJSON("a stream of JSON lines") {
    @Override
    public Flow<ByteString, SseEvent, NotUsed> frames(int maxChars) {
      return Flow.of(ByteString.class)
          .statefulMapConcat(() -> {
            NdjsonParser parser = new NdjsonParser(maxChars);
            Function<ByteString, Iterable<SseEvent>> step =
                bytes -> parser.feed(bytes.asByteBuffer()).stream().map(SseEvent::message).toList();
            return step;
          })
          .named("ndjson-lines");
    }

    @Override
    public HttpHeader accept() {
      return RawHeader.create("Accept", "application/x-ndjson");
    }
  };

  private final String description;

  StreamFraming(String description) {
    this.description = description;
  }

  /** Body bytes in, payloads out; fails past {@code maxChars} in one event or line. */
  public abstract Flow<ByteString, SseEvent, NotUsed> frames(int maxChars);

  /** The {@code Accept} header a request of this framing carries. */
  public abstract HttpHeader accept();

  /** "an event stream", for errors. */
  public String description() {
    return description;
  }
}
