package io.interpreter4j.bench.cluster;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.interpreter4j.bench.Quiet;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.SessionKit;
import io.interpreter4j.cluster.boot.ClusterNode;
import io.interpreter4j.cluster.boot.ClusterSettings;
import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.cluster.serve.ClusterServer;
import io.interpreter4j.cluster.serve.JournalMirror;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.StreamName;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.core.testing.PostgresServer;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.session.SessionEvents;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * {@code cluster_journal}: one cluster node (a one-node cluster, PostgreSQL journal) against a single machine (the
 * file journal), in the same run. Journal write latency: one event appended at a time to a session's journal,
 * {@code SessionLog.Append} acknowledged from PostgreSQL against {@code SessionEvents.publish} into the file. Sessions
 * per second: N sessions made over HTTP through one {@code i4j serve} each answering one replayed turn; in cluster
 * mode a session counts once its events are in PostgreSQL. Three rounds each; figures are the median round's with
 * the spread. PostgreSQL is a private one ({@code PostgresServer}, fsync off as in the tests); without PostgreSQL the
 * section says so and is skipped.
 */
public final class ClusterJournalSection {
  private static final Path DEBIAN_PROGRAMS = Path.of("/usr/lib/postgresql");
  private static final String TOKEN = "bench-cluster-token-0123456789abcdef";
  private static final int ROUNDS = 3;
  private static final Duration WITHIN = Duration.ofMinutes(5);
  /** An event of a typical size: a line of a block's output. */
  private static final String OUTPUT_TEXT = "total 48\ndrwxr-xr-x  2 user user 4096 Dec  3 15:00 src\n".repeat(3);

