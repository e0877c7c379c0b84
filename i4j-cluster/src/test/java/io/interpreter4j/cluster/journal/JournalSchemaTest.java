package io.interpreter4j.cluster.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.cluster.boot.ClusterSettings;
import io.interpreter4j.core.testing.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JournalSchemaTest {
  private static PostgresServer pg;

  @BeforeAll
  static void startPostgres() throws Exception {
    pg = PostgresServer.start("i4j_schema");
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  private static ClusterSettings settings(String url, String user) {
    return new ClusterSettings("127.0.0.1", 25520, List.of("127.0.0.1:25520"), url, user, "", Duration.ofSeconds(30));
  }

  @Test
  void severalNodesStartingAtOnceMakeTheSchemaOnceWithoutAnError() throws Exception {
    int nodes = 6;
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Void>> starts = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      starts.add(CompletableFuture.runAsync(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        JournalSchema.ensure(settings(pg.jdbcUrl(), pg.user()));
      }, CompletableFuture.delayedExecutor(0, TimeUnit.MILLISECONDS, r -> new Thread(r).start())));
    }
    go.countDown();
    CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    assertEquals("event_journal,event_tag,snapshot", pg.sql(
        "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'"));
    assertEquals("1", pg.sql("SELECT count(*) FROM pg_indexes WHERE indexname = 'event_journal_ordering_idx'"));
    JournalSchema.ensure(settings(pg.jdbcUrl(), pg.user())); // and again at the next start: nothing to do
  }

  @Test
  void anUnreachableJournalIsNamedWithWhatToCheck() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> JournalSchema.ensure(settings("jdbc:postgresql://127.0.0.1:1/i4j", "i4j")));
    assertTrue(e.getMessage().startsWith("cannot prepare the journal at jdbc:postgresql://127.0.0.1:1/i4j as i4j: "),
        e.getMessage());
    assertTrue(e.getMessage().contains("check --journal-url, --journal-user and I4J_JOURNAL_PASSWORD"),
        e.getMessage());
  }
}
