package io.interpreter4j.batch.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchJournalTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T13:00:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  static TaskResult result(String id, TaskStatus status) {
    return new TaskResult(id, status, "s-" + id, 2, 1, 0, 100, 5, 6, "answer " + id,
        status == TaskStatus.DONE ? null : "why " + id);
  }

  @Test
  void recordsAreReadBackAsState() throws IOException {
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      j.batchStarted(Path.of("/t.jsonl"), Path.of("/r.jsonl"), 3, 3, false);
      j.taskStarted("a", "fa", "s-a");
      j.taskStarted("b", "fb", "s-b");
      j.taskStarted("c", "fc", "s-c");
      j.taskFinished(result("b", TaskStatus.FAILED), "fb");
      j.taskFinished(result("a", TaskStatus.DONE), "fa");
      j.taskInterrupted("c");
    }
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      JournalState s = j.state();
      assertEquals(List.of("b", "a"), List.copyOf(s.finished().keySet()), "in the order they finished");
      assertEquals(result("b", TaskStatus.FAILED), s.finished().get("b").result());
      assertEquals("fa", s.finished().get("a").fingerprint());
      assertTrue(s.wasRunning("c"));
      assertFalse(s.wasRunning("a"));
      assertEquals(1, s.runs());
      assertTrue(s.warnings().isEmpty());
    }
  }

  @Test
  void aTornLastLineIsCutOffAndTheJournalGoesOnFromThere() throws IOException {
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      j.taskStarted("a", "fa", "s-a");
      j.taskFinished(result("a", TaskStatus.DONE), "fa");
      j.taskStarted("b", "fb", "s-b");
    }
    Path file = dir.resolve(BatchJournal.FILE_NAME);
    long good = Files.size(file);
    // Killed in the middle of writing b's completion:
    Files.writeString(file, "{\"type\":\"task_finished\",\"id\":\"b\",\"result\":{\"id\":\"b\",\"sta",
        StandardOpenOption.APPEND);
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      assertEquals(good, Files.size(file), "the torn bytes are gone");
      assertEquals(List.of("a"), List.copyOf(j.state().finished().keySet()));
      assertTrue(j.state().wasRunning("b"), "b was running: it runs again");
      assertTrue(j.state().warnings().get(0).contains("torn"), j.state().warnings().toString());
      j.taskFinished(result("b", TaskStatus.DONE), "fb");
    }
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      assertEquals(List.of("a", "b"), List.copyOf(j.state().finished().keySet()));
      assertTrue(j.state().warnings().isEmpty());
    }
  }

  @Test
  void aJournalThatIsOnlyATornLineIsEmpty() throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(BatchJournal.FILE_NAME), "{\"type\":\"task_sta");
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      assertTrue(j.state().finished().isEmpty());
      assertEquals(0, Files.size(j.file()));
    }
  }

  @Test
  void anUnreadableLineInTheMiddleIsSkippedWithAWarning() {
    JournalState s = JournalState.replay(List.of(
        "{\"type\":\"task_started\",\"id\":\"a\"}",
        "garbage",
        "{\"type\":\"task_finished\",\"id\":\"a\",\"fp\":\"f\",\"result\":" + result("a", TaskStatus.DONE).toJsonLine()
            + "}"));
    assertEquals(1, s.finished().size());
    assertEquals(1, s.warnings().size());
    assertTrue(s.warnings().get(0).startsWith("journal line 2"));
  }

  @Test
  void theLatestRecordAboutATaskDecides() {
    String finished = "{\"type\":\"task_finished\",\"id\":\"a\",\"fp\":\"f\",\"result\":"
        + result("a", TaskStatus.FAILED).toJsonLine() + "}";
    assertEquals(1, JournalState.replay(List.of(finished)).finished().size());
    JournalState requeued = JournalState.replay(List.of(finished, "{\"type\":\"task_requeued\",\"id\":\"a\"}"));
    assertTrue(requeued.finished().isEmpty());
    JournalState restarted = JournalState.replay(List.of(finished, "{\"type\":\"task_started\",\"id\":\"a\"}"));
    assertTrue(restarted.finished().isEmpty());
    assertTrue(restarted.wasRunning("a"));
    assertEquals(1, restarted.starts("a"));
  }

  @Test
  void completionsAreOnDiskAsWholeLines() throws IOException {
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      j.taskFinished(result("a", TaskStatus.DONE), "fa");
      String text = Files.readString(j.file(), StandardCharsets.UTF_8);
      assertTrue(text.endsWith("\n"));
      assertEquals(1, text.lines().count());
    }
  }

  @Test
  void aSecondWriterIsRefused() throws IOException {
    try (BatchJournal j = BatchJournal.open(dir, CLOCK)) {
      IOException e = assertThrows(IOException.class, () -> BatchJournal.open(dir, CLOCK));
      assertTrue(e.getMessage().contains("in use by another batch"), e.getMessage());
    }
    BatchJournal.open(dir, CLOCK).close();
  }
}
