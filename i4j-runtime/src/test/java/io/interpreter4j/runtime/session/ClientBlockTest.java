package io.interpreter4j.runtime.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.runtime.approval.Approver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Session.RunCode}: a client's block through the approval gate into the session's interpreter, no model. */
class ClientBlockTest {
  private static final Duration TURN = Duration.ofSeconds(30);
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

  /** A model that would answer, were it called: the assertions show it is not. */
  private static final String NO_MODEL = "{\"turns\": [{\"reply\": \"never asked\"}]}";

  @Test
  void blocksRunInTheSessionsInterpreterWhichKeepsItsStateAndTheModelIsNotCalled() throws Exception {
    var s = harness.start(SessionHarness.cassette(NO_MODEL), Approver.NOBODY,
        Map.of("interpreter4j.approval.mode", "auto"));
    TestProbe<Session.TurnStart> started = testKit.createTestProbe();
    s.ref.tell(new Session.RunCode("python", "x = 41", started.ref()));
    assertTrue(started.receiveMessage(TURN).started());
    assertEquals("done", s.awaitTurn(TURN).status().wire());
    s.ref.tell(new Session.RunCode("python", "print(x + 1)\nraise SystemExit(3)", started.ref()));
    assertEquals("done", s.awaitTurn(TURN).status().wire());
    List<EventPayload.ExecFinished> runs = s.payloads(EventPayload.ExecFinished.class);
    assertEquals(3, runs.get(1).exit_code());
    assertTrue(s.payloads(EventPayload.Output.class).stream().anyMatch(o -> o.text().contains("42")));
    assertEquals(List.of(1, 2), s.payloads(EventPayload.CodeBlockEvent.class).stream()
        .map(EventPayload.CodeBlockEvent::block).toList());
    assertTrue(s.payloads(EventPayload.AssistantMessage.class).isEmpty(), "no model call");
  }

  @Test
  void highRiskCodeIsRefusedWithTheReasonAndNeverRuns() throws Exception {
    var s = harness.start(SessionHarness.cassette(NO_MODEL), Approver.NOBODY,
        Map.of("interpreter4j.approval.mode", "auto"));
    s.ref.tell(new Session.RunCode("bash", "rm -rf ~", null));
    EventPayload.TurnFinished t = s.awaitTurn(TURN);
    assertEquals("blocked", t.status().wire());
    EventPayload.Approval a = s.payloads(EventPayload.Approval.class).get(0);
    assertEquals("denied", a.decision().wire());
    assertTrue(t.reason().contains(a.reason()), t.reason());
    assertTrue(s.payloads(EventPayload.ExecStarted.class).isEmpty());
  }
}
