package io.interpreter4j.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.providers.testing.WireReply;
import io.interpreter4j.providers.tools.ToolCalling;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.runtime.session.SessionSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.http.javadsl.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real session under auto-approval (as with {@code -y}) whose model, for each wire format in markdown and in tool
 * mode, talks to a server that cuts its first reply in the middle of a code block: nothing of the cut reply is shown
 * as a block or run; the session retries and runs the block of the whole answer. Needs python3, as the runtime's
 * session tests do.
 */
class CutStreamSessionTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final Duration TURN = Duration.ofSeconds(60);
  private static final HostInfo HOST = new HostInfo("Linux", "test", "amd64", "tester", "/tmp", "/bin/bash", "3",
      List.of("python", "bash"));

  @TempDir Path tmp;

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(TESTKIT.system()).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  @ParameterizedTest
  @EnumSource(WireReply.class)
  void aStreamCutInsideABlockIsRetriedAndOnlyTheWholeAnswerRuns(WireReply wire) throws Exception {
    try (FakeModelServer server = FakeModelServer.start(
        // The first reply stops after print(str(6*7) with no end marker, and the connection closes (FIN).
        ex -> ex.startEventStream().chunk(wire.head() + wire.firstHalf()).close(),
        ex -> ex.startEventStream().chunk(wire.whole()).end(),
        ex -> ex.startEventStream().chunk(wire.text("The answer is 42.")).end())) {
      Running session = start(server, wire);

      EventPayload.TurnFinished done = session.turn("what is 6*7?");

      assertEquals("done", done.status().wire(), session.types());
      List<EventPayload.CodeBlockEvent> blocks = session.payloads(EventPayload.CodeBlockEvent.class);
      assertEquals(1, blocks.size(), session.types());
      assertEquals(WireReply.CODE, blocks.get(0).code());
      assertFalse(blocks.get(0).unterminated());
      assertEquals(1, session.payloads(EventPayload.ExecStarted.class).size(), session.types());
      assertEquals(0, session.payloads(EventPayload.ExecFinished.class).get(0).exit_code());
      assertTrue(session.output().contains("42"), session.output());
      List<EventPayload.Retry> retries = session.payloads(EventPayload.Retry.class);
      assertEquals(1, retries.size(), session.types());
      assertTrue(retries.get(0).reason().contains("no " + wire.expectedEnd()), retries.get(0).reason());
      assertTrue(session.types().startsWith("session_started,user_message,retry,code_block,"), session.types());
      assertEquals(3, server.requests().size());
    }
  }

  private Running start(FakeModelServer server, WireReply wire) throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    Path data = tmp.resolve("data");
    Settings settings = Settings.from(ConfigLoader.load(null, Map.of(
        "interpreter4j.data-dir", data.toString(),
        "interpreter4j.workdir", work.toString(),
        "interpreter4j.approval.mode", "auto",
        "interpreter4j.model-retry.min-backoff", "10ms"),
        Map.of("XDG_CONFIG_HOME", data.resolve("no-config").toString())), Map.of());
    ModelProvider provider = ProviderRegistry.create(wire.model(), Optional.of(server.baseUrl()),
        Optional.of("sk-test"), Map.of(), TESTKIT.system(), ProviderSettings.defaults()
            .withRetry(settings.modelAttempts(), settings.minBackoff(), settings.maxBackoff())
            .withToolCalling(wire.tools() ? ToolCalling.ON : ToolCalling.OFF));
    Running running = new Running();
    SessionSpec spec = new SessionSpec(SessionIds.next(), settings, provider, Approver.NOBODY, HOST,
        List.of(running::accept));
    running.ref = TESTKIT.spawn(Session.create(spec));
    return running;
  }

  /** A started session and the events it published. */
  private static final class Running {
    volatile ActorRef<Session.Command> ref;
    final LinkedBlockingQueue<Event> queue = new LinkedBlockingQueue<>();
    final List<Event> all = new CopyOnWriteArrayList<>();

    void accept(Event e) {
      all.add(e);
      queue.add(e);
    }

    EventPayload.TurnFinished turn(String text) throws InterruptedException {
      ref.tell(new Session.UserMessage(text));
      long deadline = System.nanoTime() + TURN.toNanos();
      while (true) {
        Event e = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        assertNotNull(e, "no turn_finished within " + TURN + "; events so far: " + types());
        if (e.payload() instanceof EventPayload.TurnFinished finished) {
          return finished;
        }
      }
    }

    <T extends EventPayload> List<T> payloads(Class<T> type) {
      return all.stream().map(Event::payload).filter(type::isInstance).map(type::cast).toList();
    }

    String types() {
      return all.stream().map(Event::type).filter(t -> !t.equals("assistant_delta") && !t.equals("usage"))
          .collect(Collectors.joining(","));
    }

    String output() {
      return payloads(EventPayload.Output.class).stream().map(EventPayload.Output::text)
          .collect(Collectors.joining());
    }
  }
}
