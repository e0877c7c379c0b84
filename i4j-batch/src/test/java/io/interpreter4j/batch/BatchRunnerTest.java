package io.interpreter4j.batch;

import static io.interpreter4j.batch.BatchFixture.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.batch.journal.BatchJournal;
import io.interpreter4j.batch.journal.JournalState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Whole batches in this JVM: real sessions with the replay model and real bash and python processes. */
class BatchRunnerTest {

  @TempDir Path tmp;
  private BatchFixture fx;
  private ActorSystem<Void> system;

  @BeforeEach
  void setUp() throws Exception {
    fx = new BatchFixture(tmp);
    system = fx.system();
  }

  @AfterEach
  void tearDown() throws Exception {
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private BatchSummary run(BatchOptions options, List<BatchListener> listeners) throws Exception {
    BatchRunner runner = BatchRunner.start(options, BatchFixture.parse(options.tasksFile()), fx.context(system),
        listeners);
    return runner.await();
  }

  /** Counts started tasks and lets a test wait for the n-th. */
  static final class Starts implements BatchListener {
    final Set<String> started = ConcurrentHashMap.newKeySet();
    final CountDownLatch latch;

    Starts(int n) {
      latch = new CountDownLatch(n);
    }

    @Override
    public void onTaskStarted(TaskStarted s, io.interpreter4j.batch.progress.Progress p) {
      started.add(s.task().id());
      latch.countDown();
    }

    void await() throws InterruptedException {
      assertTrue(latch.await(60, TimeUnit.SECONDS), "tasks did not start; started: " + started);
    }
  }

  @Test
  @Timeout(180)
  void twoHundredTasksSixteenAtATimeEachEndOnceWithTheRightStatus() throws Exception {
    List<String> lines = new ArrayList<>();
    Map<String, String> expected = new LinkedHashMap<>();
    String[] kinds = {"ok", "ok", "ok", "talk", "heal", "ok", "fail", "ok", "talk", "offscript", "ok", "hang"};
    for (int i = 0; i < 192; i++) {
      String kind = kinds[i % kinds.length];
      String id = "t" + i;
      lines.add(kind.equals("hang") ? task(id, kind, "timeout_s", 1 + (i % 2)) : task(id, kind));
      expected.put(id, BatchFixture.KINDS.get(kind));
    }
    for (int i = 0; i < 5; i++) {
      lines.add("{\"id\": \"unknown-model-" + i + "\", \"prompt\": \"p\", \"model\": \"nope/none\"}");
      expected.put("unknown-model-" + i, "error");
    }
    for (int i = 0; i < 3; i++) {
      lines.add("{\"id\": \"crash-" + i + "\", \"prompt\": \"p\", \"model\": \"crash:now\", \"timeout_s\": 60}");
      expected.put("crash-" + i, "error");
    }
    Path tasks = fx.taskFile("tasks.jsonl", lines);
    Path out = tmp.resolve("results.jsonl");

    BatchSummary summary = run(fx.options(tasks, out, 16, true, false), List.of());

    Map<String, TaskResult> results = BatchFixture.results(out);
    assertEquals(expected, BatchFixture.statuses(results));
    assertEquals(200, summary.total());
    assertEquals(0, summary.notRun());
    assertEquals(expected.values().stream().filter("done"::equals).count(), summary.count(TaskStatus.DONE));
    assertEquals(1, summary.exitCode());
    TaskResult healed = results.get("t4");
    assertEquals(2, healed.blocks());
    assertEquals(1, healed.failedBlocks());
    assertEquals("The mean is 7.25.", healed.finalMessage());
    assertTrue(results.get("t11").error().startsWith("timed out after 2 s"), results.get("t11").error());
    assertTrue(results.get("unknown-model-0").error().contains("nope/none"), results.get("unknown-model-0").error());
    assertTrue(Files.isRegularFile(fx.data.resolve("sessions").resolve(results.get("t0").session())
        .resolve("events.jsonl")), "each task's session keeps its events");
    try (BatchJournal journal = BatchJournal.open(tmp.resolve("journal"), Clock.systemUTC())) {
      JournalState state = journal.state();
      assertEquals(200, state.finished().size());
      state.finished().forEach((id, f) -> assertEquals(results.get(id), f.result()));
    }
  }

  @Test
  @Timeout(60)
  void withoutYesBlocksAreBlockedAndAnswersWithoutCodeStillDone() throws Exception {
    Path tasks = fx.taskFile("tasks.jsonl", List.of(task("code", "ok"), task("words", "talk")));
    Path out = tmp.resolve("results.jsonl");
    BatchSummary summary = run(fx.options(tasks, out, 2, false, false), List.of());
    assertEquals(Map.of("code", "blocked", "words", "done"), BatchFixture.statuses(BatchFixture.results(out)));
    assertEquals(1, summary.exitCode());
  }

  @Test
  @Timeout(90)
  void stoppingInterruptsRunningTasksWhichRunAgainOnResume() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      lines.add(task("h" + i, "hang", "timeout_s", 2));
    }
    Path tasks = fx.taskFile("tasks.jsonl", lines);
    Path out = tmp.resolve("results.jsonl");
    Starts starts = new Starts(2);
    BatchRunner runner = BatchRunner.start(fx.options(tasks, out, 2, true, false), BatchFixture.parse(tasks),
        fx.context(system), List.of(starts));
    starts.await();
    runner.requestStop(false);
    BatchSummary stopped = runner.await();
    assertEquals(130, stopped.exitCode());
    assertEquals(4, stopped.notRun());
    assertEquals(Map.of(), BatchFixture.results(out), "interrupted tasks have no result");

