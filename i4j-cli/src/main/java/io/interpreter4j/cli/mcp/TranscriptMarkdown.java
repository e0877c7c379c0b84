package io.interpreter4j.cli.mcp;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.util.List;

/**
 * A session's journal as markdown, for the resource {@code i4j://sessions/{id}/transcript}: each user message, the
 * model's answers (their code blocks fenced in them), the blocks a client ran with {@code execute}, and each block's
 * output as a fenced {@code output} block ending in {@code [exit N]}. Pure.
 */
public final class TranscriptMarkdown {

  private TranscriptMarkdown() {}

  public static String render(String sessionId, List<Event> journal) {
    StringBuilder md = new StringBuilder("# Session ").append(sessionId).append("\n");
    boolean modelTurn = false;
    StringBuilder output = null;
    for (Event e : journal) {
      EventPayload p = e.payload();
      if (p instanceof EventPayload.UserMessage u) {
        modelTurn = true;
        md.append("\n## User\n\n").append(u.text().strip()).append("\n");
      } else if (p instanceof EventPayload.AssistantMessage a) {
        md.append("\n## Assistant\n\n").append(a.text().strip()).append("\n");
      } else if (p instanceof EventPayload.CodeBlockEvent c && !modelTurn) {
        md.append("\n## execute (block ").append(c.block()).append(")\n\n```").append(c.language()).append("\n")
            .append(c.code().strip()).append("\n```\n");
      } else if (p instanceof EventPayload.ExecStarted) {
        output = new StringBuilder();
      } else if (p instanceof EventPayload.Output o && output != null) {
        output.append(o.text());
      } else if (p instanceof EventPayload.ExecFinished f) {
        String text = output == null ? "" : output.toString();
        md.append("\n```output\n").append(text).append(text.isEmpty() || text.endsWith("\n") ? "" : "\n")
            .append("[exit ").append(f.exit_code()).append("]\n```\n");
        output = null;
      } else if (p instanceof EventPayload.Approval a && a.decision() == ApprovalDecision.DENIED) {
        md.append("\n```output\n[not run: ").append(a.reason() == null ? "denied" : a.reason().strip())
            .append("]\n```\n");
      } else if (p instanceof EventPayload.TurnFinished t) {
        modelTurn = false;
        if (!t.status().wire().equals("done")) {
          md.append("\n_turn ended ").append(t.status().wire()).append(t.reason() == null ? "" : ": " + t.reason())
              .append("_\n");
        }
      }
    }
    return md.toString();
  }
}
