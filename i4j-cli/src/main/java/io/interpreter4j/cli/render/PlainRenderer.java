package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.DecidedBy;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.StreamName;
import java.io.PrintStream;

/**
 * Renders a session's events as plain text, for pipes, {@code --plain} and {@code NO_COLOR}: the model's markdown
 * exactly as it streams, each block's run between {@code ──} lines with its live output, exit code and duration,
 * retries and errors. No frames, no status line; colours only when {@code color} is on.
 */
public final class PlainRenderer extends EventRenderer {
  /** Plain output has no terminal size to ask: pictures (only with --inline-images on) are laid out for 80x24. */
  private static final int PICTURE_COLUMNS = 80;
  private static final int PICTURE_ROWS = 24;
  private boolean atLineStart = true;

  public PlainRenderer(PrintStream out, boolean color) {
    this(out, color, false);
  }

  public PlainRenderer(PrintStream out, boolean color, boolean transcript) {
    super(out, color ? Theme.COLOR : Theme.NONE, transcript);
  }

  /** Plain text is not wrapped: a pipe or a file has no width. */
  @Override
  public void println(String text, int hang) {
    synchronized (out) {
      line(text);
      out.flush();
    }
  }

  @Override
  public void idle() {
    synchronized (out) {
      if (!atLineStart) {
        out.print('\n');
        atLineStart = true;
      }
      out.flush();
    }
  }

  @Override
  protected void render(EventPayload p) {
    if (p instanceof EventPayload.AssistantDelta d) {
      write(d.text());
    } else if (p instanceof EventPayload.UserMessage m && transcript) {
      line(theme.bold("> " + m.text().replace("\n", "\n  ")));
    } else if (p instanceof EventPayload.AssistantMessage m && transcript) {
      write(m.text());
      if (!atLineStart) {
        write("\n");
      }
    } else if (p instanceof EventPayload.ApprovalRequested a) {
      if (a.risk() != null && !"low".equals(a.risk()) || a.flags() != null && !a.flags().isEmpty()) {
        line(theme.warn("  risk: " + a.risk()));
        for (EventPayload.RiskFlag f : a.flags() == null ? java.util.List.<EventPayload.RiskFlag>of() : a.flags()) {
          line(theme.warn("    - " + f.rule() + " (" + f.level() + "): " + f.reason()));
        }
      }
      approvalShown(a.block());
    } else if (p instanceof EventPayload.Approval a) {
      if (a.decision() == ApprovalDecision.EDITED && a.code() != null) {
        line(theme.dim("── edited code ──"));
        line(a.code());
      }
      if (a.by() != DecidedBy.USER || a.decision() != ApprovalDecision.APPROVED) { // a log shows auto-run's too
        String text = "  [" + EventText.approval(a) + "]";
        line(a.decision() == ApprovalDecision.DENIED ? theme.warn(text) : theme.dim(text));
      }
    } else if (p instanceof EventPayload.ExecStarted s) {
      line(theme.dim("── running block " + s.block() + " (" + s.language() + ") ──"));
    } else if (p instanceof EventPayload.Output o) {
      write(o.stream() == StreamName.STDERR ? theme.stderr(o.text()) : o.text());
    } else if (p instanceof EventPayload.Image i) {
      line(theme.dim(ImageLine.of(i)));
      drawPicture(i, "", PICTURE_COLUMNS, PICTURE_ROWS);
    } else if (p instanceof EventPayload.Html h) {
      line(theme.dim(ImageLine.of(h)));
    } else if (p instanceof EventPayload.ExecFinished f) {
      StringBuilder sb = new StringBuilder("── exit ").append(f.exit_code()).append(" · ").append(f.duration_ms())
          .append(" ms");
      EventText.execNotes(f, verbose).forEach(note -> sb.append(" · ").append(note));
      sb.append(" ──");
      line(f.exit_code() == 0 ? theme.dim(sb.toString()) : theme.red(sb.toString()));
    } else if (p instanceof EventPayload.Usage u && verbose) {
      line(theme.dim("  [tokens: " + u.input_tokens() + " in, " + u.output_tokens() + " out]"));
    } else if (p instanceof EventPayload.Retry r) {
      line(theme.warn("↻ " + EventText.retry(r)));
    } else if (p instanceof EventPayload.Error e) {
      line(theme.red("error: " + e.message()));
    } else if (p instanceof EventPayload.Conversation c && transcript) {
      line(theme.dim("── " + EventText.conversationChange(c) + " ──"));
    } else if (p instanceof EventPayload.TurnFinished t) {
      String end = turnEnd(t);
      if (end != null) {
        line(theme.warn(end));
      } else if (!atLineStart) {
        write("\n");
      }
    }
  }

  private void line(String text) {
    if (!atLineStart) {
      out.print('\n');
    }
    out.print(text);
    out.print('\n');
    atLineStart = true;
  }

  private void write(String text) {
    if (text.isEmpty()) {
      return;
    }
    out.print(text);
    atLineStart = Ansi.strip(text).endsWith("\n");
  }
}