  private ClusterJournalSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("what", "journal write latency and sessions/s through one node: PostgreSQL journal (cluster mode) "
        + "against the file journal (single machine)");
    if (!postgresInstalled()) {
      node.put("skipped", "PostgreSQL is not installed (initdb and pg_ctl under " + DEBIAN_PROGRAMS
          + "/VERSION/bin): apt-get install postgresql");
      return node;
    }
    int sessionsForLatency = quick ? 5 : 20;
    int eventsPerSession = 50;
    int sessions = Integer.getInteger("bench.cluster.sessions", quick ? 30 : 100);
    Path dir = Files.createTempDirectory("i4j-bench-cluster");
    ClusterNode<SessionManager.Command> cluster = null;
    ActorSystem<SessionManager.Command> single = null;
    List<ServerHandle> servers = new ArrayList<>();
    try (PostgresServer pg = PostgresServer.start("i4j_bench")) {
      Path work = Files.createDirectories(dir.resolve("work"));
      Config fileConfig = SessionKit.config(dir.resolve("single"), work, Map.of());
      Config nodeConfig = SessionKit.config(dir.resolve("node"), work, Map.of());
      int port = freePort();
      ClusterSettings settings = new ClusterSettings("127.0.0.1", port, List.of("127.0.0.1:" + port),
          pg.jdbcUrl(), pg.user(), "trust", Duration.ofSeconds(30));
      cluster = ClusterNode.start(settings, Quiet.over(nodeConfig), SessionManager.create(), false);
      single = SessionKit.system("bench-single", fileConfig);

      // [0]: each round's p50, [1]: its p99, in ns
      long[][] pgLatency = new long[2][ROUNDS];
      long[][] fileLatency = new long[2][ROUNDS];
      appendToPostgres(cluster, "warm", 2, eventsPerSession); // the cluster is up, the pool open, the shards placed
      for (int r = 0; r < ROUNDS; r++) {
        Samples pgSamples = appendToPostgres(cluster, "r" + r, sessionsForLatency, eventsPerSession);
        Samples fileSamples = appendToFile(dir.resolve("file-journal-" + r), sessionsForLatency, eventsPerSession);
        pgLatency[0][r] = nanos(pgSamples.medianMs());
        pgLatency[1][r] = nanos(pgSamples.p99Ms());
        fileLatency[0][r] = nanos(fileSamples.medianMs());
        fileLatency[1][r] = nanos(fileSamples.p99Ms());
      }
      ObjectNode latency = node.putObject("journal_write_latency");
      latency.put("appends_per_round", sessionsForLatency * eventsPerSession);
      latency.set("postgres_p50_ms", Samples.spread(pgLatency[0], 1e6));
      latency.set("postgres_p99_ms", Samples.spread(pgLatency[1], 1e6));
      latency.set("file_p50_ms", Samples.spread(fileLatency[0], 1e6));
      latency.set("file_p99_ms", Samples.spread(fileLatency[1], 1e6));
      latency.put("postgres_over_file_p50", Samples.round(median(pgLatency[0]) / (double) median(fileLatency[0])));
      latency.put("postgres_over_file_p99", Samples.round(median(pgLatency[1]) / (double) median(fileLatency[1])));

      Settings sessionSettings = SessionKit.settings(nodeConfig);
      Cassette cassette = Cassette.parse("{\"turns\": [{\"reply\": \"Hello from the replay model: nothing to run "
          + "here.\", \"chunk_chars\": 8, \"delay_ms\": 0}]}", "bench-cluster");
      ServerConfig serverConfig = ServerConfig.defaults().withPort(0).withToken(TOKEN);
      ServerHandle fileServer = Server.start(single, serverConfig, SessionKit.settings(fileConfig),
          name -> new ReplayModelProvider(name, cassette), SessionKit.HOST);
      servers.add(fileServer);
      ClusterServer.Started clustered = ClusterServer.start(cluster, serverConfig, sessionSettings,
          name -> new ReplayModelProvider(name, cassette), SessionKit.HOST);
      servers.add(clustered.handle());
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      throughput(http, fileServer, null, "warm", 10);
      throughput(http, clustered.handle(), clustered.mirror(), "warm", 10);
      long[] fileRate = new long[ROUNDS];
      long[] pgRate = new long[ROUNDS];
      for (int r = 0; r < ROUNDS; r++) {
        fileRate[r] = Math.round(throughput(http, fileServer, null, "f" + r, sessions) * 1000);
        pgRate[r] = Math.round(throughput(http, clustered.handle(), clustered.mirror(), "p" + r, sessions) * 1000);
      }
      ObjectNode rate = node.putObject("sessions_per_s");
      rate.put("sessions_per_round", sessions);
      rate.put("how", "POST /api/sessions (autoRun, one replayed turn, no block) until turn_finished; cluster mode "
          + "until its events are in PostgreSQL as well");
      rate.set("postgres", Samples.spread(pgRate, 1000.0));
      rate.set("file", Samples.spread(fileRate, 1000.0));
      rate.put("postgres_over_file", Samples.round(median(pgRate) / (double) median(fileRate)));
      // the mirror falling behind its bounded feed would leave events out of PostgreSQL: none should
      rate.put("mirror_gaps", clustered.mirror().gaps());
      rate.put("mirror_events_written", clustered.mirror().written());
      clustered.mirror().stop(); // the servers' feeds end next: no reason to follow again
      node.put("postgres_fsync", "off (as in the tests: the figures are the journal's path, not the disk's)");
    } finally {
      for (ServerHandle s : servers) {
        s.stop();
      }
      if (single != null) {
        single.terminate();
        single.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      if (cluster != null) {
        cluster.system().terminate();
        cluster.system().getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    }
    return node;
  }

  /** One event at a time per session, each acknowledged once PostgreSQL has it. */
  private static Samples appendToPostgres(ClusterNode<?> cluster, String prefix, int sessions, int events)
      throws Exception {
    Samples samples = new Samples(sessions * events);
    String home = org.apache.pekko.cluster.typed.Cluster.get(cluster.system()).selfMember().address().toString();
    for (int s = 0; s < sessions; s++) {
      String id = "bench-" + prefix + "-" + s;
      for (int seq = 1; seq <= events; seq++) {
        String json = "{\"session\":\"" + id + "\",\"seq\":" + seq + ",\"type\":\"output\",\"block\":1,"
            + "\"stream\":\"stdout\",\"text\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(OUTPUT_TEXT)
            + "}";
        long seqNow = seq;
        long t0 = System.nanoTime();
        AskPattern.<ShardingEnvelope<SessionLog.Command>, SessionLog.Appended>ask(cluster.journals(),
                replyTo -> new ShardingEnvelope<>(id, new SessionLog.Append(seqNow, json, home, replyTo)),
                Duration.ofSeconds(30), cluster.system().scheduler())
            .toCompletableFuture().get(60, TimeUnit.SECONDS);
        samples.add(System.nanoTime() - t0);
      }
    }
    return samples;
  }

  /** The same number of events, each published into a session's file journal. */
  private static Samples appendToFile(Path folder, int sessions, int events) throws IOException {
    Samples samples = new Samples(sessions * events);
    Files.createDirectories(folder);
    for (int s = 0; s < sessions; s++) {
      try (SessionEvents journal = new SessionEvents("bench-" + s, folder.resolve("s" + s + ".jsonl"),
          Clock.systemUTC())) {
        for (int e = 0; e < events; e++) {
          long t0 = System.nanoTime();
          journal.publish(new EventPayload.Output(1, StreamName.STDOUT, OUTPUT_TEXT));
          samples.add(System.nanoTime() - t0);
        }
      }
    }
    return samples;
  }

  /** Makes {@code n} sessions at once over HTTP; returns sessions per second once every one's turn ended. */
  private static double throughput(HttpClient http, ServerHandle server, JournalMirror mirror, String prefix, int n)
      throws Exception {
    Set<String> open = ConcurrentHashMap.newKeySet();
    CompletableFuture<Void> allDone = new CompletableFuture<>();
    Set<String> finished = ConcurrentHashMap.newKeySet();
    var feed = server.hub().allEvents(65_536)
        .filter(line -> line.json().contains("\"type\":\"turn_finished\""))
        .runWith(Sink.foreach(line -> {
          finished.add(line.session());
          if (!open.isEmpty() && finished.containsAll(open)) {
            allDone.complete(null);
          }
        }), server.hub().materializer());
    long t0 = System.nanoTime();
    List<CompletableFuture<HttpResponse<String>>> made = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      made.add(http.sendAsync(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/sessions"))
          .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
          .timeout(Duration.ofSeconds(60))
          .POST(HttpRequest.BodyPublishers.ofString("{\"message\": \"hello " + prefix + i + "\", \"model\": "
              + "\"replay:bench\", \"autoRun\": true}")).build(), HttpResponse.BodyHandlers.ofString()));
    }
    List<String> ids = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> r : made) {
      HttpResponse<String> response = r.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
      if (response.statusCode() != 201) {
        throw new IllegalStateException("POST /api/sessions answered " + response.statusCode() + ": "
            + response.body());
      }
      ids.add(com.fasterxml.jackson.databind.json.JsonMapper.builder().build().readTree(response.body())
          .path("id").asText());
    }
    open.addAll(ids);
    if (finished.containsAll(open)) {
      allDone.complete(null);
    }
    allDone.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
    if (mirror != null) {
      mirror.awaitWritten(WITHIN);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    feed.toCompletableFuture().cancel(false);
    return n / seconds;
  }

  private static boolean postgresInstalled() throws IOException {
    if (!Files.isDirectory(DEBIAN_PROGRAMS)) {
      return false;
    }
    try (Stream<Path> versions = Files.list(DEBIAN_PROGRAMS)) {
      return versions.anyMatch(v -> Files.isExecutable(v.resolve("bin/initdb"))
          && Files.isExecutable(v.resolve("bin/pg_ctl")));
    }
  }

  private static long nanos(double ms) {
    return Math.round(ms * 1e6);
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
