package io.interpreter4j.providers.http;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.resilience.EndpointGate;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.settings.ClientConnectionSettings;
import org.apache.pekko.http.javadsl.settings.ConnectionPoolSettings;
import org.apache.pekko.http.scaladsl.model.EntityStreamException;
import org.apache.pekko.japi.pf.PFBuilder;
import org.apache.pekko.stream.Graph;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.SourceShape;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * One streamed model call over Pekko HTTP: POST, check the status, then read the body chunk by chunk through its
 * {@link StreamFraming} (server-sent events, or Ollama's JSON lines) and a provider's {@link WireDecoder}. The body is
 * a stream all the way, so backpressure reaches the TCP connection, and cancelling downstream cancels the entity,
 * which makes the pool close the connection. Each call takes a turn at the endpoint's {@link EndpointGate} and goes through its breaker.
 * One attempt only: {@link io.interpreter4j.providers.resilience.ResilientProvider} retries.
 */
public final class SseModelClient {

  private static final int MAX_ERROR_BODY = 64 * 1024;

  private final ActorSystem<?> system;
  private final Http http;
  private final Endpoint endpoint;
  private final ProviderSettings settings;
  private final EndpointGate gate;
  private final ConnectionPoolSettings poolSettings;
  private final StreamFraming framing;

  /** A client of an API that streams server-sent events. */
  public SseModelClient(ActorSystem<?> system, Endpoint endpoint, ProviderSettings settings) {
    this(system, endpoint, settings, StreamFraming.SSE);
  }

  public SseModelClient(ActorSystem<?> system, Endpoint endpoint, ProviderSettings settings, StreamFraming framing) {
    this.system = system;
    this.framing = framing;
    this.http = Http.get(system);
    this.endpoint = endpoint;
    this.settings = settings;
    this.gate = EndpointGate.forEndpoint(system, endpoint.baseUrl(), settings);
    int connections = Math.max(4, settings.maxConcurrentRequests());
    this.poolSettings = ConnectionPoolSettings.create(system.classicSystem())
        .withMaxConnections(connections)
        .withMaxOpenRequests(Integer.highestOneBit(Math.max(32, connections * 2) - 1) << 1)
        // POST is not idempotent: only our own retry, which knows whether text was emitted, may repeat it.
        .withMaxRetries(0)
        .withConnectionSettings(ClientConnectionSettings.create(system.classicSystem())
            .withConnectingTimeout(settings.connectTimeout())
            // Ours (the stall timeout) fires first and is retried; this only reaps connections we forgot.
            .withIdleTimeout(settings.stallTimeout().multipliedBy(2)));
  }

  public Endpoint endpoint() {
    return endpoint;
  }

  /** A cold source of the reply to {@code request}; {@code model} is named in errors. */
  public Source<LlmChunk, NotUsed> stream(HttpRequest request, String model, Supplier<WireDecoder> decoders) {
    return gate.withPermit(() -> attempt(request, model, decoders));
  }

  private Source<LlmChunk, NotUsed> attempt(HttpRequest request, String model, Supplier<WireDecoder> decoders) {
    return Source.fromMaterializer((mat, attributes) -> {
      ResponseClaim claim = new ResponseClaim();
      CompletionStage<HttpResponse> headers = gate.call(
          () -> claim.sent(http.singleRequest(request, http.defaultClientHttpsContext(), poolSettings,
              system.classicSystem().log())),
          (response, error) -> error.isPresent()
              || response.map(r -> HttpFailures.isServerFault(r.status().intValue())).orElse(false));
      return Source.completionStage(headers)
          .flatMapConcat(response -> claim.take() ? body(response, model, decoders.get(), mat) : Source.empty())
          .mapError(Throwable.class, error -> {
            if (HttpFailures.isTransportFault(error) && claim.taken()) {
              gate.recordFailure();
            }
            return HttpFailures.fromThrowable(endpoint, error, settings.stallTimeout());
          })
          .watchTermination((notUsed, done) -> {
            done.whenComplete((d, e) -> claim.abandon(mat));
            return NotUsed.notUsed();
          });
    }).mapMaterializedValue(m -> NotUsed.notUsed());
  }

  private Source<LlmChunk, NotUsed> body(HttpResponse response, String model, WireDecoder decoder,
                                         Materializer mat) {
    int status = response.status().intValue();
    if (status < 200 || status >= 300) {
      Optional<Duration> retryAfter = RetryAfter.parse(header(response, "retry-after"),
          header(response, "retry-after-ms"), Instant.now());
      return Source.completionStage(errorBody(response, mat))
          .flatMapConcat(text -> Source.failed(
              HttpFailures.fromStatus(endpoint, model, status, text, retryAfter)));
    }
    if (response.entity().getContentType().mediaType().equals(MediaTypes.APPLICATION_JSON)) {
      return Source.completionStage(errorBody(response, mat))
          .flatMapConcat(text -> Source.failed(new ModelException(endpoint.baseUrl() + " answered with JSON instead "
              + "of " + framing.description() + "; does it support stream=true? " + HttpFailures.providerMessage(text),
              false)));
    }
    AtomicLong received = new AtomicLong();
    return response.entity().withoutSizeLimit().getDataBytes()
        .map(bytes -> {
          received.addAndGet(bytes.size());
          return bytes;
        })
        .idleTimeout(settings.stallTimeout())
        .via(framing.frames(settings.maxEventSize()))
        .map(decoder::decode)
        .takeWhile(chunks -> !decoder.finished(), true)
        // The reply reached its natural end and only what follows it (usage, [DONE]) was lost: the reply stands.
        .recoverWithRetries(1, new PFBuilder<Throwable, Graph<SourceShape<List<LlmChunk>>, NotUsed>>()
            .match(Throwable.class, e -> decoder.complete() && HttpFailures.isTransportFault(e), e -> Source.empty())
            .build())
        .mapError(Throwable.class, e -> !decoder.complete() && truncated(e)
            ? cut(decoder, received.get(), "the connection closed in the middle of the response")
            : e)
        .mapConcat(chunks -> chunks)
        .concatLazy(Source.lazySource(() -> decoder.complete()
            ? Source.<LlmChunk>empty()
            : Source.<LlmChunk>failed(cut(decoder, received.get(), "the server ended the response"))))
        .mapMaterializedValue(m -> NotUsed.notUsed());
  }

  /**
   * The failure of a stream that stopped before the reply's natural end: retryable, as a new attempt will likely
   * get the whole reply; its partial output must not be taken for the answer (a half code block would run).
   */
  private ModelException cut(WireDecoder decoder, long bytes, String how) {
    gate.recordFailure();
    return new ModelException("the stream from " + endpoint.baseUrl() + " ended before the reply was complete (no "
        + decoder.expectedEnd() + "): " + how + " after " + bytes + (bytes == 1 ? " byte" : " bytes"), true);
  }

  /** A connection closed cleanly while a chunked or sized body was still arriving. */
  private static boolean truncated(Throwable error) {
    return error instanceof EntityStreamException e && e.getMessage() != null
        && e.getMessage().startsWith("Entity stream truncation");
  }

  private static Optional<String> header(HttpResponse response, String name) {
    return response.getHeader(name).map(HttpHeader::value);
  }

  private CompletionStage<String> errorBody(HttpResponse response, Materializer mat) {
    return response.entity()
        .toStrict(settings.stallTimeout().toMillis(), MAX_ERROR_BODY, mat)
        .thenApply(strict -> strict.getData().decodeString(StandardCharsets.UTF_8))
        .exceptionally(e -> "");
  }

  /**
   * Who owns a response: the stream that reads it, or nobody (the stream ended first: cancelled while waiting, or
   * the breaker timed the headers out). An unowned response's entity is cancelled so its connection is closed.
   */
  private static final class ResponseClaim {
    private static final int OPEN = 0;
    private static final int TAKEN = 1;
    private static final int ABANDONED = 2;
    private final AtomicInteger state = new AtomicInteger(OPEN);
    private final AtomicReference<CompletionStage<HttpResponse>> sent = new AtomicReference<>();

    CompletionStage<HttpResponse> sent(CompletionStage<HttpResponse> response) {
      sent.set(response);
      return response;
    }

    boolean take() {
      return state.compareAndSet(OPEN, TAKEN);
    }

    boolean taken() {
      return state.get() == TAKEN;
    }

    void abandon(Materializer mat) {
      CompletionStage<HttpResponse> response = sent.get();
      if (state.compareAndSet(OPEN, ABANDONED) && response != null) {
        response.thenAccept(r -> r.entity().getDataBytes().runWith(Sink.cancelled(), mat));
      }
    }
  }
}
