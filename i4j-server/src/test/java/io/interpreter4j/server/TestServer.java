package io.interpreter4j.server;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.QuietPekko;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.session.SessionManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A real server for tests: an actor system with the session manager, the server bound on 127.0.0.1:0 with a known
 * token, replay cassettes written as files under the data folder ({@code replay:PATH}, the server's own model
 * {@code replay:default} by name), and an HTTP client speaking to it.
 */
final class TestServer implements AutoCloseable {
  static final String TOKEN = "test-token-0123456789abcdef";
  static final HostInfo HOST = new HostInfo("Linux", "test", "amd64", "tester", "/tmp", "/bin/bash", "3",
      List.of("python", "bash"));
  static final Duration WAIT = Duration.ofSeconds(30);

  final ActorSystem<SessionManager.Command> system;
  final ServerHandle handle;
  final Path dataDir;
  final Path workdir;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  TestServer(Path tmp) throws IOException {
    this(tmp, c -> c, ConfigFactory.empty());
  }

  TestServer(Path tmp, UnaryOperator<ServerConfig> config, Config systemConfig) throws IOException {
    this(tmp, config, systemConfig, Map.of());
  }

  /** {@code sessionFlags}: more settings of the server's sessions, as command-line flags give them. */
  TestServer(Path tmp, UnaryOperator<ServerConfig> config, Config systemConfig, Map<String, Object> sessionFlags)
      throws IOException {
    this.dataDir = Files.createDirectories(tmp.resolve("data"));
    this.workdir = Files.createDirectories(tmp.resolve("work"));
    Map<String, Object> flags = new HashMap<>();
    flags.put("interpreter4j.data-dir", dataDir.toString());
    flags.put("interpreter4j.workdir", workdir.toString());
    flags.put("interpreter4j.model", "replay:default");
    flags.put("interpreter4j.model-retry.min-backoff", "10ms");
    flags.putAll(sessionFlags);
    Config root = ConfigLoader.load(null, flags, Map.of("XDG_CONFIG_HOME", tmp.resolve("no-config").toString()));
    Settings settings = Settings.from(root, Map.of());
    this.system = ActorSystem.create(SessionManager.create(), "server-test",
        systemConfig.withFallback(QuietPekko.CONFIG).withFallback(root));
    try {
      this.handle = Server.start(system, config.apply(ServerConfig.defaults().withPort(0).withToken(TOKEN)),
          settings, this::model, HOST);
    } catch (RuntimeException e) {
      system.terminate();
      throw e;
    }
  }

  /** replay:PATH (replay:NAME: the cassette written under NAME) -> a fresh provider replaying it. */
  ModelProvider model(String spec) {
    if (!spec.startsWith("replay:")) {
      throw new IllegalArgumentException("only replay: models in tests");
    }
    String name = spec.substring("replay:".length());
    Path file = name.contains("/") ? Path.of(name) : cassetteFile(name);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no cassette named " + name);
    }
    try {
      return new ReplayModelProvider(spec, Cassette.parse(Files.readString(file), name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path cassetteFile(String name) {
    return dataDir.resolve("cassettes").resolve(name + ".json");
  }

  /** Writes a cassette's JSON under NAME; returns its model spec, replay:PATH. */
  String putCassette(String name, String json) {
    try {
      Path file = cassetteFile(name);
      Files.createDirectories(file.getParent());
      Files.writeString(file, json);
      return "replay:" + file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Registers a cassette streamed in 64-character chunks; returns its model spec. */
  String cassette(String name, String... replies) {
    return cassette(name, 64, 0, replies);
  }

  /** Registers a cassette; returns its model spec. */
  String cassette(String name, int chunkChars, long delayMs, String... replies) {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    var turns = root.putArray("turns");
    for (String reply : replies) {
      ObjectNode t = turns.addObject();
      t.put("reply", reply);
      t.put("chunk_chars", chunkChars);
      t.put("delay_ms", delayMs);
    }
    return putCassette(name, root.toString());
  }

  /**
   * Registers a cassette of (expect, reply) pairs, expect null for any message, streamed in chunks of
   * {@code chunkChars} with {@code delayMs} between them; returns its model spec.
   */
  String expectingCassette(String name, int chunkChars, long delayMs, String... expectsAndReplies) {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    var turns = root.putArray("turns");
    for (int i = 0; i < expectsAndReplies.length; i += 2) {
      ObjectNode t = turns.addObject();
      if (expectsAndReplies[i] != null) {
        t.put("expect", expectsAndReplies[i]);
      }
      t.put("reply", expectsAndReplies[i + 1]);
      t.put("chunk_chars", chunkChars);
      t.put("delay_ms", delayMs);
    }
    return putCassette(name, root.toString());
  }

  String base() {
    return handle.baseUrl();
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base() + path)).timeout(WAIT)
        .header("Authorization", "Bearer " + TOKEN);
  }

  HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(request(path).GET().build());
  }

  HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)).build());
  }

  HttpResponse<String> delete(String path) throws IOException, InterruptedException {
    return send(request(path).DELETE().build());
  }

  static JsonNode json(HttpResponse<String> response) throws IOException {
    return EventCodec.mapper().readTree(response.body());
  }

  /** Creates a session through the API and returns its id. */
  String createSession(String json) throws IOException, InterruptedException {
    HttpResponse<String> r = post("/api/sessions", json);
    if (r.statusCode() != 201) {
      throw new AssertionError("expected 201, got " + r.statusCode() + ": " + r.body());
    }
    String id = json(r).path("id").asText();
    assertNotNull(id);
    return id;
  }

  static String body(Object... fieldsAndValues) {
    ObjectNode n = EventCodec.mapper().createObjectNode();
    for (int i = 0; i < fieldsAndValues.length; i += 2) {
      n.set((String) fieldsAndValues[i], EventCodec.mapper().valueToTree(fieldsAndValues[i + 1]));
    }
    return n.toString();
  }

  SseClient events(String path, String lastEventId) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + path))
        .header("Authorization", "Bearer " + TOKEN).header("Accept", "text/event-stream");
    if (lastEventId != null) {
      b.header("Last-Event-ID", lastEventId);
    }
    return SseClient.open(http, b.GET().build());
  }

  @Override
  public void close() {
    handle.stop();
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      // best effort: the JVM of the test run ends soon
    }
  }
}
