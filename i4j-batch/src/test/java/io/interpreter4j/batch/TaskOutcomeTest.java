package io.interpreter4j.batch;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.StreamName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.EventPayload;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TaskOutcomeTest {

  private static EventPayload.ExecFinished exec(int block, int exit, boolean timedOut) {
    return new EventPayload.ExecFinished(block, exit, timedOut, false, 10, false, "/tmp/out");
  }

  @Test
  void countsBlocksAndFailuresAndKeepsTheLastAnswer() {
    TaskOutcome o = new TaskOutcome();
    o.accept(new EventPayload.AssistantMessage("first"));
    o.accept(new EventPayload.Usage(4, 5));
    o.accept(new EventPayload.Usage(6, 7));
    o.accept(exec(1, 1, false));
    o.accept(exec(2, 124, true));
    o.accept(exec(3, 0, false));
    o.accept(new EventPayload.AssistantMessage("the end"));
    o.accept(new EventPayload.TurnFinished(TurnStatus.DONE, 4, null));
    TaskResult r = o.result("t", "s", null, 99);
    assertEquals(TaskStatus.DONE, r.status());
    assertEquals(3, r.blocks());
    assertEquals(2, r.failedBlocks());
    assertEquals(4, r.iterations());
    assertEquals("the end", r.finalMessage());
    assertNull(r.error());
    assertEquals(10, r.inputTokens());
    assertEquals(12, r.outputTokens());
  }

  @Test
  void turnStatusesMapToTaskStatusesWithTheReasonAsError() {
    for (String[] c : new String[][] {{"failed", "FAILED"}, {"gave_up", "GAVE_UP"}, {"blocked", "BLOCKED"},
        {"interrupted", "ERROR"}}) {
      TaskOutcome o = new TaskOutcome();
      o.accept(new EventPayload.TurnFinished(io.interpreter4j.core.event.TurnStatus.fromWire(c[0]), 1, "because"));
      TaskResult r = o.result("t", "s", null, 1);
      assertEquals(TaskStatus.valueOf(c[1]), r.status(), c[0]);
      assertTrue(r.error().contains("because"), r.error());
    }
  }

  @Test
  void aTimeoutWinsOverTheInterruptedTurnItCaused() {
    TaskOutcome o = new TaskOutcome();
    o.accept(new EventPayload.TurnFinished(TurnStatus.INTERRUPTED, 2, "the session was stopped"));
    TaskResult r = o.result("t", "s", Duration.ofSeconds(2), 2100);
    assertEquals(TaskStatus.TIMEOUT, r.status());
    assertEquals("timed out after 2 s (timeout_s); its session and processes were stopped", r.error());
  }

  @Test
  void aSessionThatEndsWithoutATurnIsAnErrorWithTheLastErrorEvent() {
    TaskOutcome o = new TaskOutcome();
    o.accept(new EventPayload.Error("cannot create the session folder"));
    assertFalse(o.turnFinished());
    TaskResult r = o.result("t", "s", null, 5);
    assertEquals(TaskStatus.ERROR, r.status());
    assertTrue(r.error().endsWith("cannot create the session folder"), r.error());
  }

  @Test
  void onlyTheEventsThatMakeAResultAreHandedOver() {
    assertTrue(TaskOutcome.relevant(new EventPayload.TurnFinished(TurnStatus.DONE, 1, null)));
    assertFalse(TaskOutcome.relevant(new EventPayload.AssistantDelta("x")));
    assertFalse(TaskOutcome.relevant(new EventPayload.Output(1, StreamName.STDOUT, "x")));
  }

  @Test
  void aLongFinalMessageIsCutOnceAndSurvivesARoundTrip() {
    String longText = "x".repeat(TaskResult.MAX_MESSAGE + 5);
    TaskResult r = new TaskResult("t", TaskStatus.DONE, "s", 1, 0, 0, 1, 0, 0, TaskResult.cut(longText), null);
    assertTrue(r.finalMessage().length() < longText.length() + 100);
    assertEquals(r, TaskResult.fromJsonLine(r.toJsonLine()));
    assertEquals(r.toJsonLine(), TaskResult.fromJsonLine(r.toJsonLine()).toJsonLine());
  }
}
