package io.interpreter4j.providers;

import static io.interpreter4j.providers.testing.FakeModelServer.openAiDelta;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.healing.Backoff;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.runtime.llm.LlmStreamer;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.supervision.Faults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The LLM streamer against an OpenAI-compatible server on 127.0.0.1 speaking the real SSE format: retries with
 * backoff (Retry-After honoured), no retry of a request error, cancel, the first-block early end cancelling the model
 * call, and a crash mid-stream (the stream is cancelled, the call answered, the restarted streamer serves the next).
 */
class LlmStreamerTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final Duration WITHIN = Duration.ofSeconds(30);
  private static final ModelRequest REQUEST = new ModelRequest("", List.of(ChatMessage.user("hello")));
  private static final AtomicInteger CALLS = new AtomicInteger();
  private static final String ANSWER = "Looking.\n\n```python\nprint(1)\n```\nThat was it.";

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(TESTKIT.system()).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  private static ModelProvider provider(FakeModelServer server, int attempts) {
    ProviderSettings settings = ProviderSettings.defaults()
        .withRetry(attempts, Duration.ofMillis(20), Duration.ofSeconds(2))
        .withStallTimeout(Duration.ofSeconds(10));
    return ProviderRegistry.create("openai/gpt-4o-mini", Optional.of(server.baseUrl()), Optional.of("sk-test"),
        Map.of(), TESTKIT.system(), settings);
  }

  private static ActorRef<LlmStreamer.Command> streamer(ModelProvider provider, TestProbe<LlmStreamer.Reply> session,
                                                        Faults faults) {
    return TESTKIT.spawn(Behaviors.supervise(LlmStreamer.create(provider, "python", 3,
            new Backoff(Duration.ofMillis(20), Duration.ofSeconds(2), new Random()), session.ref(), faults))
        .onFailure(SupervisorStrategy.restart()));
  }

  /** Replies of one call up to Done, Failed or Crashed, acking every piece as the session does. */
  private static List<LlmStreamer.Reply> drive(ActorRef<LlmStreamer.Command> streamer,
                                               TestProbe<LlmStreamer.Reply> session, int callId) {
    List<LlmStreamer.Reply> replies = new ArrayList<>();
    while (true) {
      LlmStreamer.Reply reply = session.receiveMessage(WITHIN);
      assertEquals(callId, reply.callId(), "a reply of another call: " + reply);
      if (reply instanceof LlmStreamer.Final f) {
        // the last piece, the usage and the end in one message: nothing to ack
        f.parts().forEach(part -> assertEquals(callId, part.callId(), "a part of another call: " + part));
        replies.addAll(f.parts());
        return replies;
      }
      replies.add(reply);
      if (reply instanceof LlmStreamer.Piece) {
        streamer.tell(new LlmStreamer.Ack(callId));
      } else if (reply instanceof LlmStreamer.Done || reply instanceof LlmStreamer.Failed
          || reply instanceof LlmStreamer.Crashed) {
        return replies;
      }
    }
  }

  private static int call(ActorRef<LlmStreamer.Command> streamer, boolean firstBlockOnly) {
    int id = CALLS.incrementAndGet();
    streamer.tell(new LlmStreamer.Call(id, REQUEST, 1, firstBlockOnly));
    return id;
  }

  private static String text(List<LlmStreamer.Reply> replies) {
    StringBuilder sb = new StringBuilder();
    for (LlmStreamer.Reply r : replies) {
      if (r instanceof LlmStreamer.Piece p && p.segment() instanceof Segment.Text t) {
        sb.append(t.text());
      } else if (r instanceof LlmStreamer.Piece p && p.segment() instanceof Segment.Code c) {
        sb.append(c.text());
      }
    }
    return sb.toString();
  }

  private static List<String> chunks(String text, int size) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < text.length(); i += size) {
      out.add(text.substring(i, Math.min(text.length(), i + size)));
    }
    return out;
  }

  @Test
  void aServerErrorIsRetriedAfterItsRetryAfterAndTheAnswerComesWhole() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.respond(503, "application/json", "{\"error\":{\"message\":\"busy\"}}", Map.of("Retry-After", "1")),
        ex -> ex.startEventStream().chunk(FakeModelServer.openAiStream(chunks(ANSWER, 5), "\n", true)).end())) {
      TestProbe<LlmStreamer.Reply> session = TESTKIT.createTestProbe();
      ActorRef<LlmStreamer.Command> streamer = streamer(provider(server, 3), session, Faults.NONE);
      List<LlmStreamer.Reply> replies = drive(streamer, session, call(streamer, false));

      LlmStreamer.Retrying retry = (LlmStreamer.Retrying) replies.stream()
          .filter(r -> r instanceof LlmStreamer.Retrying).findFirst().orElseThrow(() -> new AssertionError(replies));
      assertEquals(2, retry.attempt());
      assertTrue(retry.reason().contains("503"), retry.reason());
      assertTrue(retry.delay().compareTo(Duration.ofSeconds(1)) >= 0, "Retry-After is a floor: " + retry.delay());
      assertInstanceOf(LlmStreamer.Done.class, replies.get(replies.size() - 1));
      assertTrue(replies.stream().anyMatch(r -> r instanceof LlmStreamer.Usage), "usage is reported");
      assertEquals("Looking.\n\nprint(1)\nThat was it.", text(replies));
      assertEquals(2, server.requests().size());
    }
  }

  @Test
  void aRequestErrorIsNotRetried() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.respond(400, "application/json", "{\"error\":{\"message\":\"model not found\"}}", Map.of()))) {
      TestProbe<LlmStreamer.Reply> session = TESTKIT.createTestProbe();
      ActorRef<LlmStreamer.Command> streamer = streamer(provider(server, 3), session, Faults.NONE);
      List<LlmStreamer.Reply> replies = drive(streamer, session, call(streamer, false));
      LlmStreamer.Failed failed = assertInstanceOf(LlmStreamer.Failed.class, replies.get(replies.size() - 1));
      assertTrue(failed.message().contains("model not found"), failed.message());
      assertTrue(replies.stream().noneMatch(r -> r instanceof LlmStreamer.Retrying), replies.toString());
      assertEquals(1, server.requests().size());
    }
  }

  @Test
  void cancelStopsTheCallAndClosesTheConnection() throws Exception {
    CompletableFuture<Boolean> clientClosed = new CompletableFuture<>();
    try (FakeModelServer server = FakeModelServer.start(ex -> {
      ex.startEventStream().chunk(openAiDelta("Thinking hard") + "\n\n");
      clientClosed.complete(ex.awaitClientClose(20_000)); // the rest never comes: only a cancel ends this call
    })) {
      TestProbe<LlmStreamer.Reply> session = TESTKIT.createTestProbe();
      ActorRef<LlmStreamer.Command> streamer = streamer(provider(server, 3), session, Faults.NONE);
      int id = call(streamer, false);
      LlmStreamer.Reply first = session.receiveMessage(WITHIN);
      assertInstanceOf(LlmStreamer.Piece.class, first);
      streamer.tell(LlmStreamer.Cancel.INSTANCE);
      streamer.tell(new LlmStreamer.Ack(id));
      assertTrue(clientClosed.get(25, TimeUnit.SECONDS), "the model call's connection is closed");
      session.expectNoMessage(Duration.ofMillis(300));
    }
  }

  @Test
  void inFirstBlockModeTheCallEndsAtTheFirstBlockAndTheRestIsNeverRead() throws Exception {
    CompletableFuture<Boolean> clientClosed = new CompletableFuture<>();
    try (FakeModelServer server = FakeModelServer.start(ex -> {
      ex.startEventStream().chunk(openAiDelta("Looking.\n\n```python\nprint(1)\n```\n") + "\n\n"
          + openAiDelta("more prose the session never needs") + "\n\n");
      clientClosed.complete(ex.awaitClientClose(20_000));
    })) {
      TestProbe<LlmStreamer.Reply> session = TESTKIT.createTestProbe();
      ActorRef<LlmStreamer.Command> streamer = streamer(provider(server, 3), session, Faults.NONE);
      List<LlmStreamer.Reply> replies = drive(streamer, session, call(streamer, true));
      int closed = -1;
      for (int i = 0; i < replies.size(); i++) {
        if (replies.get(i) instanceof LlmStreamer.Piece p && p.segment() instanceof Segment.BlockClosed) {
          closed = i;
        }
      }
      assertTrue(closed >= 0, "the block closed: " + replies);
      assertTrue(replies.subList(closed + 1, replies.size()).stream().noneMatch(r -> r instanceof LlmStreamer.Piece),
          "nothing after the block: " + replies);
      assertInstanceOf(LlmStreamer.Done.class, replies.get(replies.size() - 1));
      assertTrue(clientClosed.get(25, TimeUnit.SECONDS), "the model call is cancelled upstream");
    }
  }

  @Test
  void inFirstBlockModeTheClosedBlockItsUsageAndTheEndComeAsOneMessageAndNothingAfter() throws Exception {
    try (FakeModelServer server = FakeModelServer.start(ex -> {
      ex.startEventStream().chunk(openAiDelta("Looking.\n\n```python\nprint(1)\n```\n") + "\n\n"
          + openAiDelta("more prose") + "\n\n");
      ex.awaitClientClose(20_000);
    })) {
      TestProbe<LlmStreamer.Reply> session = TESTKIT.createTestProbe();
      ActorRef<LlmStreamer.Command> streamer = streamer(provider(server, 3), session, Faults.NONE);
      int id = call(streamer, true);
      LlmStreamer.Final last = null;
      while (last == null) {
        LlmStreamer.Reply reply = session.receiveMessage(WITHIN);
        if (reply instanceof LlmStreamer.Final f) {
          last = f;
        } else {
          assertInstanceOf(LlmStreamer.Piece.class, reply, "before the end only pieces come");
          streamer.tell(new LlmStreamer.Ack(id));
        }
      }
      assertEquals(id, last.callId());
      assertInstanceOf(Segment.BlockClosed.class, last.piece().segment(), "the last piece closes the block");
      assertNotNull(last.usage(), "a stream cut at its first block gets no usage report: it is estimated");
      assertTrue(last.usage().inputTokens() > 0 && last.usage().outputTokens() > 0, last.usage().toString());
      assertEquals(List.of(last.piece(), last.usage(), last.done()), last.parts());
      session.expectNoMessage(Duration.ofMillis(300));
    }
  }

  @Test
  void aCrashMidStreamCancelsTheCallAnswersItAndTheRestartedStreamerServesTheNext() throws Exception {
    CompletableFuture<Boolean> clientClosed = new CompletableFuture<>();
    try (FakeModelServer server = FakeModelServer.start(
        ex -> {
          ex.startEventStream().chunk(openAiDelta("Thinking") + "\n\n");
          clientClosed.complete(ex.awaitClientClose(20_000));
        },
        ex -> ex.startEventStream().chunk(FakeModelServer.openAiStream(chunks(ANSWER, 7), "\n", true)).end())) {
      TestProbe<LlmStreamer.Reply> session = TESTKIT.createTestProbe();
      ActorRef<LlmStreamer.Command> streamer = streamer(provider(server, 3), session,
          Faults.once(Faults.Point.STREAMER_STREAMING));
      int crashed = call(streamer, false);
      LlmStreamer.Crashed crash = assertInstanceOf(LlmStreamer.Crashed.class, drive(streamer, session, crashed)
          .stream().filter(r -> !(r instanceof LlmStreamer.Usage)).reduce((a, b) -> b).orElseThrow());
      assertTrue(crash.message().contains("injected fault at streamer_streaming"), crash.message());
      assertTrue(clientClosed.get(25, TimeUnit.SECONDS), "the orphaned model call is cancelled");

      List<LlmStreamer.Reply> next = drive(streamer, session, call(streamer, false));
      assertInstanceOf(LlmStreamer.Done.class, next.get(next.size() - 1));
      assertEquals("Looking.\n\nprint(1)\nThat was it.", text(next));
    }
  }
}
