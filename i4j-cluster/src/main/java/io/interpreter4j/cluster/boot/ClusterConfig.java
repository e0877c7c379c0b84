package io.interpreter4j.cluster.boot;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.interpreter4j.cluster.ClusterMessage;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Pekko settings of one cluster node, made from {@link ClusterSettings} and laid over the user's configuration:
 * the cluster provider, Artery TCP on the node's host and port, the static seed nodes, the Split Brain Resolver
 * keeping the majority, Pekko Persistence JDBC on PostgreSQL, and Jackson for the messages between nodes. None of
 * this is in a reference.conf: on a single machine nothing of it is ever read.
 */
public final class ClusterConfig {
  /** The actor system's name: the same on every node, or they cannot join each other. */
  public static final String SYSTEM_NAME = "i4j";
  /**
   * How long membership must be stable before the resolver decides (Pekko's default is 20 s; 7 s before): about a
   * second of gossip is enough for a few nodes on one network, and each second here is a second of failover.
   */
  static final Duration STABLE_AFTER = Duration.ofSeconds(5);
  /**
   * After a node is downed, how long before its shards (the journals of sessions held there) start on survivors.
   * The resolver's default is {@link #STABLE_AFTER}; a cut-off minority downs itself at about the same time and its
   * entities stop within a second or two, and a second writer of a journal would be refused by PostgreSQL's key on
   * (persistence id, sequence number) anyway.
   */
  static final Duration DOWN_REMOVAL_MARGIN = Duration.ofSeconds(3);

  private ClusterConfig() {}

  /**
   * @param settings       a cluster node's settings ({@link ClusterSettings#enabled()})
   * @param exitWhenDowned whether the JVM exits once this node is downed or leaves (true for {@code i4j serve}; a
   *                       test running several nodes in one JVM says false)
   */
  public static Config overlay(ClusterSettings settings, boolean exitWhenDowned) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pekko.actor.provider", "cluster");
    m.put("pekko.remote.artery.transport", "tcp");
    m.put("pekko.remote.artery.canonical.hostname", settings.host());
    m.put("pekko.remote.artery.canonical.port", settings.port());
    m.put("pekko.cluster.seed-nodes", settings.seedNodes().stream().map(ClusterConfig::address).toList());
    m.put("pekko.cluster.downing-provider-class", "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider");
    m.put("pekko.cluster.split-brain-resolver.active-strategy", "keep-majority");
    m.put("pekko.cluster.split-brain-resolver.stable-after", STABLE_AFTER.toMillis() + "ms");
    m.put("pekko.cluster.down-removal-margin", DOWN_REMOVAL_MARGIN.toMillis() + "ms");
    m.put("pekko.cluster.run-coordinated-shutdown-when-down", "on");
    m.put("pekko.coordinated-shutdown.exit-jvm", exitWhenDowned ? "on" : "off");
    m.put("pekko.coordinated-shutdown.run-by-jvm-shutdown-hook", exitWhenDowned ? "on" : "off");
    m.put("pekko.actor.serialization-bindings." + quoted(ClusterMessage.class.getName()), "jackson-json");
    // requests passed on to the node running a session, event streams among them, which hold a connection each
    m.put("pekko.http.host-connection-pool.max-connections", 256);
    m.put("pekko.http.host-connection-pool.max-open-requests", 1024);

    m.put("pekko.persistence.journal.plugin", "jdbc-journal");
    m.put("pekko.persistence.snapshot-store.plugin", "jdbc-snapshot-store");
    m.put("jdbc-journal.use-shared-db", "i4j");
    m.put("jdbc-snapshot-store.use-shared-db", "i4j");
    m.put("jdbc-read-journal.use-shared-db", "i4j");
    // a journal written a moment ago on another node is read within 200 ms (its default polls once a second)
    m.put("jdbc-read-journal.refresh-interval", "200ms");
    String db = "pekko-persistence-jdbc.shared-databases.i4j.";
    m.put(db + "profile", "slick.jdbc.PostgresProfile$");
    m.put(db + "db.url", settings.journalUrl());
    m.put(db + "db.user", settings.journalUser());
    m.put(db + "db.password", settings.journalPassword());
    m.put(db + "db.driver", "org.postgresql.Driver");
    m.put(db + "db.connectionPool", "HikariCP");
    m.put(db + "db.numThreads", 4);
    m.put(db + "db.maxConnections", 4);
    m.put(db + "db.minConnections", 1);
    m.put(db + "db.queueSize", 10_000);
    Config overlay = ConfigFactory.empty();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      overlay = overlay.withValue(e.getKey(), ConfigValueFactory.fromAnyRef(e.getValue(), "i4j cluster mode"));
    }
    return overlay;
  }

  /** {@code pekko://i4j@host:port} of a "host:port" seed. */
  public static String address(String seed) {
    ClusterSettings.HostPort hp = ClusterSettings.HostPort.parse(seed);
    String host = hp.host().contains(":") ? "[" + hp.host() + "]" : hp.host();
    return "pekko://" + SYSTEM_NAME + "@" + host + ":" + hp.port();
  }

  private static String quoted(String key) {
    return "\"" + key + "\"";
  }

  /** The seed addresses, for a log line. */
  public static List<String> addresses(ClusterSettings settings) {
    return settings.seedNodes().stream().map(ClusterConfig::address).toList();
  }
}
