package io.interpreter4j.batch.journal;

import static io.interpreter4j.batch.journal.BatchJournalTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.TaskStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {

  @TempDir Path dir;

  private final TaskResult a = result("a", TaskStatus.DONE);
  private final TaskResult b = result("b", TaskStatus.TIMEOUT);
  private final TaskResult c = result("c", TaskStatus.GAVE_UP);

  private Path file() {
    return dir.resolve("results.jsonl");
  }

  private void write(String text) throws Exception {
    Files.writeString(file(), text);
  }

  private static String lines(TaskResult... results) {
    return List.of(results).stream().map(r -> r.toJsonLine() + "\n").collect(Collectors.joining());
  }

  private List<String> ids() throws Exception {
    return Files.readAllLines(file()).stream().map(l -> TaskResult.fromJsonLine(l).id()).toList();
  }

  @Test
  void appendedLinesAreWholeAndAFileThatMatchesTheJournalIsLeftAlone() throws Exception {
    try (ResultsFile out = ResultsFile.openForAppend(file())) {
      out.append(b);
      out.append(a);
    }
    ResultsFile.Reconciliation r = ResultsFile.reconcile(file(), List.of(a, b));
    assertFalse(r.rewritten(), r.problems().toString());
    assertEquals(List.of("b", "a"), ids(), "order does not matter, so the file is untouched");
  }

  @Test
  void aMissingFileIsCreatedFromTheJournal() throws Exception {
    ResultsFile.Reconciliation r = ResultsFile.reconcile(file(), List.of(a));
    assertTrue(r.rewritten());
    assertEquals(List.of("a"), ids());
  }

  @Test
  void aTornLastLineIsRepaired() throws Exception {
    write(lines(a) + b.toJsonLine().substring(0, 30));
    ResultsFile.Reconciliation r = ResultsFile.reconcile(file(), List.of(a, b));
    assertTrue(r.rewritten());
    assertTrue(r.problems().get(0).contains("torn"), r.problems().toString());
    assertEquals(List.of("a", "b"), ids());
  }

  @Test
  void duplicatesAreRemoved() throws Exception {
    write(lines(a, b, a, a));
    ResultsFile.Reconciliation r = ResultsFile.reconcile(file(), List.of(a, b));
    assertTrue(r.problems().contains("task a appears 3 times"), r.problems().toString());
    assertEquals(List.of("a", "b"), ids());
  }

  @Test
  void aLineTheJournalDoesNotHoldIsDroppedAndAMissingOneAdded() throws Exception {
    // c finished in the journal after the results line was lost; x is a result of a retried task.
    write(lines(a, result("x", TaskStatus.FAILED)));
    ResultsFile.Reconciliation r = ResultsFile.reconcile(file(), List.of(a, c));
    assertTrue(r.rewritten());
    assertEquals(List.of("a", "c"), ids());
  }

  @Test
  void aLineThatDiffersFromTheJournalIsReplaced() throws Exception {
    write(lines(a, result("b", TaskStatus.FAILED)));
    ResultsFile.reconcile(file(), List.of(a, b));
    assertEquals(b, TaskResult.fromJsonLine(Files.readAllLines(file()).get(1)));
  }

  @Test
  void garbageIsReplacedAndNoTemporaryFileIsLeft() throws Exception {
    write("not json\n");
    ResultsFile.reconcile(file(), List.of());
    assertEquals(0, Files.size(file()));
    try (var files = Files.list(dir)) {
      assertEquals(List.of(file()), files.toList());
    }
  }

  @Test
  void appendingAfterARepairGoesOnAtTheEnd() throws Exception {
    write(lines(a) + "{\"id\":");
    ResultsFile.reconcile(file(), List.of(a));
    try (ResultsFile out = ResultsFile.openForAppend(file())) {
      out.append(b);
    }
    assertEquals(List.of("a", "b"), ids());
  }
}
