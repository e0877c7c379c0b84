package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.event.ApprovalDecision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the rich renderer prints for events, escape sequences included. */
class TerminalRendererTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final TerminalRenderer renderer = new TerminalRenderer(
      new PrintStream(bytes, true, StandardCharsets.UTF_8), () -> 40, () -> 10, false, false);
  private int seq;

  private String printed() {
    String s = bytes.toString(StandardCharsets.UTF_8);
    bytes.reset();
    return s;
  }

  private void send(EventPayload... payloads) {
    for (EventPayload p : payloads) {
      renderer.accept(new Event("s", ++seq, Instant.now(), p));
    }
  }

  @Test
  void aPartialLineGrowsInPlaceAndIsReplacedByItsRenderingWhenComplete() {
    send(new EventPayload.AssistantDelta("Hello **wo"));
    assertEquals("Hello **wo", printed());
    send(new EventPayload.AssistantDelta("rld**"));
    assertEquals("rld**", printed(), "only the new characters are printed");
    send(new EventPayload.AssistantDelta("!\nNext"));
    assertEquals("\r" + Ansi.ERASE_DOWN + "Hello " + Theme.COLOR.bold("world") + "!\nNext", printed());
  }

  @Test
  void aPreviewOverSeveralRowsIsErasedFromItsFirstRow() {
    send(new EventPayload.AssistantDelta("x".repeat(90)));
    printed();
    send(new EventPayload.AssistantDelta("\n"));
    assertTrue(printed().startsWith(Ansi.up(2) + "\r" + Ansi.ERASE_DOWN), "90 columns on a 40-column screen: 3 rows");
  }

  @Test
  void aPreviewTallerThanTheScreenIsCut() {
    send(new EventPayload.AssistantDelta("y".repeat(1000)));
    String shown = printed();
    assertTrue(shown.length() < 40 * 8, "at most rows - 2 rows are previewed: " + shown.length());
  }

  @Test
  void blockOutputIsIndentedWithStderrInRedAndEndsWithABadge() {
    send(new EventPayload.ExecStarted(1, "bash"),
        new EventPayload.Output(1, StreamName.STDOUT, "one\ntw"), new EventPayload.Output(1, StreamName.STDOUT, "o\n"),
        new EventPayload.Output(1, StreamName.STDERR, "bad\n"),
        new EventPayload.ExecFinished(1, 2, false, false, 1500, false, "/x"));
    String out = Ansi.strip(printed());
    assertEquals("▶ block 1 (bash)\n  one\n  two\n  bad\n✗ exit 2 · 1.5 s\n\n", out);
  }

  @Test
  void theHeaderOfABlockThatWasJustShownIsNotRepeated() {
    send(new EventPayload.AssistantDelta("```bash\nls\n```\n"),
        new EventPayload.CodeBlockEvent(1, "bash", "ls", false),
        new EventPayload.ApprovalRequested(1, "bash", "ls", "low", List.of()));
    String out = Ansi.strip(printed());
    assertEquals(1, out.split("╭─", -1).length - 1, out);
    send(new EventPayload.Approval(1, ApprovalDecision.APPROVED, DecidedBy.USER, null), new EventPayload.ExecStarted(1, "bash"));
    assertFalse(Ansi.strip(printed()).contains("▶"));
  }

  @Test
  void theApprovalQuestionShowsRiskFlagsAndTheCodeIfItIsNotOnScreen() {
    send(new EventPayload.AssistantDelta("text in between\n"));
    printed();
    send(new EventPayload.ApprovalRequested(3, "bash", "sudo rm -rf /tmp/x", "high",
        List.of(new EventPayload.RiskFlag("high", "sudo", "runs as root with sudo"))));
    String out = Ansi.strip(printed());
    assertTrue(out.contains("╭─ bash · block 3"), out);
    assertTrue(out.contains("│ sudo rm -rf /tmp/x"), out);
    assertTrue(out.contains("⚠ risk: high\n  • sudo (high) runs as root with sudo"), out);
    long start = System.nanoTime();
    renderer.awaitApprovalShown(3, Duration.ofSeconds(5));
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(4).toNanos(), "already shown: no wait");
  }

  @Test
  void declinedAndEditedBlocksAreSaidSo() {
    send(new EventPayload.Approval(1, ApprovalDecision.DENIED, DecidedBy.USER, "not now"));
    assertEquals("⊘ denied by user: \"not now\"\n", Ansi.strip(printed()), "a person's reason is quoted");
    send(new EventPayload.Approval(2, ApprovalDecision.EDITED, DecidedBy.USER, null, "low", List.of(), "echo edited"));
    String out = Ansi.strip(printed());
    assertTrue(out.contains("╭─ edited · block 2 "), "the edited block keeps its number: " + out);
    assertTrue(out.contains("│ echo edited"), out);
  }

  @Test
  void aModelFailureIsSaidOnceAndTheTurnEndMarkedBriefly() {
    send(new EventPayload.Error("model call failed: HTTP 401: invalid API key"),
        new EventPayload.TurnFinished(TurnStatus.FAILED, 1, "HTTP 401: invalid API key"));
    String out = Ansi.strip(printed());
    assertEquals("✗ model call failed: HTTP 401: invalid\n  API key\n■ turn ended: failed\n", out);
  }

  @Test
  void statusLinesWrapAtSpacesUnderTheirLabel() {
    renderer.println("model     replay:examples/hello.json with a long tail", 10);
    assertEquals("model     replay:examples/hello.json\n          with a long tail\n", Ansi.strip(printed()));
    renderer.println("✓ saved 6 messages to the conversations folder; %load brings them back");
    assertEquals("✓ saved 6 messages to the conversations\n  folder; %load brings them back\n",
        Ansi.strip(printed()));
    renderer.println("Commands\n  %help     this list");
    assertEquals("Commands\n  %help     this list\n", Ansi.strip(printed()), "an indented line keeps its indent");
  }

  @Test
  void theEndOfATurnFlushesThePartialLineAndExplainsAnUnusualEnd() {
    send(new EventPayload.AssistantDelta("no newline at the end"),
        new EventPayload.TurnFinished(TurnStatus.GAVE_UP, 3, "the same code failed twice"));
    String out = Ansi.strip(printed());
    assertTrue(out.endsWith("no newline at the end\n■ turn ended: gave_up — the same code\n  failed twice\n"),
        out);
  }

  @Test
  void aTranscriptNumbersBlocksFromTheJournalAndShowsUserMessages() {
    TerminalRenderer transcript = new TerminalRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8),
        () -> 40, () -> 10, true, false);
    for (EventPayload p : List.of(new EventPayload.UserMessage("go"),
        new EventPayload.CodeBlockEvent(7, "bash", "ls", false),
        new EventPayload.AssistantMessage("```bash\nls\n```\n"),
        new EventPayload.Approval(7, ApprovalDecision.APPROVED, DecidedBy.USER, null))) {
      transcript.accept(new Event("s", ++seq, Instant.now(), p));
    }
    String out = Ansi.strip(printed());
    assertTrue(out.startsWith("❯ go\n╭─ bash · block 7 "), out);
    assertTrue(out.contains("✓ approved by user"), out);
  }
}
