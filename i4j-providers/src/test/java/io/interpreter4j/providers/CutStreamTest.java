package io.interpreter4j.providers;

import static io.interpreter4j.providers.testing.WireReply.CODE;
import static io.interpreter4j.providers.testing.WireReply.HALF;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.healing.Backoff;
import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.providers.testing.WireReply;
import io.interpreter4j.providers.tools.ToolCalling;
import io.interpreter4j.runtime.llm.LlmStreamer;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.http.javadsl.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Streams cut before their natural end, for each wire format in markdown and in tool-calling mode, through the real
 * runtime path: provider over HTTP, block interceptor, {@link LlmStreamer}, the session stood in for by a probe. A
 * cut is a retry whose partial output yields no block; a natural end inside an open fence still yields the block,
 * flagged unterminated.
 */
class CutStreamTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final Duration WITHIN = Duration.ofSeconds(30);
  private static final int ATTEMPTS = 3;
  private static final ModelRequest REQUEST = new ModelRequest("", List.of(ChatMessage.user("what is 6*7?")));
  private static final AtomicInteger CALLS = new AtomicInteger();

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(TESTKIT.system()).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  static Stream<Arguments> wiresAndModes() {
    return Stream.of(WireReply.values())
        .flatMap(wire -> Stream.of(Arguments.of(wire, true), Arguments.of(wire, false)));
  }

  @ParameterizedTest(name = "{0}, first block only: {1}")
  @MethodSource("wiresAndModes")
  void aCutStreamIsRetriedAndOnlyTheRetriedAnswerComesOut(WireReply wire, boolean firstBlockOnly) throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        // cut mid-code; the connection closes (FIN) without the body's last chunk
        ex -> ex.startEventStream().chunk(wire.head() + wire.firstHalf()).close(),
        ex -> ex.startEventStream().chunksOf(11, wire.whole()).end())) {
      Call call = call(wire, server, firstBlockOnly);

      assertTrue(call.ended() instanceof LlmStreamer.Done, call.toString());
      assertEquals(1, call.retries().size(), call.toString());
      String reason = call.retries().get(0).reason();
      assertTrue(reason.contains("ended before the reply was complete (no " + wire.expectedEnd() + ")"), reason);
      assertTrue(reason.contains("the connection closed in the middle of the response after"), reason);
      assertTrue(reason.contains("after partial output, which is discarded"), reason);
      assertEquals(List.of(), blocks(call.beforeRetry()), "no block of the cut attempt");
      assertEquals(List.of(new CodeBlock(1, "python", "python", CODE, true, false)), blocks(call.afterRetry()));
      assertEquals(2, server.requests().size());
    }
  }

  @ParameterizedTest(name = "{0}, first block only: {1}")
  @MethodSource("wiresAndModes")
  void aStreamCutOnEveryAttemptFailsAfterTheAttemptsWithoutABlock(WireReply wire, boolean firstBlockOnly)
      throws Exception {
    String cut = wire.head() + wire.firstHalf();
    try (FakeModelServer server = FakeModelServer.start(
        // three ways to stop early: a clean end of the chunked body, a body that ends with the connection, a FIN
        ex -> ex.startEventStream().chunk(cut).end(),
        ex -> ex.startCloseDelimitedEventStream().raw(cut).close(),
        ex -> ex.startEventStream().chunk(cut).close())) {
      Call call = call(wire, server, firstBlockOnly);

      LlmStreamer.Failed failed = assertInstanceOf(LlmStreamer.Failed.class, call.ended(), call.toString());
      assertTrue(failed.message().contains("ended before the reply was complete (no " + wire.expectedEnd() + ")"),
          failed.message());
      assertTrue(failed.message().endsWith("(gave up after " + ATTEMPTS + " attempts)"), failed.message());
      assertEquals(ATTEMPTS - 1, call.retries().size(), call.toString());
      assertTrue(call.retries().get(0).reason().contains("the server ended the response after"),
          call.retries().get(0).reason());
      assertTrue(call.retries().get(1).reason().contains("the server ended the response after"),
          call.retries().get(1).reason());
      assertEquals(List.of(), blocks(call.segments()));
      assertEquals(ATTEMPTS, server.requests().size());
    }
  }

  @ParameterizedTest(name = "{0}, first block only: {1}")
  @MethodSource("wiresAndModes")
  void aNaturalEndInsideAnOpenFenceOffersTheBlockUnterminated(WireReply wire, boolean firstBlockOnly)
      throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunksOf(11, wire.head() + wire.firstHalf() + wire.endOfTokens()).end())) {
      Call call = call(wire, server, firstBlockOnly);

      assertTrue(call.ended() instanceof LlmStreamer.Done, call.toString());
      assertEquals(List.of(), call.retries());
      assertEquals(List.of(new CodeBlock(1, "python", "python", HALF, true, true)), blocks(call.segments()));
      assertEquals(1, server.requests().size());
    }
  }

  @ParameterizedTest(name = "{0}, first block only: {1}")
  @MethodSource("wiresAndModes")
  void aCutBeforeAnyTextIsRetriedByTheProviderAndStillReportedAsARetry(WireReply wire, boolean firstBlockOnly)
      throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(wire.silentHead()).end(),
        ex -> ex.startEventStream().chunk(wire.whole()).end())) {
      Call call = call(wire, server, firstBlockOnly);

      assertTrue(call.ended() instanceof LlmStreamer.Done, call.toString());
      assertEquals(1, call.retries().size(), call.toString());
      assertEquals(2, call.retries().get(0).attempt());
      assertTrue(call.retries().get(0).reason().contains("no " + wire.expectedEnd()), call.retries().get(0).reason());
      assertEquals(List.of(new CodeBlock(1, "python", "python", CODE, true, false)), blocks(call.segments()));
      assertEquals(2, server.requests().size());
    }
  }

  /** What the session heard of one call: every reply in order, up to Done or Failed. */
  record Call(List<LlmStreamer.Reply> replies) {

    LlmStreamer.Reply ended() {
      return replies.get(replies.size() - 1);
    }

    List<LlmStreamer.Retrying> retries() {
      return replies.stream().filter(r -> r instanceof LlmStreamer.Retrying).map(r -> (LlmStreamer.Retrying) r)
          .toList();
    }

    List<Segment> segments() {
      return segments(replies);
    }

    List<Segment> beforeRetry() {
      return segments(replies.subList(0, replies.indexOf(retries().get(0))));
    }

    List<Segment> afterRetry() {
      return segments(replies.subList(replies.indexOf(retries().get(retries().size() - 1)), replies.size()));
    }

    private static List<Segment> segments(List<LlmStreamer.Reply> replies) {
      return replies.stream().filter(r -> r instanceof LlmStreamer.Piece).map(r -> ((LlmStreamer.Piece) r).segment())
          .toList();
    }
  }

  private static List<CodeBlock> blocks(List<Segment> segments) {
    return segments.stream().filter(s -> s instanceof Segment.BlockClosed).map(s -> ((Segment.BlockClosed) s).block())
        .toList();
  }

  /** One model call through a real streamer, acknowledging each piece as the session does. */
  private static Call call(WireReply wire, FakeModelServer server, boolean firstBlockOnly) {
    ProviderSettings settings = ProviderSettings.defaults()
        .withRetry(ATTEMPTS, Duration.ofMillis(10), Duration.ofMillis(50))
        .withStallTimeout(Duration.ofSeconds(10))
        .withToolCalling(wire.tools() ? ToolCalling.ON : ToolCalling.OFF);
    ModelProvider provider = ProviderRegistry.create(wire.model(), Optional.of(server.baseUrl()),
        Optional.of("sk-test"), Map.of(), TESTKIT.system(), settings);
    TestProbe<LlmStreamer.Reply> session = TESTKIT.createTestProbe();
    ActorRef<LlmStreamer.Command> streamer = TESTKIT.spawn(LlmStreamer.create(provider, "python", ATTEMPTS,
        new Backoff(Duration.ofMillis(10), Duration.ofMillis(50), new Random()), session.ref()));
    int callId = CALLS.incrementAndGet();
    streamer.tell(new LlmStreamer.Call(callId, REQUEST, 1, firstBlockOnly));
    List<LlmStreamer.Reply> replies = new ArrayList<>();
    while (true) {
      LlmStreamer.Reply reply = session.receiveMessage(WITHIN);
      assertEquals(callId, reply.callId());
      if (reply instanceof LlmStreamer.Usage) {
        continue;
      }
      if (reply instanceof LlmStreamer.Final f) { // first-block mode: the closing piece and the end in one message
        replies.add(f.piece());
        replies.add(f.done());
        TESTKIT.stop(streamer);
        return new Call(replies);
      }
      replies.add(reply);
      if (reply instanceof LlmStreamer.Piece) {
        streamer.tell(new LlmStreamer.Ack(callId));
      } else if (reply instanceof LlmStreamer.Done || reply instanceof LlmStreamer.Failed) {
        TESTKIT.stop(streamer);
        return new Call(replies);
      }
    }
  }
}
