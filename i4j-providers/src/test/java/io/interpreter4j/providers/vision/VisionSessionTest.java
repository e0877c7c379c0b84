package io.interpreter4j.providers.vision;

import static io.interpreter4j.providers.testing.FakeModelServer.jsonString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.core.replay.Cassette.Turn;
import io.interpreter4j.providers.ProviderRegistry;
import io.interpreter4j.providers.ProviderSettings;
import io.interpreter4j.providers.testing.FakeModelServer;
import io.interpreter4j.providers.tools.ToolCalling;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.runtime.session.SessionSpec;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.http.javadsl.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real session under auto-approval whose python block (run by the python3 on PATH, as the runtime's session tests
 * do) writes a 3000x1000 PNG with the standard library and calls {@code display()} on it: the next request to a
 * stand-in OpenAI server carries the image, scaled to 1568x523, in markdown and in tool mode; the replay model checks
 * {@code expect_images} against it.
 */
class VisionSessionTest {

  private static final ActorTestKit TESTKIT = ActorTestKit.create();
  private static final Duration TURN = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HostInfo HOST = new HostInfo("Linux", "test", "amd64", "tester", "/tmp", "/bin/bash", "3",
      List.of("python", "bash"));
  /** Writes wide.png (3000x1000, a PNG made with struct and zlib) and shows it. */
  static final String CODE = String.join("\n",
      "import struct, zlib, pathlib",
      "def chunk(kind, data):",
      "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)",
      "w, h = 3000, 1000",
      "rows = b''.join(b'\\x00' + bytes([y % 256, 64, 128]) * w for y in range(h))",
      "png = (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))",
      "       + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))",
      "pathlib.Path('wide.png').write_bytes(png)",
      "display('wide.png')");

  @TempDir Path tmp;

  @AfterAll
  static void shutdown() throws Exception {
    Http.get(TESTKIT.system()).shutdownAllConnectionPools().toCompletableFuture().get(10, TimeUnit.SECONDS);
    TESTKIT.shutdownTestKit();
  }

  @Test
  void theNextRequestCarriesTheImageTheBlockShowed() throws Exception {
    String reply = openAi("{\"role\":\"assistant\",\"content\":" + jsonString("Plotting.\n\n```python\n" + CODE
        + "\n```\n") + "}", null) + openAi("{}", "stop") + "data: [DONE]\n\n";
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(reply).end(),
        ex -> ex.startEventStream().chunk(text("A blue and purple gradient.")).end())) {
      Running session = start(openAi(server, ToolCalling.OFF));

      assertEquals("done", session.turn("draw something wide").status().wire(), session.types());

      EventPayload.Image shown = session.payloads(EventPayload.Image.class).get(0);
      assertEquals(3000, shown.width());
      JsonNode last = lastMessage(server.requests().get(1).body());
      assertEquals("user", last.path("role").asText());
      assertTrue(last.path("content").get(0).path("text").asText()
          .contains("[image 3000x1000 PNG: " + shown.path() + "]"), last.toString().substring(0, 300));
      assertScaled(last.path("content").get(1));
    }
  }

  @Test
  void inToolModeTheImageFollowsTheToolResultInAUserMessage() throws Exception {
    String arguments = JSON.writeValueAsString(Map.of("language", "python", "code", CODE));
    String reply = openAi("{\"role\":\"assistant\",\"content\":\"\"}", null)
        + openAi("{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":"
            + "{\"name\":\"execute\",\"arguments\":" + jsonString(arguments) + "}}]}", null)
        + openAi("{}", "tool_calls") + "data: [DONE]\n\n";
    try (FakeModelServer server = FakeModelServer.start(
        ex -> ex.startEventStream().chunk(reply).end(),
        ex -> ex.startEventStream().chunk(text("A gradient.")).end())) {
      Running session = start(openAi(server, ToolCalling.ON));

      assertEquals("done", session.turn("draw something wide").status().wire(), session.types());

      JsonNode messages = JSON.readTree(server.requests().get(1).body()).path("messages");
      JsonNode tool = messages.get(messages.size() - 2);
      assertEquals("tool", tool.path("role").asText(), messages.toString().substring(0, 300));
      assertTrue(tool.path("content").asText().startsWith("Block 1 (python) finished with exit code 0."));
      JsonNode images = messages.get(messages.size() - 1);
      assertEquals("user", images.path("role").asText());
      assertScaled(images.path("content").get(0));
    }
  }

  @Test
  void theReplayModelChecksExpectImages() throws Exception {
    Cassette cassette = new Cassette("test", List.of(
        Turn.of("```python\n" + CODE + "\n```\n"),
        new Turn("finished with exit code 0", "I see it.", 4, 0, 1)));

    Running seeing = start(new ReplayModelProvider("replay:test", cassette, true));
    assertEquals("done", seeing.turn("draw").status().wire(), seeing.types());

    Running blind = start(new ReplayModelProvider("replay:test", cassette, false));
    EventPayload.TurnFinished failed = blind.turn("draw");
    assertEquals("failed", failed.status().wire(), blind.types());
    String errors = blind.payloads(EventPayload.Error.class).stream().map(EventPayload.Error::message)
        .collect(Collectors.joining("\n"));
    assertTrue(errors.contains("cassette mismatch at turn 2: expected 1 image(s), got 0"), errors);
  }

  private static void assertScaled(JsonNode part) throws Exception {
    assertEquals("image_url", part.path("type").asText());
    String url = part.path("image_url").path("url").asText();
    String prefix = "data:image/png;base64,";
    assertTrue(url.startsWith(prefix), url.substring(0, Math.min(40, url.length())));
    BufferedImage sent = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(url.substring(prefix.length()))));
    assertEquals(1568, sent.getWidth());
    assertEquals(523, sent.getHeight());
  }

  private static JsonNode lastMessage(String body) throws Exception {
    JsonNode messages = JSON.readTree(body).path("messages");
    return messages.get(messages.size() - 1);
  }

  private static String text(String text) {
    return openAi("{\"role\":\"assistant\",\"content\":" + jsonString(text) + "}", null) + openAi("{}", "stop")
        + "data: [DONE]\n\n";
  }

  private static String openAi(String delta, String finishReason) {
    return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":" + delta
        + ",\"finish_reason\":" + (finishReason == null ? "null" : "\"" + finishReason + "\"") + "}]}\n\n";
  }

  private ModelProvider openAi(FakeModelServer server, ToolCalling tools) {
    return ProviderRegistry.create("openai/gpt-4o", Optional.of(server.baseUrl()), Optional.of("sk-test"), Map.of(),
        TESTKIT.system(), ProviderSettings.defaults().withRetry(1, Duration.ofMillis(10), Duration.ofSeconds(1))
            .withToolCalling(tools));
  }

  private Running start(ModelProvider provider) throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work-" + SessionIds.next()));
    Path data = tmp.resolve("data");
    Settings settings = Settings.from(ConfigLoader.load(null, Map.of(
        "interpreter4j.data-dir", data.toString(),
        "interpreter4j.workdir", work.toString(),
        "interpreter4j.approval.mode", "auto",
        "interpreter4j.model-retry.attempts", 1),
        Map.of("XDG_CONFIG_HOME", data.resolve("no-config").toString())), Map.of());
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
  }
}
