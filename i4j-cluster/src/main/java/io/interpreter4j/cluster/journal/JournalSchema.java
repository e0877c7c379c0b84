package io.interpreter4j.cluster.journal;

import io.interpreter4j.cluster.boot.ClusterSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * Creates the journal's tables in PostgreSQL when they are missing, at every start of a cluster node. Several nodes
 * may start at once: each takes the same transaction-scoped advisory lock first, so one creates the tables while the
 * others wait, then find them there ({@code IF NOT EXISTS}), and nothing fails on a half-made schema.
 */
public final class JournalSchema {
  /** The advisory lock's key: any fixed number, the same on every node ("i4j" in ASCII). */
  static final long LOCK_KEY = 0x69346aL;
  private static final String SCRIPT = "schema.sql";

  private JournalSchema() {}

  /**
   * Connects with the settings' URL, user and password and creates what is missing. Blocks: call it before the
   * actor system starts, or off its threads.
   *
   * @throws IllegalStateException saying what failed (unreachable database, wrong password, no right to create)
   */
  public static void ensure(ClusterSettings settings) {
    try (Connection c = DriverManager.getConnection(settings.journalUrl(), settings.journalUser(),
        settings.journalPassword())) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
        for (String statement : statements()) {
          s.execute(statement);
        }
      }
      c.commit();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot prepare the journal at " + settings.journalUrl() + " as "
          + settings.journalUser() + ": " + e.getMessage() + " (check --journal-url, --journal-user and "
          + "I4J_JOURNAL_PASSWORD, and that the user may create tables)", e);
    }
  }

  /** The script's statements, comments left out. */
  static List<String> statements() {
    String script;
    try (InputStream in = JournalSchema.class.getResourceAsStream(SCRIPT)) {
      if (in == null) {
        throw new IllegalStateException("the journal schema " + SCRIPT + " is missing from the i4j-cluster jar");
      }
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the journal schema: " + e.getMessage(), e);
    }
    String withoutComments = script.lines().filter(l -> !l.strip().startsWith("--"))
        .reduce("", (a, b) -> a + b + "\n");
    return Arrays.stream(withoutComments.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }
}
