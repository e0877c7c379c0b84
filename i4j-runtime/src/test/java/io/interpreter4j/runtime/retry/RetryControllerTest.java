package io.interpreter4j.runtime.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class RetryControllerTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final Duration WAIT = Duration.ofSeconds(5);

  @AfterAll
  static void shutdown() {
    KIT.shutdownTestKit();
  }

  @Test
  void aBlockWithACallAfterItCountsTheCallInTheSameVerdict() {
    ActorRef<RetryController.Command> retry = KIT.spawn(RetryController.create(3, 5));
    TestProbe<RetryController.Verdict> probe = KIT.createTestProbe();
    retry.tell(new RetryController.BeforeModelCall(probe.ref()));
    probe.expectMessage(WAIT, new RetryController.Verdict(Optional.empty(), 1));
    retry.tell(new RetryController.BlockFinished("print(1)", false, "1", true, probe.ref()));
    assertEquals(2, probe.receiveMessage(WAIT).iterations());
    retry.tell(new RetryController.BlockFinished("print(2)", false, "2", false, probe.ref()));
    RetryController.Verdict blockOnly = probe.receiveMessage(WAIT);
    assertTrue(blockOnly.goOn());
    assertEquals(2, blockOnly.iterations(), "a block with more blocks after it counts no call");
  }

  @Test
  void theCallAfterABlockIsRefusedPastMaxIterations() {
    ActorRef<RetryController.Command> retry = KIT.spawn(RetryController.create(1, 5));
    TestProbe<RetryController.Verdict> probe = KIT.createTestProbe();
    retry.tell(new RetryController.BeforeModelCall(probe.ref()));
    assertTrue(probe.receiveMessage(WAIT).goOn());
    retry.tell(new RetryController.BlockFinished("print(1)", false, "1", true, probe.ref()));
    RetryController.Verdict verdict = probe.receiveMessage(WAIT);
    assertEquals(Optional.of("reached max-iterations: 1 model calls for this message"), verdict.stopReason());
    assertEquals(1, verdict.iterations());
  }

  @Test
  void aFailureThatEndsTheTurnIsReportedBeforeTheCallIsCounted() {
    ActorRef<RetryController.Command> retry = KIT.spawn(RetryController.create(10, 1));
    TestProbe<RetryController.Verdict> probe = KIT.createTestProbe();
    retry.tell(new RetryController.BeforeModelCall(probe.ref()));
    assertTrue(probe.receiveMessage(WAIT).goOn());
    retry.tell(new RetryController.BlockFinished("boom()", true, "NameError", true, probe.ref()));
    RetryController.Verdict verdict = probe.receiveMessage(WAIT);
    assertTrue(verdict.stopReason().isPresent());
    assertEquals(1, verdict.iterations(), "no call was counted for a turn that gives up");
  }
}
