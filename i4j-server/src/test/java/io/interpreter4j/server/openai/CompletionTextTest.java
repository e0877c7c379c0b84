package io.interpreter4j.server.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.DecidedBy;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.StreamName;
import io.interpreter4j.core.event.TurnStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompletionTextTest {
  private long seq;

  private List<CompletionText.Piece> feed(CompletionText text, EventPayload... payloads) {
    List<CompletionText.Piece> out = new ArrayList<>();
    for (EventPayload p : payloads) {
      out.addAll(text.accept(new Event("s", ++seq, Instant.EPOCH, p)));
    }
    return out;
  }

  private static String content(List<CompletionText.Piece> pieces) {
    StringBuilder sb = new StringBuilder();
    pieces.forEach(p -> sb.append(p instanceof CompletionText.Content c ? c.text() : ""));
    return sb.toString();
  }

  private static CompletionText.Piece last(List<CompletionText.Piece> pieces) {
    return pieces.get(pieces.size() - 1);
  }

  @Test
  void eventsBeforeTheTurnsUserMessageArePassedOver() {
    CompletionText text = new CompletionText();
    List<CompletionText.Piece> out = feed(text,
        new EventPayload.AssistantDelta("an earlier turn"),
        new EventPayload.TurnFinished(TurnStatus.DONE, 1, null),
        new EventPayload.UserMessage("now"),
        new EventPayload.AssistantDelta("Hello."),
        new EventPayload.Usage(10, 2),
        new EventPayload.AssistantDelta(" Again."),
        new EventPayload.Usage(5, 1),
        new EventPayload.TurnFinished(TurnStatus.DONE, 2, null));
    assertEquals("Hello. Again.", content(out));
    assertEquals(new CompletionText.Finished("stop", 15, 3), last(out));
    assertTrue(text.ended());
    assertEquals(List.of(), feed(text, new EventPayload.AssistantDelta("after the end")));
  }

  @Test
  void eachBlocksOutputFollowsItOnLinesOfItsOwnEndingInItsExitCode() {
    List<CompletionText.Piece> out = feed(new CompletionText(),
        new EventPayload.UserMessage("go"),
        new EventPayload.AssistantDelta("```bash\nprintf 'no newline'\n```\n"),
        new EventPayload.CodeBlockEvent(1, "bash", "printf 'no newline'", false),
        new EventPayload.ExecStarted(1, "bash"),
        new EventPayload.Output(1, StreamName.STDOUT, "no newline"),
        new EventPayload.ExecFinished(1, 3, false, false, 5, false, "/tmp/out"),
        new EventPayload.AssistantDelta("It failed."),
        new EventPayload.TurnFinished(TurnStatus.DONE, 2, null));
    assertEquals("```bash\nprintf 'no newline'\n```\n```output\nno newline\n[exit 3]\n```\n\nIt failed.", content(out));
  }

  @Test
  void anUnterminatedBlockIsClosedBeforeItsOutputAndADeniedOneSaysWhy() {
    List<CompletionText.Piece> out = feed(new CompletionText(),
        new EventPayload.UserMessage("go"),
        new EventPayload.AssistantDelta("```python\nprint(1)"),
        new EventPayload.CodeBlockEvent(1, "python", "print(1)", true),
        new EventPayload.ExecStarted(1, "python"),
        new EventPayload.Output(1, StreamName.STDOUT, "1\n"),
        new EventPayload.ExecFinished(1, 0, false, false, 5, false, "/tmp/out"),
        new EventPayload.AssistantDelta("```bash\nrm -rf ~\n```\n"),
        new EventPayload.CodeBlockEvent(2, "bash", "rm -rf ~", false),
        new EventPayload.Approval(2, ApprovalDecision.DENIED, DecidedBy.POLICY, "deletes your home\nfolder"),
        new EventPayload.TurnFinished(TurnStatus.GAVE_UP, 3, "too many failures"));
    assertEquals("```python\nprint(1)\n```\n```output\n1\n[exit 0]\n```\n\n```bash\nrm -rf ~\n```\n"
        + "```output\n[not run: deletes your home folder]\n```\n\n\n[turn ended gave_up: too many failures]\n",
        content(out));
    assertEquals("stop", ((CompletionText.Finished) last(out)).finishReason());
  }

  @Test
  void aFailedOrInterruptedTurnEndsWithoutAnAnswer() {
    assertEquals(new CompletionText.Failed("turn_failed", "the turn failed: model call failed: 401"),
        last(feed(new CompletionText(), new EventPayload.UserMessage("go"),
            new EventPayload.TurnFinished(TurnStatus.FAILED, 1, "model call failed: 401"))));
    assertEquals("turn_interrupted", ((CompletionText.Failed) last(feed(new CompletionText(),
        new EventPayload.UserMessage("go"), new EventPayload.TurnFinished(TurnStatus.INTERRUPTED, 1, null)))).code());
  }
}
