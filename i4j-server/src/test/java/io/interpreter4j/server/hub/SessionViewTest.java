package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.event.ApprovalDecision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The view follows a session's events: status, pending approval, running block, counters. */
class SessionViewTest {
  private final SessionView view = new SessionView("s1", Instant.EPOCH);
  private long seq;

  private void apply(EventPayload payload) {
    view.apply(new Event("s1", ++seq, Instant.ofEpochSecond(seq), payload));
  }

  @Test
  void followsATurnWithAnApprovalAndABlock() {
    apply(new EventPayload.SessionStarted("replay:x", "/tmp"));
    assertEquals("idle", view.status());
    apply(new EventPayload.UserMessage("List files\nand more"));
    assertEquals("streaming", view.status());
    apply(new EventPayload.AssistantDelta("```bash\nls\n```"));
    apply(new EventPayload.CodeBlockEvent(1, "bash", "ls", false));
    apply(new EventPayload.AssistantMessage("```bash\nls\n```"));
    apply(new EventPayload.ApprovalRequested(1, "bash", "ls", "low", java.util.List.of()));
    assertEquals("awaiting_approval", view.status());
    assertEquals(1, view.pendingApproval().block());
    assertEquals(1, view.lastBlock());
    assertNull(view.decision(1));

    apply(new EventPayload.Approval(1, ApprovalDecision.APPROVED, DecidedBy.USER, null));
    assertNull(view.pendingApproval());
    assertEquals("approved by user", view.decision(1));
    apply(new EventPayload.ExecStarted(1, "bash"));
    assertEquals("executing", view.status());
    assertEquals("bash", view.runningLanguage());
    apply(new EventPayload.Output(1, StreamName.STDOUT, "a\n"));
    apply(new EventPayload.ExecFinished(1, 0, false, false, 3, false, "/data/out-1.txt"));
    assertNull(view.runningLanguage());
    assertEquals("/data/out-1.txt", view.outputFile(1));
    apply(new EventPayload.AssistantMessage("Done."));
    apply(new EventPayload.Usage(6, 3));
    apply(new EventPayload.Usage(4, 2));
    apply(new EventPayload.TurnFinished(TurnStatus.DONE, 2, null));

    ObjectNode json = view.toJson();
    assertEquals("done", json.path("status").asText());
    assertEquals("List files", json.path("title").asText());
    assertEquals("replay:x", json.path("model").asText());
    assertEquals(2, json.path("iterations").asInt());
    assertEquals(10, json.path("inputTokens").asLong());
    assertEquals(5, json.path("outputTokens").asLong());
    assertTrue(json.path("pendingApproval").isNull());
    assertTrue(json.path("runningBlock").isNull());
    assertEquals(Instant.ofEpochSecond(seq).toString(), json.path("lastActivity").asText());
    assertEquals(Instant.ofEpochSecond(1).toString(), json.path("started").asText());
  }

  @Test
  void imagesAreNumberedFromOneInTheOrderShown() {
    EventPayload.Image first = new EventPayload.Image(1, "image/png", "/d/sessions/s/outputs/block-1-1.png", 4, 3,
        io.interpreter4j.core.image.ImageSource.DISPLAY);
    EventPayload.Image second = new EventPayload.Image(2, "image/jpeg", "/d/sessions/s/outputs/block-2-1.jpg", 8, 6,
        io.interpreter4j.core.image.ImageSource.MATPLOTLIB);
    apply(first);
    apply(second);
    assertEquals(first, view.image(1));
    assertEquals(second, view.image(2));
    assertNull(view.image(0));
    assertNull(view.image(3));
  }

  @Test
  void aStoppedSessionShowsItsLastStatus() {
    apply(new EventPayload.SessionStarted("m", "/"));
    apply(new EventPayload.UserMessage("hi"));
    apply(new EventPayload.TurnFinished(TurnStatus.FAILED, 1, "model down"));
    assertEquals("failed", view.status());
    view.markStopped();
    assertTrue(view.stopped());
    assertEquals("failed", view.status(), "a stopped session shows its last status");
  }

  @Test
  void stoppingMidTurnClearsWhatWasWaiting() {
    apply(new EventPayload.UserMessage("x"));
    apply(new EventPayload.ApprovalRequested(1, "python", "print(1)", "low", java.util.List.of()));
    view.markStopped();
    assertNull(view.pendingApproval());
    assertEquals("interrupted", view.status());
    assertTrue(view.stopped());
    assertFalse(view.toJson().path("stopped").isMissingNode());
  }

  @Test
  void titlesAreTheFirstLineShortened() {
    assertEquals("a", SessionView.titleOf("  a\nb"));
    assertEquals(80, SessionView.titleOf("x".repeat(200)).length());
  }

  @Test
  void aResumedSessionIsTitledFromItsConversationBeforeItsFirstTurn() {
    apply(new EventPayload.SessionStarted("m", "/"));
    apply(new EventPayload.Conversation("resume", "20261202-131500-4f9a2c", java.util.List.of(
        new EventPayload.Message("user", "How much disk is free?\nin /"), new EventPayload.Message("assistant", "5 GB"))));
    view.markStopped();

    ObjectNode json = view.toJson();
    assertEquals("idle", json.path("status").asText(), "no turn in this session");
    assertEquals("How much disk is free?", json.path("title").asText());
    assertEquals("20261202-131500-4f9a2c", json.path("resumedFrom").asText());
    assertEquals(0, json.path("iterations").asInt());
  }

  @Test
  void aSessionsOwnFirstMessageKeepsItsTitleWhenAConversationIsLoadedLater() {
    apply(new EventPayload.UserMessage("first"));
    apply(new EventPayload.TurnFinished(TurnStatus.DONE, 1, null));
    apply(new EventPayload.Conversation("load", "/tmp/saved.json", java.util.List.of(
        new EventPayload.Message("user", "loaded"))));
    apply(new EventPayload.Conversation("reset", null, java.util.List.of()));

    ObjectNode json = view.toJson();
    assertEquals("first", json.path("title").asText());
    assertTrue(json.path("resumedFrom").isNull(), "only i4j resume names a session it resumes");
  }
}
