package io.interpreter4j.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

class TranscriptMarkdownTest {

  @Test
  void userMessagesAnswersClientBlocksAndOutputsAsMarkdown() {
    List<Event> journal = new ArrayList<>();
    long[] seq = {0};
    for (EventPayload p : List.of(
        new EventPayload.SessionStarted("replay:x", "/w"),
        new EventPayload.CodeBlockEvent(1, "python", "print(1)", false),
        new EventPayload.ExecStarted(1, "python"),
        new EventPayload.Output(1, StreamName.STDOUT, "1"),
        new EventPayload.ExecFinished(1, 0, false, false, 1, false, null),
        new EventPayload.TurnFinished(TurnStatus.DONE, 0, null),
        new EventPayload.UserMessage("remove it all"),
        new EventPayload.CodeBlockEvent(2, "bash", "rm -rf ~", false),
        new EventPayload.AssistantMessage("```bash\nrm -rf ~\n```"),
        new EventPayload.Approval(2, ApprovalDecision.DENIED, DecidedBy.POLICY, "blocked by policy: home"),
        new EventPayload.TurnFinished(TurnStatus.GAVE_UP, 2, "the same error twice"))) {
      journal.add(new Event("s1", ++seq[0], Instant.EPOCH, p));
    }
    assertEquals("""
        # Session s1

        ## execute (block 1)

        ```python
        print(1)
        ```

        ```output
        1
        [exit 0]
        ```

        ## User

        remove it all

        ## Assistant

        ```bash
        rm -rf ~
        ```

        ```output
        [not run: blocked by policy: home]
        ```

        _turn ended gave_up: the same error twice_
        """, TranscriptMarkdown.render("s1", journal));
  }
}
