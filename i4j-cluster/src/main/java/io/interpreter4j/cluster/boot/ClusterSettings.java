package io.interpreter4j.cluster.boot;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValueType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How one node of a cluster of {@code i4j serve} joins the others and where the journal lives, read once from
 * {@code interpreter4j.cluster} and {@code interpreter4j.journal} (flags and {@code I4J_*} variables are layered over
 * them by the config loader). Cluster mode is on exactly when {@link #port} is not 0.
 *
 * @param host       address of this node's cluster transport, as the others reach it
 * @param port       port of the cluster transport; 0: cluster mode off
 * @param seedNodes  "host:port" of the nodes joined at start, the same list on every node
 * @param journalUrl JDBC URL of the PostgreSQL journal ({@code jdbc:postgresql://...})
 * @param journalUser its user
 * @param journalPassword its password (never printed)
 * @param leaveGrace how long a node leaving on SIGTERM lets running blocks finish
 */
public record ClusterSettings(String host, int port, List<String> seedNodes, String journalUrl, String journalUser,
                              String journalPassword, Duration leaveGrace) {

  public ClusterSettings {
    seedNodes = List.copyOf(seedNodes);
  }

  /** Whether this node runs in a cluster (a cluster port was given). */
  public boolean enabled() {
    return port != 0;
  }

  /**
   * Reads and checks the settings; in cluster mode every one must be usable.
   *
   * @throws IllegalArgumentException saying which setting is wrong and what to give instead
   */
  public static ClusterSettings from(Config root) {
    Config cluster = root.getConfig("interpreter4j.cluster");
    Config journal = root.getConfig("interpreter4j.journal");
    int port;
    try {
      port = cluster.getInt("port");
    } catch (ConfigException.WrongType e) {
      throw new IllegalArgumentException("the cluster port must be a number between 1 and 65535 (--cluster-port, "
          + "I4J_CLUSTER_PORT), not '" + cluster.getValue("port").unwrapped() + "'", e);
    }
    ClusterSettings s = new ClusterSettings(cluster.getString("host").strip(), port, seedNodes(cluster),
        journal.getString("url").strip(), journal.getString("user").strip(), journal.getString("password"),
        cluster.getDuration("leave-grace"));
    if (s.enabled()) {
      s.check();
    }
    return s;
  }

  /** Seed nodes as a list, or as one string "host:port,host:port" (what I4J_SEED_NODES and --seed-nodes give). */
  private static List<String> seedNodes(Config cluster) {
    List<String> out = new ArrayList<>();
    if (cluster.getValue("seed-nodes").valueType() == ConfigValueType.LIST) {
      cluster.getStringList("seed-nodes").forEach(s -> splitInto(s, out));
    } else {
      splitInto(cluster.getString("seed-nodes"), out);
    }
    return out;
  }

  private static void splitInto(String value, List<String> out) {
    for (String part : value.split(",")) {
      if (!part.isBlank()) {
        out.add(part.strip());
      }
    }
  }

  private void check() {
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("the cluster port must be between 1 and 65535, not " + port);
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException("the cluster host must not be empty (interpreter4j.cluster.host, "
          + "I4J_CLUSTER_HOST): give the address the other nodes reach this one at");
    }
    if (seedNodes.isEmpty()) {
      throw new IllegalArgumentException("cluster mode needs seed nodes: give --seed-nodes host:port,host:port "
          + "(the same list on every node; this node's own " + host + ":" + port + " may be one of them)");
    }
    for (String seed : seedNodes) {
      HostPort.parse(seed);
    }
    if (!journalUrl.startsWith("jdbc:postgresql://")) {
      throw new IllegalArgumentException("cluster mode needs the PostgreSQL journal: give --journal-url "
          + "jdbc:postgresql://HOST:PORT/DATABASE" + (journalUrl.isEmpty() ? "" : ", not '" + journalUrl + "'"));
    }
    if (journalUser.isEmpty()) {
      throw new IllegalArgumentException("cluster mode needs the journal's user: give --journal-user NAME "
          + "(and its password in I4J_JOURNAL_PASSWORD)");
    }
    if (leaveGrace.isNegative()) {
      throw new IllegalArgumentException("interpreter4j.cluster.leave-grace must not be negative");
    }
  }

  /** "host:port" of this node. */
  public String self() {
    return host + ":" + port;
  }

  @Override
  public String toString() {
    // never print the password
    return "ClusterSettings[host=" + host + ", port=" + port + ", seedNodes=" + seedNodes + ", journalUrl="
        + journalUrl + ", journalUser=" + journalUser + ", journalPassword=" + (journalPassword.isEmpty() ? "" : "***")
        + ", leaveGrace=" + leaveGrace + "]";
  }

  /** One "host:port" of a seed node. */
  public record HostPort(String host, int port) {
    /** @throws IllegalArgumentException when {@code value} is not "host:port" with a port from 1 to 65535 */
    public static HostPort parse(String value) {
      int colon = value.lastIndexOf(':');
      String bad = "seed node '" + value + "' is not host:port (e.g. 10.0.0.5:25520)";
      if (colon <= 0 || colon == value.length() - 1) {
        throw new IllegalArgumentException(bad);
      }
      int port;
      try {
        port = Integer.parseInt(value.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(bad, e);
      }
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException(bad);
      }
      String host = value.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      return new HostPort(host, port);
    }
  }
}
