package io.interpreter4j.batch.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.TaskStatus;
import io.interpreter4j.batch.progress.Progress;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the client reads back from the server: the URL it is given, progress and summaries as JSON. */
class BatchServerClientTest {

  @Test
  void aServerUrlMustBeHttpWithAHost() {
    assertEquals("http://127.0.0.1:8717", BatchServerClient.parseUrl(" http://127.0.0.1:8717 ").toString());
    for (String bad : new String[] {"127.0.0.1:8717", "ftp://host/", "http://", "not a url"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BatchServerClient.parseUrl(bad));
      assertTrue(e.getMessage().startsWith("--server: "), e.getMessage());
      assertTrue(e.getMessage().contains("http://127.0.0.1:8717"), "says what to give: " + e.getMessage());
    }
  }

  @Test
  void progressAndSummaryReadBackWhatTheServerWrote() throws Exception {
    Progress p = new Progress(10, 4, 2, 4, Map.of(TaskStatus.DONE, 3L, TaskStatus.TIMEOUT, 1L), 12.34, 5000, 20000);
    Progress back = Progress.fromJson(new ObjectMapper().readTree(p.toJson().toString()));
    assertEquals(p.toJson(), back.toJson());
    Progress unknownEta = new Progress(3, 0, 1, 2, Map.of(), 0, -1, 10);
    assertEquals(-1, Progress.fromJson(unknownEta.toJson()).etaMs());

    BatchSummary s = new BatchSummary(5, Map.of(TaskStatus.DONE, 3L, TaskStatus.GAVE_UP, 1L), 1, 2, 3856, 509, 3029,
        false, Path.of("/server/results.jsonl"), Path.of("/server/journal"));
    BatchSummary read = BatchSummary.fromJson(s.toJson(), Path.of("/client/out.jsonl"), null);
    assertEquals(s.counts(), read.counts());
    assertEquals(1, read.notRun());
    assertEquals(2, read.invalid());
    assertEquals(s.exitCode(), read.exitCode());
    assertEquals(Path.of("/client/out.jsonl"), read.results());
  }
}
