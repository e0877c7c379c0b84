package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.ApprovalDecision;

import io.interpreter4j.cli.render.EventRenderer;
import io.interpreter4j.cli.render.EventText;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.intercept.Fences;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * A conversation as a markdown document ({@code %markdown}, {@code i4j show --markdown}): each user message, the
 * model's answers as it wrote them, and under each block what happened to it: its output (up to
 * {@value #MAX_OUTPUT} characters; the output file has all of it), exit code and duration, or why it did not run.
 */
public final class MarkdownExport {

  static final int MAX_OUTPUT = 20_000;
  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
      .withZone(ZoneId.systemDefault());

  private MarkdownExport() {}

  public static String render(TurnLog log) {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(log.title()).append("\n\n");
    md.append("*interpreter4j session `").append(log.session()).append("` · model `").append(log.model())
        .append("` · ").append(WHEN.format(log.started())).append("*\n\n");
    if (!log.restored().isEmpty()) {
      md.append("## Earlier conversation");
      if (log.restoredFrom() != null) {
        md.append(" (from ").append(log.restoredFrom()).append(')');
      }
      md.append("\n\n");
      for (EventPayload.Message m : log.restored()) {
        if (m.role().equals("user")) {
          md.append(quote("**You:** " + m.content())).append("\n\n");
        } else {
          md.append(m.content().strip()).append("\n\n");
        }
      }
      md.append("---\n\n");
    }
    for (TurnLog.Turn turn : log.turns()) {
      md.append(quote("**You:** " + turn.userText())).append("\n\n");
      Map<Integer, StringBuilder> outputs = new HashMap<>();
      String lastError = null;
      for (EventPayload p : turn.events()) {
        if (p instanceof EventPayload.AssistantMessage m) {
          md.append(m.text().strip()).append("\n\n");
        } else if (p instanceof EventPayload.Approval a) {
          if (a.decision() == ApprovalDecision.DENIED) {
            md.append("*Block ").append(a.block()).append(" was not run: denied by ").append(a.by())
                .append(a.reason() == null ? "" : " (" + a.reason() + ")").append(".*\n\n");
          } else if (a.decision() == ApprovalDecision.EDITED && a.code() != null) {
            md.append("*Block ").append(a.block()).append(" was edited before it ran:*\n\n")
                .append(fenced(a.code(), "")).append("\n\n");
          }
        } else if (p instanceof EventPayload.Output o) {
          outputs.computeIfAbsent(o.block(), b -> new StringBuilder()).append(o.text());
        } else if (p instanceof EventPayload.ExecFinished f) {
          StringBuilder out = outputs.remove(f.block());
          String text = out == null ? "" : out.toString();
          md.append("Output of block ").append(f.block()).append(":\n\n");
          if (text.isEmpty()) {
            md.append("*(no output)*\n\n");
          } else {
            if (text.length() > MAX_OUTPUT) {
              text = text.substring(0, MAX_OUTPUT) + "\n... (" + (text.length() - MAX_OUTPUT) + " more characters"
                  + (f.output_file() == null ? "" : " in " + f.output_file()) + ")";
            }
            md.append(fenced(text, "text")).append("\n\n");
          }
          md.append("*exit ").append(f.exit_code()).append(" · ").append(EventRenderer.duration(f.duration_ms()));
          if (f.timed_out()) {
            md.append(" · timed out");
          }
          if (f.interrupted()) {
            md.append(" · interrupted");
          }
          md.append("*\n\n");
        } else if (p instanceof EventPayload.Error e) {
          lastError = e.message();
          md.append("> **Error:** ").append(e.message().replace("\n", "\n> ")).append("\n\n");
        } else if (p instanceof EventPayload.TurnFinished t && t.status() != TurnStatus.DONE) {
          String end = EventText.turnEnd(t, lastError); // the error above said why: not again
          md.append("*").append(end.substring(0, 1).toUpperCase(java.util.Locale.ROOT)).append(end.substring(1))
              .append("*\n\n");
        }
      }
    }
    return md.toString().stripTrailing() + "\n";
  }

  /** Text in a fence longer than any backtick run inside it. */
  static String fenced(String text, String info) {
    String fence = Fences.fenceFor(text);
    String body = text.endsWith("\n") ? text : text + "\n";
    return fence + info + "\n" + body + fence;
  }

  private static String quote(String text) {
    return "> " + text.strip().replace("\n", "\n> ");
  }
}
