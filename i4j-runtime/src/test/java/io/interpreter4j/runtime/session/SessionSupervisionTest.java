package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.supervision.Faults;
import io.interpreter4j.runtime.supervision.Faults.Point;
import io.interpreter4j.core.testing.FullDisk;
import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.core.testing.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every actor of a session made to crash at each step of a turn (test-only {@link Faults}), with real python
 * processes: no process is left behind, the turn ends with a clear status naming what crashed (or goes on when
 * only a REPL worker crashed), and the next message works.
 */
class SessionSupervisionTest {
  /** The block timeout of these sessions; a crashed turn must end within it and its grace. */
  private static final Duration BLOCK_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration TURN = BLOCK_TIMEOUT.plusSeconds(10);
  private static ActorTestKit testKit;

  @TempDir Path tmp;
  private SessionHarness harness;
  private Path work;
  private String marker;

  @BeforeAll
  static void startKit() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stopKit() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() throws Exception {
    work = Files.createDirectories(tmp.resolve("work"));
    harness = new SessionHarness(testKit, tmp.resolve("data"), work);
    // a child process of the crashing block, found afterwards by this argument
    marker = "8" + ThreadLocalRandom.current().nextInt(10_000_000, 99_999_999);
  }

  /** A block that starts a child process, prints, and takes two seconds. */
  private String blockWithChild() {
    return "Running it.\n\n```python\nimport subprocess, time\nsubprocess.Popen(['sleep', '" + marker + "'])\n"
        + "print('started', flush=True)\ntime.sleep(2)\nprint('finished', flush=True)\n```\n";
  }

