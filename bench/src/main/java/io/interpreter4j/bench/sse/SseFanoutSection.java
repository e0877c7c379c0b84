package io.interpreter4j.bench.sse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.SessionKit;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * {@code sse_fanout}: 100 Server-Sent-Events clients on {@code GET /api/sessions/{id}/events} of one busy session
 * (the model streams its answer in small pieces, then a python block prints a line every 2 ms): the lag from each
 * event's {@code ts} to its arrival at each client. Beside it, the floor: the same events seen by a subscriber
 * inside the JVM, on the session's own thread, with no HTTP and no hub. The clients run in a JVM of their own
 * ({@link SseClientsProcess}), so their garbage is not the server's.
 */
public final class SseFanoutSection {

  private static final String TOKEN = "bench-token-0123456789abcdef";

  private SseFanoutSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    int clients = 100;
    int lines = quick ? 1000 : 3000;
    Path dir = Files.createTempDirectory("i4j-bench-sse");
    ActorSystem<SessionManager.Command> system = null;
    ServerHandle server = null;
    SseClientsProcess open = null;
    try {
      Path work = Files.createDirectories(dir.resolve("work"));
      // the server's own model: a replay model named over the API is otherwise read from a file in its replay roots
      var config = SessionKit.config(dir.resolve("data"), work, Map.of("interpreter4j.model", "replay:bench-sse"));
      Settings settings = SessionKit.settings(config);
      system = SessionKit.system("bench-sse", config);
      Cassette cassette = Cassette.parse(cassetteJson(lines), "bench-sse");
      server = Server.start(system, ServerConfig.defaults().withPort(0).withToken(TOKEN), settings,
          spec -> model(spec, cassette), SessionKit.HOST);
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      String base = server.baseUrl();

      String id = created(http, base);
      ActorRef<Session.Command> session = find(system, id);

      int seconds = quick ? 90 : 300;
      open = new SseClientsProcess(base, "/api/sessions/" + id + "/events", TOKEN, clients, seconds, 2);
      open.awaitCaughtUp(90);
      AtomicLong floorFrom = new AtomicLong(Long.MAX_VALUE);
      AtomicReference<Samples> floor = new AtomicReference<>();
      session.tell(new Session.Subscribe(event -> {
        long ts = event.ts().getEpochSecond() * 1_000_000_000L + event.ts().getNano();
        if (ts >= floorFrom.get()) {
          Instant now = Instant.now();
          floor.get().add(now.getEpochSecond() * 1_000_000_000L + now.getNano() - ts);
        }
      }));

      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("what", clients + " SSE clients of one busy session (streamed answer, then a python block printing "
          + lines + " lines 2 ms apart): event ts -> received by the client; milliseconds");
      node.put("clients", clients);
      node.put("clients_jvm", "a separate JVM (" + String.join(" ", SseClientsProcess.JVM_OPTIONS)
          + "), one selector thread for all clients");
      measureTurn(node, open, http, base, id, clients, seconds, floorFrom, floor);
      ObjectNode second = node.putObject("second_turn");
      second.put("what", "the same busy turn again at once: the server's code is compiled by then (the first busy "
          + "turn is the server's first, and pays for the JIT compilers and the bytecode interpreter)");
      measureTurn(second, open, http, base, id, clients, seconds, floorFrom, floor);
      return node;
    } finally {
      if (open != null) {
        open.close();
      }
      if (server != null) {
        server.stop();
      }
      if (system != null) {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      Tools.deleteTree(dir);
    }
  }

