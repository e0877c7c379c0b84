package io.interpreter4j.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.batch.cli.ReplayBatchEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One task's runner with a real session, the replay model and real processes; the batch job is a probe. */
class TaskRunnerTest {

  private static final Duration WITHIN = Duration.ofSeconds(30);
  private static ActorTestKit testKit;

  @TempDir Path tmp;
  private BatchFixture fx;

  @BeforeAll
  static void startKit() {
    testKit = ActorTestKit.create(ReplayBatchEnvironment.QUIET);
  }

  @AfterAll
  static void stopKit() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() throws Exception {
    fx = new BatchFixture(tmp);
  }

  private TaskEnvironment env(Function<String, io.interpreter4j.runtime.llm.ModelProvider> models) {
    return new TaskEnvironment(new TaskSettings(fx.config(), fx.env, true), models, BatchFixture.HOST,
        Duration.ofMinutes(30));
  }

  private BatchTask task(String kind, Duration timeout) {
    return new BatchTask("t-" + kind, 1, "do " + kind, null, null, timeout, null, tmp.resolve(kind + ".json"));
  }

  private ActorRef<TaskRunner.Command> start(BatchTask task, TestProbe<TaskRunner.Reply> probe) {
    return testKit.spawn(TaskRunner.create(task, "s-" + System.nanoTime(), env(BatchFixture::models),
        probe.getRef()));
  }

  @Test
  void aTaskRunsItsTurnAndReportsItsResult() {
    TestProbe<TaskRunner.Reply> probe = testKit.createTestProbe();
    ActorRef<TaskRunner.Command> runner = start(task("heal", null), probe);
    TaskRunner.Started started = probe.expectMessageClass(TaskRunner.Started.class, WITHIN);
    assertNotNull(started.session());
    TaskResult r = probe.expectMessageClass(TaskRunner.Finished.class, WITHIN).result();
    assertEquals(TaskStatus.DONE, r.status());
    assertEquals(started.sessionId(), r.session());
    assertEquals(3, r.iterations());
    assertEquals(2, r.blocks());
    assertEquals(1, r.failedBlocks());
    assertTrue(r.inputTokens() > 0, "tokens add up the usage events");
    probe.expectTerminated(runner, WITHIN);
  }

  @Test
  void aTaskPastItsLimitIsStoppedAsATimeoutWithItsSession() throws Exception {
    TestProbe<TaskRunner.Reply> probe = testKit.createTestProbe();
    ActorRef<TaskRunner.Command> runner = start(task("hang", Duration.ofMillis(1500)), probe);
    TaskRunner.Started started = probe.expectMessageClass(TaskRunner.Started.class, WITHIN);
    TaskResult r = probe.expectMessageClass(TaskRunner.Finished.class, WITHIN).result();
    assertEquals(TaskStatus.TIMEOUT, r.status());
    assertEquals("timed out after 1500 ms (timeout_s); its session and processes were stopped", r.error());
    probe.expectTerminated(started.session(), WITHIN);
    probe.expectTerminated(runner, WITHIN);
    String events = Files.readString(fx.data.resolve("sessions").resolve(started.sessionId()).resolve("events.jsonl"));
    assertTrue(events.contains("\"type\":\"turn_finished\",\"status\":\"interrupted\""), events);
  }

  @Test
  void anAbortedTaskHasNoResult() {
    TestProbe<TaskRunner.Reply> probe = testKit.createTestProbe();
    ActorRef<TaskRunner.Command> runner = start(task("hang", null), probe);
    TaskRunner.Started started = probe.expectMessageClass(TaskRunner.Started.class, WITHIN);
    runner.tell(TaskRunner.Abort.INSTANCE);
    assertEquals(new TaskRunner.Aborted("t-hang"), probe.expectMessageClass(TaskRunner.Aborted.class, WITHIN));
    probe.expectTerminated(started.session(), WITHIN);
  }

  @Test
  void aModelThatCannotBeMadeEndsTheTaskAsAnErrorWithoutASession() {
    TestProbe<TaskRunner.Reply> probe = testKit.createTestProbe();
    BatchTask task = new BatchTask("t", 1, "p", "nope/none", null, null, null, null);
    testKit.spawn(TaskRunner.create(task, "s-x", env(BatchFixture::models), probe.getRef()));
    assertNull(probe.expectMessageClass(TaskRunner.Started.class, WITHIN).session());
    TaskResult r = probe.expectMessageClass(TaskRunner.Finished.class, WITHIN).result();
    assertEquals(TaskStatus.ERROR, r.status());
    assertNull(r.session());
    assertTrue(r.error().startsWith("the session could not start: model nope/none is not available"), r.error());
  }

  @Test
  void aSessionThatCrashesAtStartEndsTheTaskAsAnError() {
    TestProbe<TaskRunner.Reply> probe = testKit.createTestProbe();
    BatchTask task = new BatchTask("t", 1, "p", "crash:now", null, null, null, null);
    testKit.spawn(TaskRunner.create(task, "s-y", env(BatchFixture::models), probe.getRef()));
    probe.expectMessageClass(TaskRunner.Started.class, WITHIN);
    TaskResult r = probe.expectMessageClass(TaskRunner.Finished.class, WITHIN).result();
    assertEquals(TaskStatus.ERROR, r.status());
    assertEquals("the session ended before its turn finished", r.error());
  }

  @Test
  void aSessionWhoseJournalCannotBeWrittenFailsTheTaskWithTheCause() throws Exception {
    Path devFull = Path.of("/dev/full");
    io.interpreter4j.core.testing.RequiredTool.assume(Files.isWritable(devFull), "/dev/full", "a Linux machine has it");
    String id = "s-full-" + System.nanoTime();
    Path journal = fx.data.resolve("sessions").resolve(id).resolve("events.jsonl");
    Files.createDirectories(journal.getParent());
    Files.createSymbolicLink(journal, devFull); // a device that is always full: every write fails with ENOSPC
    TestProbe<TaskRunner.Reply> probe = testKit.createTestProbe();
    ActorRef<TaskRunner.Command> runner = testKit.spawn(TaskRunner.create(task("heal", null), id,
        env(BatchFixture::models), probe.getRef()));
    probe.expectMessageClass(TaskRunner.Started.class, WITHIN);
    TaskResult r = probe.expectMessageClass(TaskRunner.Finished.class, WITHIN).result();
    assertEquals(TaskStatus.FAILED, r.status());
    assertTrue(r.error().contains("No space left on device") && r.error().contains(journal.toString()), r.error());
    probe.expectTerminated(runner, WITHIN);
  }
}
