package io.interpreter4j.providers.openai;

import static io.interpreter4j.providers.testing.FakeModelServer.openAiDelta;
import static io.interpreter4j.providers.testing.FakeModelServer.openAiStream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.ProviderRegistry;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.http.CircuitOpenException;
import io.interpreter4j.providers.http.Endpoint;
import io.interpreter4j.providers.resilience.ResilientProvider;
import io.interpreter4j.providers.resilience.RetryInfo;
import io.interpreter4j.providers.testing.FakeModelServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The OpenAI-compatible provider against a fake server that speaks Chat Completions streaming byte by byte. */
class OpenAiCompatibleProviderTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final ActorSystem<Void> SYSTEM = TESTKIT.system();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ModelRequest REQUEST = new ModelRequest("gpt-4o-mini",
      List.of(ChatMessage.system("You are terse."), ChatMessage.user("Say hello")));
  /** Fast retries; the stall timeout is only short where a test stalls on purpose. */
  private static final ProviderSettings SETTINGS = ProviderSettings.defaults()
      .withRetry(4, Duration.ofMillis(10), Duration.ofSeconds(5))
      .withStallTimeout(Duration.ofSeconds(10));

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(SYSTEM).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  private static ResilientProvider provider(FakeModelServer server, ProviderSettings settings) {
    return new ResilientProvider(new OpenAiCompatibleProvider(SYSTEM,
        new Endpoint("openai", server.baseUrl(), Optional.of("sk-test"), "OPENAI_API_KEY"), "gpt-4o-mini", settings),
        settings);
  }

  private static List<LlmChunk> run(Source<LlmChunk, ?> source) throws Exception {
    return source.runWith(Sink.seq(), SYSTEM).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static String text(List<LlmChunk> chunks) {
    return chunks.stream().filter(c -> c instanceof LlmChunk.TextDelta)
        .map(c -> ((LlmChunk.TextDelta) c).text()).collect(Collectors.joining());
  }

  private static ModelException failure(Source<LlmChunk, ?> source) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> run(source));
    return assertInstanceOf(ModelException.class, e.getCause());
  }

  private static void serveText(FakeModelServer.Exchange ex, String text) throws java.io.IOException {
    ex.startEventStream().chunk(openAiStream(List.of(text), "\n", true)).end();
  }

  @Test
  void streamsTextAndUsageFromFramesCutAcrossTcpWritesWithCrlfAndComments() throws Exception {
    String body = openAiStream(List.of("Hel", "lo, ", "wörld \uD83C\uDF0D", "!\n```python\nprint(1)\n```"), "\r\n", true);
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.startEventStream().chunksOf(7, body).end())) {
      List<LlmChunk> chunks = run(provider(server, SETTINGS).stream(REQUEST));

      assertEquals("Hello, wörld \uD83C\uDF0D!\n```python\nprint(1)\n```", text(chunks));
      assertEquals(new LlmChunk.Usage(12, 5), chunks.get(chunks.size() - 1));
      FakeModelServer.Request request = server.requests().get(0);
      assertEquals("POST", request.method());
      assertEquals("/v1/chat/completions", request.path());
      assertEquals("Bearer sk-test", request.headers().get("authorization"));
      JsonNode sent = JSON.readTree(request.body());
      assertEquals("gpt-4o-mini", sent.get("model").asText());
      assertTrue(sent.get("stream").asBoolean());
      assertTrue(sent.get("stream_options").get("include_usage").asBoolean());
      assertEquals("system", sent.get("messages").get(0).get("role").asText());
      assertEquals("Say hello", sent.get("messages").get(1).get("content").asText());
    }
  }

  @Test
  void streamsBareLfAndCrLineEndsAndMultiLineData() throws Exception {
    // A data field spread over two lines is one event whose data lines are joined by \n: still one JSON object.
    String multiLine = "data: {\"choices\":[{\"index\":0,\n"
        + "data: \"delta\":{\"content\":\"two lines\"},\"finish_reason\":null}]}\r\r"
        + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
        + "data: [DONE]\n\n";
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.startEventStream().chunksOf(5, multiLine).end())) {
      assertEquals("two lines", text(run(provider(server, SETTINGS).stream(REQUEST))));
    }
  }

  @Test
  void eventsLargerThanPekkosDefaultSseLimitPassWhole() throws Exception {
    String big = "y".repeat(40 * 1024);
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunksOf(4096, openAiStream(List.of(big), "\n", true)).end())) {
      assertEquals(big, text(run(provider(server, SETTINGS).stream(REQUEST))));
    }
  }

  @Test
  void retries429AfterItsRetryAfterAndReportsTheRetry() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.respond(429, "application/json", "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}",
            Map.of("Retry-After", "1")),
        ex -> serveText(ex, "after the wait"))) {
      List<RetryInfo> retries = new CopyOnWriteArrayList<>();

      List<LlmChunk> chunks = run(provider(server, SETTINGS).streamWithRetries(REQUEST, retries::add));

      assertEquals("after the wait", text(chunks));
      assertEquals(2, server.requests().size());
      assertEquals(1, retries.size());
      assertEquals(2, retries.get(0).attempt());
      assertTrue(retries.get(0).reason().contains("429"), retries.get(0).reason());
      assertTrue(retries.get(0).delay().compareTo(Duration.ofSeconds(1)) >= 0, "Retry-After is honoured");
    }
  }

  @Test
  void retries500ThenSucceeds() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.respond(500, "application/json", "{\"error\":{\"message\":\"boom\"}}", Map.of()),
        ex -> serveText(ex, "fine now"))) {
      assertEquals("fine now", text(run(provider(server, SETTINGS).stream(REQUEST))));
      assertEquals(2, server.requests().size());
    }
  }

  @Test
  void connectionResetBeforeAnyTextIsRetried() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> {
          ex.startEventStream().chunk(": keep-alive\n\n");
          ex.reset();
        },
        ex -> serveText(ex, "second try"))) {
      assertEquals("second try", text(run(provider(server, SETTINGS).stream(REQUEST))));
      assertEquals(2, server.requests().size());
    }
  }

  @Test
  void connectionResetAfterPartialTextFailsRetryablyForTheCallerToRestart() throws Exception {
    // A reset discards what the client's kernel has not yet read: reset only once the text reached the stream.
    CompletableFuture<Void> textArrived = new CompletableFuture<>();
    try (FakeModelServer server = FakeModelServer.start(ex -> {
      ex.startEventStream().chunk(openAiDelta("partial ") + "\n\n");
      textArrived.orTimeout(20, TimeUnit.SECONDS).join();
      ex.reset();
    })) {
      ModelException e = failure(provider(server, SETTINGS).stream(REQUEST).map(c -> {
        textArrived.complete(null);
        return c;
      }));

      assertTrue(e.retryable(), e.getMessage());
      assertTrue(e.getMessage().startsWith(ResilientProvider.INTERRUPTED), e.getMessage());
      assertEquals(1, server.requests().size(), "no silent retry once text went out");
    }
  }

  @Test
  void stalledStreamIsAbortedAndRetried() throws Exception {
    CompletableFuture<Boolean> abortSeen = new CompletableFuture<>();
    try (FakeModelServer server = FakeModelServer.start(
        ex -> {
          ex.startEventStream().chunk(": keep-alive\n\n");
          abortSeen.complete(ex.awaitClientClose(20_000));
        },
        ex -> serveText(ex, "unstuck"))) {
      ProviderSettings stallFast = SETTINGS.withStallTimeout(Duration.ofMillis(500));
      List<RetryInfo> retries = new CopyOnWriteArrayList<>();

      assertEquals("unstuck", text(run(provider(server, stallFast).streamWithRetries(REQUEST, retries::add))));
      assertTrue(abortSeen.get(30, TimeUnit.SECONDS), "the stalled connection was closed by the client");
      assertTrue(retries.get(0).reason().contains("sent nothing"), retries.get(0).reason());
    }
  }

  @Test
  void streamThatEndsWithoutDoneOrFinishReasonIsRetriedThenGivenUp() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(": nothing useful\n\n").end())) {
      ProviderSettings twice = SETTINGS.withRetry(2, Duration.ofMillis(10), Duration.ofSeconds(5));

      ModelException e = failure(provider(server, twice).stream(REQUEST));

      assertTrue(e.getMessage().contains("ended before the reply was complete (no finish_reason or [DONE]): the "
          + "server ended the response after 18 bytes"), e.getMessage());
      assertTrue(e.getMessage().contains("gave up after 2 attempts"), e.getMessage());
      assertFalse(e.retryable());
      assertEquals(2, server.requests().size());
    }
  }

  @Test
  void aStreamCutMidResponseNamesTheCutAndTheBytesReceived() throws Exception {
    String half = openAiDelta("print(str(6*7)") + "\n\n";
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(half).close(),
        ex -> ex.startCloseDelimitedEventStream().raw(half).close())) {
      List<String> failures = new CopyOnWriteArrayList<>();
      for (int attempt = 0; attempt < 2; attempt++) {
        failures.add(failure(provider(server, SETTINGS).stream(REQUEST)).getMessage());
      }
      int bytes = half.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;

      assertEquals(List.of(
          ResilientProvider.INTERRUPTED + "the stream from " + server.baseUrl() + " ended before the reply was complete"
              + " (no finish_reason or [DONE]): the connection closed in the middle of the response after " + bytes
              + " bytes",
          ResilientProvider.INTERRUPTED + "the stream from " + server.baseUrl() + " ended before the reply was complete"
              + " (no finish_reason or [DONE]): the server ended the response after " + bytes + " bytes"), failures);
    }
  }

  @Test
  void aFinishReasonWithoutDoneOrADoneWithoutFinishReasonIsANaturalEnd() throws Exception {
    // Servers differ: some send finish_reason and close, some send [DONE] alone; either ends the reply.
    String finishOnly = openAiDelta("one") + "\n\n"
        + "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
    String doneOnly = openAiDelta("two") + "\n\n" + "data: [DONE]\n\n";
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(finishOnly).end(),
        ex -> ex.startEventStream().chunk(doneOnly).end(),
        ex -> ex.startCloseDelimitedEventStream().raw(finishOnly).close())) {
      assertEquals("one", text(run(provider(server, SETTINGS).stream(REQUEST))));
      assertEquals("two", text(run(provider(server, SETTINGS).stream(REQUEST))));
      assertEquals("one", text(run(provider(server, SETTINGS).stream(REQUEST))));
      assertEquals(3, server.requests().size(), "no retry");
    }
  }

  @Test
  void aConnectionLostAfterTheFinishReasonKeepsTheReply() throws Exception {
    // The reply reached its end; only the usage and [DONE] after it are lost, to a cut or to a stall.
    String finished = openAiDelta("whole") + "\n\n"
        + "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}\n\n";
    CompletableFuture<Boolean> abortSeen = new CompletableFuture<>();
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(finished).close(),
        ex -> {
          ex.startEventStream().chunk(finished);
          abortSeen.complete(ex.awaitClientClose(20_000));
        })) {
      assertEquals("whole", text(run(provider(server, SETTINGS).stream(REQUEST))));
      ProviderSettings stallFast = SETTINGS.withStallTimeout(Duration.ofMillis(300));
      assertEquals("whole", text(run(provider(server, stallFast).stream(REQUEST))));
      assertTrue(abortSeen.get(30, TimeUnit.SECONDS), "the stalled connection was closed by the client");
      assertEquals(2, server.requests().size(), "no retry");
    }
  }

  @Test
  void malformedJsonChunkFailsClearlyWithoutRetry() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk("data: {\"choices\": [oops\n\n").end())) {
      ModelException e = failure(provider(server, SETTINGS).stream(REQUEST));

      assertFalse(e.retryable());
      assertTrue(e.getMessage().contains("malformed chunk from " + server.baseUrl()), e.getMessage());
      assertEquals(1, server.requests().size());
    }
  }

  @Test
  void unauthorizedIsNotRetriedAndNamesTheKey() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.respond(401, "application/json",
        "{\"error\":{\"message\":\"Incorrect API key provided\",\"code\":\"invalid_api_key\"}}", Map.of()))) {
      ModelException e = failure(provider(server, SETTINGS).stream(REQUEST));

      assertEquals("the API key was rejected (401): check OPENAI_API_KEY or pass --api-key", e.getMessage());
      assertFalse(e.retryable());
      assertEquals(1, server.requests().size());
    }
  }

  @Test
  void unknownModelIsNotRetriedAndNamesTheModel() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.respond(404, "application/json",
        "{\"error\":{\"message\":\"The model `gpt-9` does not exist\",\"code\":\"model_not_found\"}}", Map.of()))) {
      ModelException e = failure(provider(server, SETTINGS).stream(new ModelRequest("gpt-9", REQUEST.messages())));

      assertTrue(e.getMessage().startsWith("model 'gpt-9' not found at " + server.baseUrl() + " (404): check the model name"),
          e.getMessage());
      assertFalse(e.retryable());
      assertEquals(1, server.requests().size());
    }
  }

  @Test
  void badRequestCarriesTheProvidersMessage() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(ex -> ex.respond(400, "application/json",
        "{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens.\"}}", Map.of()))) {
      ModelException e = failure(provider(server, SETTINGS).stream(REQUEST));

      assertTrue(e.getMessage().contains("maximum context length is 128000 tokens"), e.getMessage());
      assertFalse(e.retryable());
    }
  }

  @Test
  void cancellingAfterTheFirstChunkClosesTheConnection() throws Exception {
    CompletableFuture<Boolean> closed = new CompletableFuture<>();
    try (FakeModelServer server = FakeModelServer.start(ex -> {
      ex.startEventStream().chunk(openAiDelta("first") + "\n\n");
      closed.complete(ex.awaitClientClose(20_000));
    })) {
      List<LlmChunk> first = run(provider(server, SETTINGS).stream(REQUEST).take(1));

      assertEquals(List.of(new LlmChunk.TextDelta("first")), first);
      assertTrue(closed.get(30, TimeUnit.SECONDS), "the server saw the connection close");
    }
  }

  @Test
  void requestsOverTheConcurrencyLimitWaitTheirTurn() throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    try (FakeModelServer server = FakeModelServer.start(ex -> {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      ex.startEventStream().chunk(openAiStream(List.of("turn"), "\n", false));
      inFlight.decrementAndGet();
      ex.end();
    })) {
      ResilientProvider p = provider(server, SETTINGS.withEndpointLimits(1, 100));

      List<CompletionStage<List<LlmChunk>>> calls = List.of(
          p.stream(REQUEST).runWith(Sink.seq(), SYSTEM),
          p.stream(REQUEST).runWith(Sink.seq(), SYSTEM),
          p.stream(REQUEST).runWith(Sink.seq(), SYSTEM));

      for (CompletionStage<List<LlmChunk>> call : calls) {
        assertEquals("turn", text(call.toCompletableFuture().get(30, TimeUnit.SECONDS)));
      }
      assertEquals(3, server.requests().size());
      assertEquals(1, maxInFlight.get());
    }
  }

  @Test
  void circuitBreakerOpensAfterRepeatedServerErrorsAndFailsFast() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.respond(503, "text/plain", "upstream down", Map.of()))) {
      ProviderSettings settings = SETTINGS.withRetry(1, Duration.ofMillis(10), Duration.ofSeconds(5))
          .withBreaker(2, Duration.ofMinutes(1));
      ResilientProvider p = provider(server, settings);

      assertTrue(failure(p.stream(REQUEST)).getMessage().contains("503"));
      assertTrue(failure(p.stream(REQUEST)).getMessage().contains("503"));
      ModelException fast = failure(p.stream(REQUEST));

      assertInstanceOf(CircuitOpenException.class, fast);
      assertTrue(fast.retryable());
      assertTrue(fast.getMessage().contains("circuit breaker open"), fast.getMessage());
      assertEquals(2, server.requests().size(), "the open breaker kept the third call off the network");
    }
  }

  @Test
  void registryPresetWithApiBaseReachesTheServer() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(ex -> serveText(ex, "via registry"))) {
      ResilientProvider p = ProviderRegistry.create("ollama/llama3.1:8b", Optional.of(server.baseUrl()),
          Optional.empty(), Map.of(), SYSTEM, SETTINGS);

      assertEquals("ollama/llama3.1:8b", p.name());
      assertEquals("via registry", text(run(p.stream(new ModelRequest("", REQUEST.messages())))));
      assertEquals(null, server.requests().get(0).headers().get("authorization"));
      assertEquals("llama3.1:8b", JSON.readTree(server.requests().get(0).body()).get("model").asText());
    }
  }
}
