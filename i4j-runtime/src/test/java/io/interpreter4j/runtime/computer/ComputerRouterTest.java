package io.interpreter4j.runtime.computer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The router with probes for targets: checks, routing, the gate it hands on, an event for every action. */
class ComputerRouterTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final ActionGate GATE = (kind, description) -> CompletableFuture.completedFuture(false);
  private static ActorTestKit testKit;

  @BeforeAll
  static void startKit() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stopKit() {
    testKit.shutdownTestKit();
  }

  /** A target that forwards what it gets to {@code probe}. */
  private static Supplier<Behavior<ComputerCommand>> forwardingTo(TestProbe<ComputerCommand> probe) {
    return () -> Behaviors.receive(ComputerCommand.class).onAnyMessage(m -> {
      probe.getRef().tell(m);
      return Behaviors.same();
    }).build();
  }

  @Test
  void routesMouseToTheDisplayAndBrowserToItsTargetAndPublishesEachAction() {
    TestProbe<ComputerCommand> display = testKit.createTestProbe();
    TestProbe<ComputerCommand> browser = testKit.createTestProbe();
    TestProbe<EventPayload> events = testKit.createTestProbe();
    ActorRef<ComputerRouter.Command> router = testKit.spawn(ComputerRouter.create(
        Map.of("display", forwardingTo(display), "browser", forwardingTo(browser)), GATE, events.getRef()::tell));
    TestProbe<ActionOutcome> replies = testKit.createTestProbe();

    router.tell(new ComputerRouter.BlockRunning(3));
    router.tell(new ComputerRouter.Act("mouse", "click", Map.of("x", 10, "y", 20), replies.getRef()));
    Perform click = (Perform) display.expectMessageClass(Perform.class, WAIT);
    assertEquals(new ComputerAction(3, "mouse", "click", Map.of("x", 10, "y", 20)), click.action());
    assertFalse(click.gate().allow("submit", "x").toCompletableFuture().join());
    click.replyTo().tell(ActionOutcome.done("left click at (10, 20)"));
    assertEquals("left click at (10, 20)", replies.expectMessageClass(ActionOutcome.class, WAIT).text());
    EventPayload.ComputerAction event = (EventPayload.ComputerAction) events.expectMessageClass(
        EventPayload.ComputerAction.class, WAIT);
    assertEquals(new EventPayload.ComputerAction(3, "mouse.click", 10, 20, null, null, null, true,
        "left click at (10, 20)"), event);

    router.tell(new ComputerRouter.Act("browser", "go", Map.of("url", "http://127.0.0.1/"), replies.getRef()));
    Perform go = (Perform) browser.expectMessageClass(Perform.class, WAIT);
    go.replyTo().tell(new ActionOutcome(true, "page loaded", java.util.Optional.empty(),
        java.util.Optional.of("http://127.0.0.1/")));
    replies.expectMessageClass(ActionOutcome.class, WAIT);
    assertEquals("http://127.0.0.1/",
        ((EventPayload.ComputerAction) events.expectMessageClass(EventPayload.ComputerAction.class, WAIT)).url());
  }

  @Test
  void anUnknownActionOrAMissingBrowserFailsWithTheReasonAndIsPublishedToo() {
    TestProbe<ComputerCommand> display = testKit.createTestProbe();
    TestProbe<EventPayload> events = testKit.createTestProbe();
    ActorRef<ComputerRouter.Command> router = testKit.spawn(ComputerRouter.create(
        Map.of("display", forwardingTo(display)), GATE, events.getRef()::tell));
    TestProbe<ActionOutcome> replies = testKit.createTestProbe();

    router.tell(new ComputerRouter.Act("mouse", "fly", Map.of(), replies.getRef()));
    ActionOutcome fly = replies.expectMessageClass(ActionOutcome.class, WAIT);
    assertFalse(fly.ok());
    assertTrue(fly.text().contains("computer.mouse has no action 'fly'"), fly.text());

    router.tell(new ComputerRouter.Act("browser", "go", Map.of("url", "https://example.org"), replies.getRef()));
    ActionOutcome go = replies.expectMessageClass(ActionOutcome.class, WAIT);
    assertEquals(ComputerRouter.NO_BROWSER, go.text());
    events.expectMessageClass(EventPayload.ComputerAction.class, WAIT);
    EventPayload.ComputerAction refused = (EventPayload.ComputerAction) events.expectMessageClass(
        EventPayload.ComputerAction.class, WAIT);
    assertEquals("browser.go", refused.action());
    assertFalse(refused.ok());
    display.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void anActionWhoseTargetStopsIsAnsweredAtOnceAndTheNextStartsItAgain() {
    TestProbe<ComputerCommand> seen = testKit.createTestProbe();
    Supplier<Behavior<ComputerCommand>> stopsOnFirst = () -> Behaviors.receive(ComputerCommand.class)
        .onAnyMessage(m -> {
          seen.getRef().tell(m);
          return Behaviors.stopped();
        }).build();
    TestProbe<EventPayload> events = testKit.createTestProbe();
    ActorRef<ComputerRouter.Command> router = testKit.spawn(ComputerRouter.create(
        Map.of("display", stopsOnFirst), GATE, events.getRef()::tell));
    TestProbe<ActionOutcome> replies = testKit.createTestProbe();

    router.tell(new ComputerRouter.Act("display", "view", Map.of(), replies.getRef()));
    seen.expectMessageClass(Perform.class, WAIT);
    ActionOutcome lost = replies.expectMessageClass(ActionOutcome.class, WAIT);
    assertFalse(lost.ok());
    assertTrue(lost.text().startsWith("the display stopped"), lost.text());

    router.tell(new ComputerRouter.Act("keyboard", "press", Map.of("keys", "enter"), replies.getRef()));
    assertEquals("keyboard", ((Perform) seen.expectMessageClass(Perform.class, WAIT)).action().target());
  }
}