  /** point; model calls made before the crash; what the turn ends with; the reason's words. */
  static Stream<Arguments> crashPoints() {
    return Stream.of(
        Arguments.of(Point.SESSION_STREAMING, 1, "failed", "the session crashed while streaming"),
        Arguments.of(Point.SESSION_AWAITING_APPROVAL, 1, "failed", "the session crashed while awaiting approval"),
        Arguments.of(Point.SESSION_EXECUTING, 1, "failed", "the session crashed while running a block"),
        Arguments.of(Point.STREAMER_STREAMING, 1, "failed", "the LLM streamer crashed"),
        Arguments.of(Point.GATE_REVIEW, 1, "failed", "the approval gate crashed"),
        Arguments.of(Point.GATE_ANSWER, 1, "failed", "the approval gate crashed"),
        Arguments.of(Point.RETRY_BEFORE_CALL, 0, "failed", "the retry controller crashed"),
        Arguments.of(Point.RETRY_BLOCK_FINISHED, 1, "failed", "the retry controller crashed"),
        Arguments.of(Point.WORKER_EXECUTE, 2, "done", null),
        Arguments.of(Point.WORKER_EXECUTING, 2, "done", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("crashPoints")
  void aCrashEndsTheTurnCleanlyAndTheNextMessageWorks(Point point, int callsBeforeCrash, String status,
                                                      String reason) throws Exception {
    List<String> replies = new ArrayList<>();
    if (callsBeforeCrash >= 1) {
      replies.add(turn(null, blockWithChild()));
    }
    if (callsBeforeCrash >= 2) {
      replies.add(turn("Block 1 \\(python\\)", "It ran."));
    }
    replies.add(turn("again", "```python\nprint(6 * 7)\n```"));
    replies.add(turn("42", "It is 42."));
    boolean asks = point == Point.GATE_ANSWER;
    Approver yes = (s, b) -> CompletableFuture.completedFuture(Approver.Answer.yes());
    var s = harness.start(SessionIds.next(), cassette(cassetteJson(replies.toArray(String[]::new))),
        asks ? yes : Approver.NOBODY,
        Map.of("interpreter4j.execution.timeout", BLOCK_TIMEOUT.toSeconds() + "s",
            "interpreter4j.approval.mode", asks ? "ask" : "auto"),
        Faults.once(point));

    EventPayload.TurnFinished crashed = s.turn("run the block", TURN);
    assertEquals(status, crashed.status().wire(), "events: " + s.types());
    if (reason != null) {
      assertTrue(crashed.reason().contains(reason), crashed.reason());
      assertTrue(s.payloads(EventPayload.Error.class).stream().anyMatch(e -> e.message().contains(reason)),
          "an error event names what crashed: " + s.types());
    } else {
      EventPayload.ExecFinished fin = s.payloads(EventPayload.ExecFinished.class).get(0);
      assertNotEquals(0, fin.exit_code(), "the crashed block does not pass for a success");
    }
    TestProbe<Object> probe = testKit.createTestProbe();
    if (point == Point.SESSION_EXECUTING || point == Point.WORKER_EXECUTING) { // the block was cut short
      probe.awaitAssert(Duration.ofSeconds(10), () -> {
        assertEquals(List.of(), Processes.withArgument(marker), "the crashed block's child process is gone");
        return null;
      });
    }

    EventPayload.TurnFinished next = s.turn("again", TURN);
    assertEquals("done", next.status().wire(), "the next message works: " + s.types());
    assertTrue(s.output().contains("42"), s.output());

    s.ref.tell(Session.Stop.INSTANCE);
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      assertEquals(List.of(), Processes.workingIn(work), "no interpreter is left after the session stops");
      assertEquals(List.of(), Processes.withArgument(marker), "nor a child of a block");
      return null;
    });
  }

  @Test
  void aChildThatKeepsCrashingIsStoppedAndTheSessionSaysSo() throws Exception {
    String[] replies = new String[Session.RESTARTS + 1];
    java.util.Arrays.fill(replies, turn(null, "Working on it."));
    var s = harness.start(SessionIds.next(), cassette(cassetteJson(replies)), Approver.NOBODY, Map.of(),
        Faults.always(Point.STREAMER_STREAMING));
    for (int i = 0; i <= Session.RESTARTS; i++) {
      assertEquals("failed", s.turn("try " + i, TURN).status().wire());
    }
    s.awaitType("error", TURN); // the streamer crash itself
    TestProbe<Object> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      assertTrue(s.payloads(EventPayload.Error.class).stream().anyMatch(e -> e.message().contains(
          "takes no more turns: its LLM streamer crashed " + (Session.RESTARTS + 1) + " times")), s.types());
      return null;
    });
    TestProbe<Session.TurnStart> answer = testKit.createTestProbe();
    s.ref.tell(new Session.UserMessage("once more", answer.ref()));
    Session.TurnStart refused = answer.receiveMessage(Duration.ofSeconds(5));
    assertEquals(Session.TurnStart.Outcome.FAILED, refused.outcome());
    assertTrue(refused.reason().contains("LLM streamer"), refused.reason());
    TestProbe<Session.Status> status = testKit.createTestProbe();
    s.ref.tell(new Session.GetStatus(status.ref()));
    assertEquals(SessionStatus.FAILED, status.receiveMessage(Duration.ofSeconds(5)).status());
  }

  @Test
  void theSessionAloneDecidesWhetherATurnMayStart() throws Exception {
    var s = harness.start(SessionIds.next(), cassette(cassetteJson(turn(null, "```bash\nsleep 1\n```"),
        turn(null, "ok"))), Approver.NOBODY, Map.of(), Faults.NONE);
    TestProbe<Session.TurnStart> answers = testKit.createTestProbe();
    s.ref.tell(new Session.UserMessage("first", answers.ref()));
    s.ref.tell(new Session.UserMessage("second", answers.ref()));
    s.ref.tell(new Session.UserMessage(" ", answers.ref()));
    assertEquals(Session.TurnStart.Outcome.STARTED, answers.receiveMessage(Duration.ofSeconds(5)).outcome());
    assertEquals(Session.TurnStart.Outcome.BUSY, answers.receiveMessage(Duration.ofSeconds(5)).outcome());
    assertEquals(Session.TurnStart.Outcome.BUSY, answers.receiveMessage(Duration.ofSeconds(5)).outcome());
    assertEquals("done", s.awaitTurn(TURN).status().wire());
    s.ref.tell(new Session.UserMessage("", answers.ref()));
    assertEquals(Session.TurnStart.Outcome.EMPTY, answers.receiveMessage(Duration.ofSeconds(5)).outcome());
  }

  @Test
  void aJournalOnAFullDeviceEndsTheSessionsTurnsLoudly() throws Exception {
    Path devFull = Path.of("/dev/full");
    RequiredTool.assume(Files.isWritable(devFull), "/dev/full", "a Linux machine has it");
    String id = SessionIds.next();
    Path journal = harness.dataDir.resolve("sessions").resolve(id).resolve("events.jsonl");
    Files.createDirectories(journal.getParent());
    Files.createSymbolicLink(journal, devFull); // every write fails with ENOSPC
    var s = harness.start(id, cassette(cassetteJson(turn(null, "hello"))), Approver.NOBODY, Map.of(), Faults.NONE);
    EventPayload.Error error = (EventPayload.Error) s.awaitType("error", TURN).payload();
    assertTrue(error.message().contains("No space left on device"), error.message());
    assertTrue(error.message().contains(journal.toString()), "names the journal: " + error.message());
    TestProbe<Session.TurnStart> answer = testKit.createTestProbe();
    s.ref.tell(new Session.UserMessage("hello?", answer.ref()));
    Session.TurnStart refused = answer.receiveMessage(Duration.ofSeconds(5));
    assertEquals(Session.TurnStart.Outcome.FAILED, refused.outcome());
    assertTrue(refused.reason().contains("No space left on device"), refused.reason());
    assertFalse(s.types().contains("user_message"), "no turn ran: " + s.types());
  }

  @Test
  void aJournalOnAFilesystemThatFillsUpMidTurnFailsTheTurnLoudly() throws Exception {
    try (FullDisk disk = FullDisk.mount(tmp.resolve("small"), "1m")) {
      SessionHarness onDisk = new SessionHarness(testKit, disk.path().resolve("data"), work);
      var s = onDisk.start(SessionIds.next(), cassette(cassetteJson(turn(null, "Hello."),
              turn(null, "```python\nfor i in range(2000):\n    print('line', i, 'x' * 40)\n```"),
              turn(null, "Done."))),
          Approver.NOBODY, Map.of(), Faults.NONE);
      assertEquals("done", s.turn("hi", TURN).status().wire());
      disk.fill();
      EventPayload.TurnFinished failed = s.turn("print a lot", TURN);
      assertEquals("failed", failed.status().wire(), s.types());
      assertTrue(failed.reason().contains("No space left on device"), failed.reason());
      Path journal = disk.path().resolve("data/sessions").resolve(s.id).resolve("events.jsonl");
      assertTrue(s.payloads(EventPayload.Error.class).stream().anyMatch(e -> e.message().contains(journal.toString())
          && e.message().contains("No space left on device")), "an error event names the journal and the cause");
      TestProbe<Session.TurnStart> answer = testKit.createTestProbe();
      s.ref.tell(new Session.UserMessage("more?", answer.ref()));
      assertEquals(Session.TurnStart.Outcome.FAILED, answer.receiveMessage(Duration.ofSeconds(5)).outcome());
      TestProbe<Session.Status> status = testKit.createTestProbe();
      s.ref.tell(new Session.GetStatus(status.ref()));
      Session.Status now = status.receiveMessage(Duration.ofSeconds(5));
      assertEquals(SessionStatus.FAILED, now.status());
      assertTrue(now.failure().contains("No space left on device"), now.failure());
      s.ref.tell(Session.Stop.INSTANCE);
      testKit.createTestProbe().expectTerminated(s.ref, Duration.ofSeconds(10));
    }
  }
}
