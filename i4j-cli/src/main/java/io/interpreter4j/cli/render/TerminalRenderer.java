package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * Renders a session's events for a person: the model's text as it streams, each block's run with its live
 * output (stderr in red), exit code and duration, retries and errors. Colours only when {@code color} is on.
 */
public final class TerminalRenderer implements Consumer<Event> {
  private final PrintStream out;
  private final boolean color;
  private boolean atLineStart = true;

  public TerminalRenderer(PrintStream out, boolean color) {
    this.out = out;
    this.color = color;
  }

  @Override
  public void accept(Event event) {
    synchronized (out) {
      render(event.payload());
      out.flush();
    }
  }

  private void render(EventPayload p) {
    if (p instanceof EventPayload.AssistantDelta d) {
      write(d.text());
    } else if (p instanceof EventPayload.Approval a) {
      if (!"user".equals(a.by()) || !"approved".equals(a.decision())) {
        String reason = a.reason() == null ? "" : ": " + a.reason();
        String who = a.reason() != null && a.reason().startsWith("blocked by policy") ? "" : " by " + a.by();
        String text = "  [" + a.decision() + who + reason + "]";
        line("denied".equals(a.decision()) ? yellow(text) : dim(text));
      }
    } else if (p instanceof EventPayload.ExecStarted s) {
      line(dim("── running block " + s.block() + " (" + s.language() + ") ──"));
    } else if (p instanceof EventPayload.Output o) {
      write("stderr".equals(o.stream()) ? red(o.text()) : o.text());
    } else if (p instanceof EventPayload.ExecFinished f) {
      StringBuilder sb = new StringBuilder("── exit ").append(f.exit_code());
      if (f.timed_out()) {
        sb.append(" (timed out)");
      }
      if (f.interrupted()) {
        sb.append(" (interrupted)");
      }
      sb.append(" · ").append(f.duration_ms()).append(" ms");
      if (f.truncated()) {
        sb.append(" · output cut for the model; full output: ").append(f.output_file());
      }
      sb.append(" ──");
      line(f.exit_code() == 0 ? dim(sb.toString()) : red(sb.toString()));
    } else if (p instanceof EventPayload.Retry r) {
      line(yellow("↻ retrying the model call (attempt " + r.attempt() + "): " + r.reason()));
    } else if (p instanceof EventPayload.Error e) {
      line(red("error: " + e.message()));
    } else if (p instanceof EventPayload.TurnFinished t) {
      if (!"done".equals(t.status())) {
        line(yellow("turn ended: " + t.status() + (t.reason() == null ? "" : " — " + t.reason())));
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
    atLineStart = text.endsWith("\n") || text.endsWith("\u001b[0m\n");
    if (text.endsWith("\u001b[0m")) {
      atLineStart = text.substring(0, text.length() - 4).endsWith("\n");
    }
  }

  private String dim(String s) {
    return color ? "\u001b[2m" + s + "\u001b[0m" : s;
  }

  private String red(String s) {
    return color ? "\u001b[31m" + s + "\u001b[0m" : s;
  }

  private String yellow(String s) {
    return color ? "\u001b[33m" + s + "\u001b[0m" : s;
  }
}
