package io.interpreter4j.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.testing.PostgresServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A cluster for a test: a private PostgreSQL journal and {@code count} {@code i4j serve} nodes on 127.0.0.1 (each a
 * JVM of its own, {@link ServeNode}), all of them seeds, started in order and waited for until every one is
 * {@code Up} with its HTTP address known. The nodes share one working folder; {@link #close} stops the nodes
 * (SIGTERM, then SIGKILL) and PostgreSQL.
 */
final class ClusterHarness implements AutoCloseable {
  static final String TOKEN = "cluster-test-token-0123456789abcdef";
  static final Duration WITHIN = Duration.ofSeconds(90);

  final PostgresServer pg;
  /** The nodes' working folder (where cassettes go). */
  final Path work;
  final List<ServeNode> nodes = new ArrayList<>();
  final Api api = new Api(TOKEN);
  private final int[] ports;

  private ClusterHarness(PostgresServer pg, Path work, int[] ports) {
    this.pg = pg;
    this.work = work;
    this.ports = ports;
  }

  /**
   * @param database   the journal's database name
   * @param configFile every node's config file (HOCON), or null
   */
  static ClusterHarness start(Path tmp, String database, int count, String configFile) throws Exception {
    PostgresServer pg = PostgresServer.start(database);
    int[] ports = new int[count];
    List<String> seeds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ports[i] = freePort();
      seeds.add("127.0.0.1:" + ports[i]);
    }
    ClusterHarness cluster = new ClusterHarness(pg, Files.createDirectories(tmp.resolve("work")), ports);
    try {
      for (int i = 0; i < count; i++) {
        cluster.nodes.add(ServeNode.start(Files.createDirectories(tmp.resolve("node" + i)), cluster.work, ports[i],
            String.join(",", seeds), pg.jdbcUrl(), pg.user(), TOKEN, configFile));
      }
      eventually(() -> {
        assertEquals(count, cluster.upWithUrl(cluster.node(0)), "every node up");
        return null;
      });
    } catch (Exception | AssertionError e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  ServeNode node(int i) {
    return nodes.get(i);
  }

  /** The cluster address of node {@code i}, as {@code GET /api/sessions} gives a session's {@code node}. */
  String address(int i) {
    return "pekko://i4j@127.0.0.1:" + ports[i];
  }

  /** Members {@code Up} whose HTTP address is known, as {@code via} sees them. */
  int upWithUrl(ServeNode via) throws Exception {
    int up = 0;
    for (JsonNode m : api.json("GET", via.url + "/api/cluster", null, 200).path("members")) {
      up += m.path("status").asText().equals("Up") && m.hasNonNull("url") ? 1 : 0;
    }
    return up;
  }

  /** Makes a session through {@code via} with the replay model playing {@code cassette}; returns its id. */
  String create(ServeNode via, Path cassette, String message) throws Exception {
    return api.json("POST", via.url + "/api/sessions", "{\"message\": \"" + message + "\", \"model\": "
        + "\"replay:" + cassette + "\", \"autoRun\": true}", 201).path("id").asText();
  }

  @Override
  public void close() throws Exception {
    for (ServeNode n : nodes) {
      n.close();
    }
    pg.close();
  }

  /** Tries {@code check} until it passes, for at most {@link #WITHIN} (what awaitAssert does, over HTTP). */
  static void eventually(Callable<Void> check) throws Exception {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (true) {
      try {
        check.call();
        return;
      } catch (AssertionError | java.io.IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        TimeUnit.MILLISECONDS.sleep(250);
      }
    }
  }

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
