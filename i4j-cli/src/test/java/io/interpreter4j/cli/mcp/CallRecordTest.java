package io.interpreter4j.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.DecidedBy;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.StreamName;
import io.interpreter4j.core.event.TurnStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallRecordTest {
  @TempDir Path tmp;
  private long seq;

  private CallRecord feed(EventPayload... payloads) {
    CallRecord r = new CallRecord();
    for (EventPayload p : payloads) {
      r.accept(new Event("s", ++seq, Instant.EPOCH, p));
    }
    return r;
  }

  @Test
  void aLongOutputIsCutToHeadAndTailFromItsFileWithTheExitCode() throws Exception {
    Path out = Files.writeString(tmp.resolve("out.txt"), "a".repeat(50) + "b".repeat(50));
    CallRecord r = feed(new EventPayload.CodeBlockEvent(1, "bash", "x", false),
        new EventPayload.Output(1, StreamName.STDOUT, "only the live part"),
        new EventPayload.ExecFinished(1, 2, false, false, 3, false, out.toString()),
        new EventPayload.TurnFinished(TurnStatus.DONE, 0, null));
    String text = r.executeText(20);
    assertTrue(text.startsWith("a".repeat(10) + "\n... [output truncated: 100 characters in total; the full output is in "
        + out + "] ...\n" + "b".repeat(10)), text);
    assertTrue(text.endsWith("\nexit code: 2"), text);
    assertTrue(r.executeFailed());
  }

  @Test
  void withoutItsFileTheLiveOutputIsTheOutputAndATimeoutIsSaid() {
    CallRecord r = feed(new EventPayload.CodeBlockEvent(1, "python", "x", false),
        new EventPayload.Output(1, StreamName.STDOUT, "partial"),
        new EventPayload.ExecFinished(1, 124, true, false, 3, false, null),
        new EventPayload.TurnFinished(TurnStatus.DONE, 0, null));
    assertEquals("partial\nexit code: 124 (timed out)", r.executeText(4000));
    assertTrue(r.executeFailed());
  }

  @Test
  void aRefusedBlockSaysWhyAndIsAnError() {
    CallRecord r = feed(new EventPayload.CodeBlockEvent(1, "bash", "rm -rf ~", false),
        new EventPayload.Approval(1, ApprovalDecision.DENIED, DecidedBy.POLICY, "blocked by policy: home"),
        new EventPayload.TurnFinished(TurnStatus.BLOCKED, 0, "Block 1 was blocked"));
    assertEquals("refused, not run: blocked by policy: home", r.executeText(4000));
    assertTrue(r.executeFailed());
  }

  @Test
  void aTaskIsItsLastAnswerAndTheBlocksItRan() {
    CallRecord r = feed(new EventPayload.UserMessage("go"),
        new EventPayload.CodeBlockEvent(1, "python", "1/0", false),
        new EventPayload.ExecFinished(1, 1, false, false, 3, false, null),
        new EventPayload.AssistantMessage("Trying again."),
        new EventPayload.CodeBlockEvent(2, "python", "print(1)", false),
        new EventPayload.ExecFinished(2, 0, false, false, 3, false, null),
        new EventPayload.AssistantMessage("Done: 1.\n"),
        new EventPayload.TurnFinished(TurnStatus.DONE, 3, null));
    assertEquals("Done: 1.\n\nBlocks run:\n- block 1 (python): exit code 1\n- block 2 (python): exit code 0",
        r.taskText());
    assertFalse(r.taskFailed());
    CallRecord failed = feed(new EventPayload.TurnFinished(TurnStatus.FAILED, 1, "no model: none configured"));
    assertEquals("The task ended failed: no model: none configured", failed.taskText());
    assertTrue(failed.taskFailed());
  }
}
