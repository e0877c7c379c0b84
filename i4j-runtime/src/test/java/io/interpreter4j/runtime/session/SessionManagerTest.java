package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.supervision.Faults;
import io.interpreter4j.core.testing.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SessionManager: creates, finds and stops sessions, each its own supervised child. */
class SessionManagerTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static ActorTestKit testKit;

  @TempDir Path tmp;
  private SessionHarness harness;
  private Path work;
  private ActorRef<SessionManager.Command> manager;

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
    manager = testKit.spawn(SessionManager.create());
  }

  private record Started(SessionManager.Created created, LinkedBlockingQueue<Event> events) {
    EventPayload.TurnFinished awaitTurn() throws InterruptedException {
      while (true) {
        Event e = events.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertNotNull(e, "no turn_finished within " + WAIT);
        if (e.payload() instanceof EventPayload.TurnFinished t) {
          return t;
        }
      }
    }
  }

  private Started create(String id, String cassetteJson, Faults faults) {
    LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    SessionSpec spec = new SessionSpec(id, harness.settings(Map.of()), cassette(cassetteJson), Approver.NOBODY,
        SessionHarness.HOST, List.of(events::add)).withFaults(faults);
    TestProbe<SessionManager.Created> probe = testKit.createTestProbe();
    manager.tell(new SessionManager.Create(spec, probe.ref()));
    return new Started(probe.receiveMessage(WAIT), events);
  }

  private Optional<ActorRef<Session.Command>> find(String id) {
    TestProbe<Optional<ActorRef<Session.Command>>> probe = testKit.createTestProbe();
    manager.tell(new SessionManager.Find(id, probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  @Test
  void createsFindsAndStopsASessionWithItsProcesses() throws Exception {
    Started s = create("mgr-one", cassetteJson(turn(null, "```python\nx = 1\nprint(x)\n```"), turn(null, "ok")),
        Faults.NONE);
    assertNull(s.created().error());
    assertEquals(Optional.of(s.created().session()), find("mgr-one"));
    s.created().session().tell(new Session.UserMessage("go"));
    assertEquals("done", s.awaitTurn().status().wire());
    assertTrue(!Processes.workingIn(work).isEmpty(), "the python REPL is alive between turns");

    manager.tell(new SessionManager.StopSession("mgr-one"));
    testKit.createTestProbe().expectTerminated(s.created().session(), WAIT);
    TestProbe<Object> probe = testKit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      assertEquals(Optional.empty(), find("mgr-one"), "a stopped session is forgotten");
      assertEquals(List.of(), Processes.workingIn(work), "and its interpreter is gone");
      return null;
    });
  }

  @Test
  void refusesADuplicateOrInvalidId() {
    assertNull(create("mgr-dup", cassetteJson(turn(null, "hi")), Faults.NONE).created().error());
    SessionManager.Created again = create("mgr-dup", cassetteJson(turn(null, "hi")), Faults.NONE).created();
    assertNull(again.session());
    assertTrue(again.error().contains("already exists"), again.error());
    SessionManager.Created bad = create("../etc", cassetteJson(turn(null, "hi")), Faults.NONE).created();
    assertNull(bad.session());
    assertTrue(bad.error().contains("invalid session id"), bad.error());
  }

  @Test
  void aSessionWhoseActorCrashesKeepsItsConversationAndItsNeighbourIsUntouched() throws Exception {
    Started crashing = create("mgr-crash", cassetteJson(turn(null, "Thinking about it."),
        turn("second", "Still here.")), Faults.once(Faults.Point.SESSION_STREAMING));
    Started neighbour = create("mgr-calm", cassetteJson(turn(null, "Fine."), turn(null, "Fine again.")),
        Faults.NONE);
    crashing.created().session().tell(new Session.UserMessage("first"));
    neighbour.created().session().tell(new Session.UserMessage("hello"));
    EventPayload.TurnFinished failed = crashing.awaitTurn();
    assertEquals("failed", failed.status().wire());
    assertTrue(failed.reason().contains("the session crashed while streaming"), failed.reason());
    assertEquals("done", neighbour.awaitTurn().status().wire(), "a crash in one session never touches another");

    crashing.created().session().tell(new Session.UserMessage("second"));
    assertEquals("done", crashing.awaitTurn().status().wire());
    TestProbe<Session.History> history = testKit.createTestProbe();
    crashing.created().session().tell(new Session.GetHistory(history.ref()));
    String all = history.receiveMessage(WAIT).messages().toString();
    assertTrue(all.contains("first") && all.contains("second") && all.contains("Still here."),
        "the conversation is kept through the crash: " + all);
    assertEquals(Optional.of(crashing.created().session()), find("mgr-crash"));
  }
}
