package io.interpreter4j.batch;

import static io.interpreter4j.batch.BatchFixture.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.interpreter4j.batch.cli.BatchCommand;
import io.interpreter4j.batch.cli.ReplayBatchEnvironment;
import io.interpreter4j.batch.journal.BatchJournal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The batch process itself dies: {@link BatchMain} runs in a child JVM, is killed (SIGKILL at a random point, or
 * SIGTERM), and the same command run again finishes the batch with every task exactly once.
 */
class BatchKillResumeTest {

  @TempDir Path tmp;
  private BatchFixture fx;
  private Process child;
  private final List<ProcessHandle> leftovers = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    fx = new BatchFixture(tmp);
  }

  @AfterEach
  void killEverythingTheChildStarted() {
    if (child != null) {
      leftovers.addAll(child.descendants().toList());
      child.destroyForcibly();
    }
    leftovers.forEach(ProcessHandle::destroyForcibly);
  }

  private Process startChild(Path tasks, Path out, Path journal, String... more) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
        "-cp", System.getProperty("java.class.path"),
        BatchMain.class.getName(),
        tasks.toString(), "-y", "--out", out.toString(), "--journal", journal.toString(),
        "--workdir", fx.work.toString()));
    command.addAll(List.of(more));
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectOutput(tmp.resolve("child.out").toFile())
        .redirectError(tmp.resolve("child.err").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().putAll(fx.env);
    child = pb.start();
    return child;
  }

  private String childLog() throws IOException {
    return Files.readString(tmp.resolve("child.err"));
  }

  /** Waits (on the child process, so it returns early if it exits) until the journal has n records of a type. */
  private void awaitJournal(Path journal, String type, int n) throws Exception {
    Path file = journal.resolve(BatchJournal.FILE_NAME);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (count(file, type) < n) {
      if (child.waitFor(50, TimeUnit.MILLISECONDS)) {
        fail("the batch ended (exit " + child.exitValue() + ") before " + n + " " + type + " records:\n" + childLog());
      }
      if (System.nanoTime() > deadline) {
        fail("no " + n + " " + type + " records within 90 s:\n" + childLog());
      }
    }
  }

  private static long count(Path journalFile, String type) throws IOException {
    if (!Files.exists(journalFile)) {
      return 0;
    }
    String needle = "\"type\":\"" + type + "\"";
    return Files.readString(journalFile).lines().filter(l -> l.contains(needle)).count();
  }

  private static void awaitGone(List<ProcessHandle> processes) throws Exception {
    for (ProcessHandle p : processes) {
      p.onExit().get(20, TimeUnit.SECONDS);
      assertFalse(p.isAlive(), "process " + p.pid() + " lingers");
    }
  }

  @Test
  @Timeout(200)
  void killedWithSigkillAtARandomPointAndResumedEveryTaskEndsOnceWithItsStatus() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String[] kinds = {"ok", "talk", "heal", "ok", "fail", "hang", "ok", "offscript", "talk"};
    List<String> lines = new ArrayList<>();
    Map<String, String> expected = new LinkedHashMap<>();
    for (int i = 0; i < 45; i++) {
      String kind = kinds[i % kinds.length];
      lines.add(kind.equals("hang") ? task("k" + i, kind, "timeout_s", 1) : task("k" + i, kind));
      expected.put("k" + i, BatchFixture.KINDS.get(kind));
    }
    Path tasks = fx.taskFile("tasks.jsonl", lines);
    Path out = tmp.resolve("results.jsonl");
    Path journal = tmp.resolve("journal");
    int killAfter = 2 + random.nextInt(30);
    System.out.println("kill test: seed " + seed + ", killing after " + killAfter + " finished tasks");

    startChild(tasks, out, journal, "--parallel", "4");
    awaitJournal(journal, "task_finished", killAfter);
    // Freeze it so it starts nothing more, note everything it started, then SIGKILL it all.
    new ProcessBuilder("kill", "-STOP", Long.toString(child.pid())).start().waitFor(10, TimeUnit.SECONDS);
    List<ProcessHandle> started = child.descendants().toList();
    leftovers.addAll(started);
    child.destroyForcibly();
    assertTrue(child.waitFor(20, TimeUnit.SECONDS));
    started.forEach(ProcessHandle::destroyForcibly);
    awaitGone(started);
    long finishedBeforeKill = count(journal.resolve(BatchJournal.FILE_NAME), "task_finished");
    assertTrue(finishedBeforeKill < lines.size(), "killed before the end");

    // As if the kill had also torn the last lines (the journal writes before the results file):
    Files.writeString(journal.resolve(BatchJournal.FILE_NAME), "{\"type\":\"task_finished\",\"id\":\"k",
        StandardOpenOption.APPEND);
    List<String> resultLines = Files.readAllLines(out);
    Files.writeString(out, resultLines.get(0) + "\n" + "{\"id\":\"k9", StandardOpenOption.APPEND);

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream summaryOut = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    int code = new CommandLine(new BatchCommand(new ReplayBatchEnvironment(fx.env, summaryOut,
        new PrintStream(err, true, StandardCharsets.UTF_8), false)))
        .execute(tasks.toString(), "-y", "--out", out.toString(), "--journal", journal.toString(),
            "--workdir", fx.work.toString(), "--parallel", "4");
    String log = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, code, log);
    assertTrue(log.contains("torn"), log);
    assertTrue(log.contains(finishedBeforeKill + " already finished"), log);

    Map<String, TaskResult> results = BatchFixture.results(out);
    assertEquals(expected, BatchFixture.statuses(results), "seed " + seed);
    assertEquals(expected.keySet(), results.keySet());
  }

  @Test
  @Timeout(120)
  void sigtermInterruptsRunningTasksRecordsThemAndExits130() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      lines.add(task("h" + i, "hang", "timeout_s", 120));
    }
    Path tasks = fx.taskFile("tasks.jsonl", lines);
    Path out = tmp.resolve("results.jsonl");
    Path journal = tmp.resolve("journal");
    startChild(tasks, out, journal, "--parallel", "3");
    awaitJournal(journal, "task_started", 3);
    awaitSleeping(3);
    List<ProcessHandle> started = child.descendants().toList();
    leftovers.addAll(started);

    child.destroy();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the batch stops on SIGTERM");
    assertEquals(130, child.exitValue(), childLog());
    awaitGone(started);
    assertEquals(3, count(journal.resolve(BatchJournal.FILE_NAME), "task_interrupted"));
    assertEquals("", Files.readString(out), "interrupted tasks have no result");
    String summary = Files.readString(tmp.resolve("child.out"));
    assertTrue(summary.contains("Batch stopped: 6 tasks") && summary.contains("not run 6"), summary);
  }

  /** Waits until n of the child's descendants run the hanging blocks' {@code sleep 1000}. */
  private void awaitSleeping(int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (child.descendants().filter(p -> p.info().commandLine().orElse("").contains("sleep 1000")).count() < n) {
      if (child.waitFor(50, TimeUnit.MILLISECONDS) || System.nanoTime() > deadline) {
        fail("the hanging blocks did not start:\n" + childLog());
      }
    }
  }
}
