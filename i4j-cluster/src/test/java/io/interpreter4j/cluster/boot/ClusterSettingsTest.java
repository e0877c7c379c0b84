package io.interpreter4j.cluster.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.config.ConfigLoader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {

  private static Config load(Map<String, Object> flags, Map<String, String> env) {
    return ConfigLoader.load(null, ConfigFactory.empty(), flags, env);
  }

  private static final Map<String, String> NO_ENV = Map.of("XDG_CONFIG_HOME", "/nonexistent-i4j-test");

  @Test
  void withoutAClusterPortItIsOffAndNothingElseIsChecked() {
    ClusterSettings s = ClusterSettings.from(load(Map.of(), NO_ENV));
    assertFalse(s.enabled());
    assertEquals("127.0.0.1", s.host());
    assertEquals(List.of(), s.seedNodes());
    assertEquals(Duration.ofSeconds(30), s.leaveGrace());
  }

  @Test
  void theEnvironmentGivesEverySettingAndSeedsComeCommaSeparated() {
    ClusterSettings s = ClusterSettings.from(load(Map.of(), Map.of(
        "XDG_CONFIG_HOME", "/nonexistent-i4j-test",
        "I4J_CLUSTER_PORT", "25520", "I4J_CLUSTER_HOST", "10.0.0.5",
        "I4J_SEED_NODES", "10.0.0.5:25520, 10.0.0.6:25520,",
        "I4J_JOURNAL_URL", "jdbc:postgresql://db:5432/i4j", "I4J_JOURNAL_USER", "i4j",
        "I4J_JOURNAL_PASSWORD", "secret-pw")));
    assertTrue(s.enabled());
    assertEquals("10.0.0.5:25520", s.self());
    assertEquals(List.of("10.0.0.5:25520", "10.0.0.6:25520"), s.seedNodes());
    assertEquals("secret-pw", s.journalPassword());
    assertFalse(s.toString().contains("secret-pw"), s.toString());
  }

  @Test
  void flagsOverTheEnvironmentAndAListInTheConfigWorksToo() {
    ClusterSettings s = ClusterSettings.from(load(Map.of(
        "interpreter4j.cluster.port", 25521,
        "interpreter4j.cluster.seed-nodes", List.of("127.0.0.1:25520", "127.0.0.1:25521"),
        "interpreter4j.journal.url", "jdbc:postgresql://127.0.0.1/i4j",
        "interpreter4j.journal.user", "flag-user"),
        Map.of("XDG_CONFIG_HOME", "/nonexistent-i4j-test", "I4J_JOURNAL_USER", "env-user", "I4J_CLUSTER_PORT", "1")));
    assertEquals(25521, s.port());
    assertEquals("flag-user", s.journalUser());
    assertEquals(List.of("127.0.0.1:25520", "127.0.0.1:25521"), s.seedNodes());
  }

  @Test
  void clusterModeSaysWhatIsMissingOrWrong() {
    Map<String, Object> base = Map.of("interpreter4j.cluster.port", 25520);
    IllegalArgumentException noSeeds = assertThrows(IllegalArgumentException.class,
        () -> ClusterSettings.from(load(base, NO_ENV)));
    assertTrue(noSeeds.getMessage().contains("--seed-nodes host:port"), noSeeds.getMessage());

    IllegalArgumentException badSeed = assertThrows(IllegalArgumentException.class, () -> ClusterSettings.from(
        load(Map.of("interpreter4j.cluster.port", 25520, "interpreter4j.cluster.seed-nodes", "node1"), NO_ENV)));
    assertEquals("seed node 'node1' is not host:port (e.g. 10.0.0.5:25520)", badSeed.getMessage());

    IllegalArgumentException noJournal = assertThrows(IllegalArgumentException.class, () -> ClusterSettings.from(
        load(Map.of("interpreter4j.cluster.port", 25520, "interpreter4j.cluster.seed-nodes", "h:1",
            "interpreter4j.journal.url", "jdbc:mysql://x/y"), NO_ENV)));
    assertTrue(noJournal.getMessage().contains("--journal-url jdbc:postgresql://HOST:PORT/DATABASE, not "
        + "'jdbc:mysql://x/y'"), noJournal.getMessage());

    IllegalArgumentException noUser = assertThrows(IllegalArgumentException.class, () -> ClusterSettings.from(
        load(Map.of("interpreter4j.cluster.port", 25520, "interpreter4j.cluster.seed-nodes", "h:1",
            "interpreter4j.journal.url", "jdbc:postgresql://x/y"), NO_ENV)));
    assertTrue(noUser.getMessage().contains("--journal-user NAME"), noUser.getMessage());

    IllegalArgumentException badPort = assertThrows(IllegalArgumentException.class, () -> ClusterSettings.from(
        load(Map.of(), Map.of("XDG_CONFIG_HOME", "/nonexistent-i4j-test", "I4J_CLUSTER_PORT", "abc"))));
    assertTrue(badPort.getMessage().contains("not 'abc'"), badPort.getMessage());
  }

  @Test
  void thePekkoOverlayNamesTheTransportTheSeedsTheResolverAndTheJournal() {
    ClusterSettings s = new ClusterSettings("127.0.0.1", 25520, List.of("127.0.0.1:25520", "[::1]:25521"),
        "jdbc:postgresql://127.0.0.1:5432/i4j", "i4j", "pw", Duration.ofSeconds(30));
    Config c = ClusterConfig.overlay(s, false);
    assertEquals("cluster", c.getString("pekko.actor.provider"));
    assertEquals("tcp", c.getString("pekko.remote.artery.transport"));
    assertEquals(25520, c.getInt("pekko.remote.artery.canonical.port"));
    assertEquals(List.of("pekko://i4j@127.0.0.1:25520", "pekko://i4j@[::1]:25521"),
        c.getStringList("pekko.cluster.seed-nodes"));
    assertEquals("keep-majority", c.getString("pekko.cluster.split-brain-resolver.active-strategy"));
    assertEquals("org.apache.pekko.cluster.sbr.SplitBrainResolverProvider",
        c.getString("pekko.cluster.downing-provider-class"));
    assertEquals("jdbc-journal", c.getString("pekko.persistence.journal.plugin"));
    assertEquals("jdbc:postgresql://127.0.0.1:5432/i4j",
        c.getString("pekko-persistence-jdbc.shared-databases.i4j.db.url"));
    assertEquals("jackson-json",
        c.getConfig("pekko.actor.serialization-bindings").root().get("io.interpreter4j.cluster.ClusterMessage")
            .unwrapped());
    assertFalse(c.getBoolean("pekko.coordinated-shutdown.exit-jvm"));
  }
}
