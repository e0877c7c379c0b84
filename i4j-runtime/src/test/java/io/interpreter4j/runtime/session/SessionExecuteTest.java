package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.runtime.approval.Approver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Session.Execute}: code run without the model, through the approval gate, answered exactly once. */
class SessionExecuteTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Map<String, Object> ASK = Map.of("interpreter4j.approval.mode", "ask");
  private static ActorTestKit testKit;

  @TempDir Path tmp;
  private SessionHarness harness;

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
    harness = new SessionHarness(testKit, tmp.resolve("data"), Files.createDirectories(tmp.resolve("work")));
  }

  @Test
  void interruptedWhileAwaitingApprovalItAnswersWithoutATurnAndTheNextOneRuns() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    Approver firstNeverAnswers = (session, block) -> asked.incrementAndGet() == 1 ? new CompletableFuture<>()
        : CompletableFuture.completedFuture(Approver.Answer.yes());
    var s = harness.start(cassette(cassetteJson(turn(null, "unused"))), firstNeverAnswers, ASK);
    TestProbe<Session.Executed> probe = testKit.createTestProbe();

    s.ref.tell(new Session.Execute("python", "print('first')", probe.getRef()));
    s.awaitType("approval_requested", WAIT);
    s.ref.tell(Session.Interrupt.INSTANCE);
    Session.Executed first = probe.expectMessageClass(Session.Executed.class, WAIT);
    assertEquals(1, first.block());
    assertNull(first.result());
    assertTrue(first.reason().contains("interrupted"), first.reason());

    s.ref.tell(new Session.Execute("python", "print('second')", probe.getRef()));
    Session.Executed second = probe.expectMessageClass(Session.Executed.class, WAIT);
    assertEquals(2, second.block());
    assertEquals(ApprovalDecision.APPROVED, second.decision().decision());
    assertEquals(0, second.result().exitCode());
    assertEquals("second\n", second.result().modelOutput());
    assertFalse(s.types().contains("turn_finished") || s.types().contains("user_message"), s.types());
  }

  @Test
  void whileAnExecutionRunsAMessageAndAnotherExecutionAreRefused() throws Exception {
    CompletableFuture<Approver.Answer> answer = new CompletableFuture<>();
    var s = harness.start(cassette(cassetteJson(turn(null, "unused"))), (session, block) -> answer, ASK);
    TestProbe<Session.Executed> probe = testKit.createTestProbe();
    TestProbe<Session.TurnStart> starts = testKit.createTestProbe();

    s.ref.tell(new Session.Execute("bash", "echo one", probe.getRef()));
    s.awaitType("approval_requested", WAIT);
    s.ref.tell(new Session.UserMessage("hello", starts.getRef()));
    assertEquals(Session.TurnStart.Outcome.BUSY, starts.expectMessageClass(Session.TurnStart.class, WAIT).outcome());
    s.ref.tell(new Session.Execute("bash", "echo two", probe.getRef()));
    Session.Executed refused = probe.expectMessageClass(Session.Executed.class, WAIT);
    assertEquals(0, refused.block());
    assertTrue(refused.reason().contains("still running"), refused.reason());

    answer.complete(Approver.Answer.no("not now"));
    Session.Executed denied = probe.expectMessageClass(Session.Executed.class, WAIT);
    assertEquals(1, denied.block());
    assertEquals(ApprovalDecision.DENIED, denied.decision().decision());
    assertEquals("not now", denied.reason());
  }
}