  /** Posts the busy message and puts the lag of the turn it starts, and what the server spent on it, into {@code node}. */
  private static void measureTurn(ObjectNode node, SseClientsProcess open, HttpClient http, String base, String id,
      int clients, int seconds, AtomicLong floorFrom, AtomicReference<Samples> floor) throws Exception {
    Instant from = Instant.now();
    long measureFrom = from.getEpochSecond() * 1_000_000_000L + from.getNano();
    floor.set(new Samples(4096));
    floorFrom.set(measureFrom);
    open.measureFrom(measureFrom);
    long serverCpuFrom = cpuNanos(ProcessHandle.current());
    long clientsCpuFrom = cpuNanos(ProcessHandle.of(open.pid()).orElseThrow());
    long[] gcFrom = gc();
    long allocatedFrom = allocatedBytes();
    HttpResponse<String> posted = http.send(request(base, "/api/sessions/" + id + "/messages")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"print the lines\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    if (posted.statusCode() != 202) {
      throw new IllegalStateException("POST messages: " + posted.statusCode() + " " + posted.body());
    }
    JsonNode result = open.result(seconds + 30);
    JsonNode lag = result.path("lag");
    // the CPU both JVMs spent on the measured turn (the python interpreter's is in neither): a figure that other
    // work on the machine does not inflate as much as the lag, to compare builds under load
    long serverCpu = cpuNanos(ProcessHandle.current()) - serverCpuFrom;
    long clientsCpu = cpuNanos(ProcessHandle.of(open.pid()).orElseThrow()) - clientsCpuFrom;
    long[] gcTo = gc();
    long allocated = allocatedBytes() - allocatedFrom;
    floorFrom.set(Long.MAX_VALUE);
    Samples floorSamples = floor.get();

    node.put("clients_saw_whole_turn", result.path("clients_saw_whole_turn").asInt());
    node.put("all_clients_complete", result.path("all_clients_complete").asBoolean());
    node.put("deliveries", result.path("deliveries").asInt());
    node.put("events_per_client", result.path("deliveries").asInt() / clients);
    node.set("i4j", lag);
    node.set("floor_in_process_subscriber", floorSamples.toJson());
    int deliveries = Math.max(1, result.path("deliveries").asInt());
    node.put("server_cpu_ms", Samples.round(serverCpu / 1e6));
    node.put("server_cpu_us_per_delivery", Samples.round(serverCpu / 1e3 / deliveries));
    node.put("clients_cpu_ms", Samples.round(clientsCpu / 1e6));
    node.put("server_allocated_mb", Samples.round(allocated / 1e6));
    node.put("server_allocated_bytes_per_delivery", allocated / deliveries);
    node.put("server_gc_collections", gcTo[0] - gcFrom[0]);
    node.put("server_gc_ms", gcTo[1] - gcFrom[1]);
    ObjectNode ratios = node.putObject("ratios");
    ratios.put("over_floor_p99", Samples.round(lag.path("p99_ms").asDouble() / floorSamples.p99Ms()));
  }

  /** CPU time of a process so far (user and system), in nanoseconds. */
  private static long cpuNanos(ProcessHandle process) {
    return process.info().totalCpuDuration().map(Duration::toNanos)
        .orElseThrow(() -> new IllegalStateException("no CPU time for process " + process.pid()));
  }

  /**
   * Bytes this JVM's live threads have allocated so far (threads that ended meanwhile drop out: the dispatchers'
   * threads live through a run). Deterministic where CPU time is not: what a change does to the collector's work.
   */
  private static long allocatedBytes() {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      sum += Math.max(0, bytes);
    }
    return sum;
  }

  /** This JVM's collections so far and the milliseconds they took (pauses and, for G1, concurrent cycles). */
  private static long[] gc() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, bean.getCollectionCount());
      millis += Math.max(0, bean.getCollectionTime());
    }
    return new long[] {count, millis};
  }

  static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  private static HttpRequest.Builder request(String base, String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + TOKEN);
  }

  private static String created(HttpClient http, String base) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(request(base, "/api/sessions").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"message\": \"are you there?\", \"model\": \"replay:bench-sse\", \"autoRun\": true}")).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 201) {
      throw new IllegalStateException("POST /api/sessions: " + r.statusCode() + " " + r.body());
    }
    return EventCodec.mapper().readTree(r.body()).path("id").asText();
  }

  private static ActorRef<Session.Command> find(ActorSystem<SessionManager.Command> system, String id)
      throws Exception {
    Optional<ActorRef<Session.Command>> ref = AskPattern.<SessionManager.Command,
            Optional<ActorRef<Session.Command>>>ask(system, replyTo -> new SessionManager.Find(id, replyTo),
            Duration.ofSeconds(10), system.scheduler()).toCompletableFuture().get(10, TimeUnit.SECONDS);
    return ref.orElseThrow(() -> new IllegalStateException("no session " + id));
  }

  private static ModelProvider model(String spec, Cassette cassette) {
    if (!spec.equals("replay:bench-sse")) {
      throw new IllegalArgumentException("only replay:bench-sse here");
    }
    return new ReplayModelProvider(spec, cassette);
  }

  /**
   * A greeting; then, twice, a long answer in small pieces with a python block that prints a line every 2 ms, and
   * its closing words.
   */
  static String cassetteJson(int lines) {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    var turns = root.putArray("turns");
    turns.addObject().put("reply", "Yes, ready.").put("chunk_chars", 4).put("delay_ms", 0);
    String prose = "Here is the plan, explained at some length so that the answer streams in many small pieces. "
        .repeat(8);
    turns.addObject().put("reply", prose + "\n\n```python\nimport time\nfor i in range(" + lines + "):\n"
        + "    print('line', i, flush=True)\n    time.sleep(0.002)\n```\n").put("chunk_chars", 4).put("delay_ms", 1);
    turns.addObject().put("reply", "All lines printed.").put("chunk_chars", 4).put("delay_ms", 0);
    // the same turn again (the second measured turn)
    turns.addObject().put("reply", prose + "\n\n```python\nimport time\nfor i in range(" + lines + "):\n"
        + "    print('line', i, flush=True)\n    time.sleep(0.002)\n```\n").put("chunk_chars", 4).put("delay_ms", 1);
    turns.addObject().put("reply", "All lines printed.").put("chunk_chars", 4).put("delay_ms", 0);
    return root.toString();
  }

}