    BatchSummary resumed = run(fx.options(tasks, out, 4, true, false), List.of());
    assertEquals(Map.of("h0", "timeout", "h1", "timeout", "h2", "timeout", "h3", "timeout"),
        BatchFixture.statuses(BatchFixture.results(out)));
    assertEquals(1, resumed.exitCode());
  }

  @Test
  @Timeout(90)
  void drainingLetsRunningTasksFinishAndStartsNoOther() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lines.add(task("s" + i, "sleepy"));
    }
    Path tasks = fx.taskFile("tasks.jsonl", lines);
    Path out = tmp.resolve("results.jsonl");
    Starts starts = new Starts(2);
    BatchRunner runner = BatchRunner.start(fx.options(tasks, out, 2, true, false), BatchFixture.parse(tasks),
        fx.context(system), List.of(starts));
    starts.await();
    runner.requestStop(true);
    BatchSummary summary = runner.await();
    Map<String, TaskResult> results = BatchFixture.results(out);
    assertEquals(starts.started, results.keySet(), "exactly the started tasks finished");
    results.values().forEach(r -> assertEquals(TaskStatus.DONE, r.status(), r.toString()));
    assertTrue(results.size() < 5, "the stop came before the last tasks started");
    assertEquals(5 - results.size(), summary.notRun());
    assertEquals(130, summary.exitCode());
  }

  @Test
  @Timeout(90)
  void aFinishedBatchRunsNothingAgainAndRetryFailedRunsTheOthers() throws Exception {
    Path tasks = fx.taskFile("tasks.jsonl", List.of(task("good", "talk"), task("flaky", "marker",
        "workdir", "work")));
    Path out = tmp.resolve("results.jsonl");
    BatchSummary first = run(fx.options(tasks, out, 2, true, false), List.of());
    assertEquals(Map.of("good", "done", "flaky", "failed"), BatchFixture.statuses(BatchFixture.results(out)));
    assertEquals(1, first.exitCode());
    String session = BatchFixture.results(out).get("good").session();

    BatchSummary again = run(fx.options(tasks, out, 2, true, false), List.of());
    assertEquals(Map.of("good", "done", "flaky", "failed"), BatchFixture.statuses(BatchFixture.results(out)));
    assertEquals(1, again.exitCode());

    BatchSummary retried = run(fx.options(tasks, out, 2, true, true), List.of());
    Map<String, TaskResult> results = BatchFixture.results(out);
    assertEquals(Map.of("good", "done", "flaky", "done"), BatchFixture.statuses(results));
    assertEquals(session, results.get("good").session(), "the done task did not run again");
    assertEquals(0, retried.exitCode());
  }
}
