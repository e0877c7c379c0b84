package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.StreamName;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;

/**
 * Renders a session's events on a terminal: the model's markdown rendered as it streams and wrapped to the width,
 * code blocks framed and highlighted, each block's live output under it (stderr in red) and a badge with its exit
 * code and duration, the approval question's risk flags, and a status line with a spinner and the elapsed time
 * while the model thinks or a block runs.
 *
 * <p>Streaming: a markdown line is rendered when its newline arrives. Until then its raw text is shown as a
 * preview (growing in place); when the line completes the preview is erased (cursor up over the rows it took,
 * erase down) and the rendered rows are printed. A preview taller than the screen is cut, because rows that
 * scrolled away cannot be erased.
 *
 * <p>The status line is drawn by a ticker only while nothing else prints: the cursor at the start of an empty
 * row, no preview, no approval question open, and 300 ms after the last output. Every print erases it first,
 * under the same lock, so it never mixes with streamed text.
 */
public final class TerminalRenderer extends EventRenderer {

  private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
  private static final String OUTPUT_INDENT = "  ";

  private enum Activity { IDLE, THINKING, RUNNING, ASKING }

  private final IntSupplier columns;
  private final IntSupplier rows;
  private final MarkdownStream markdown = new MarkdownStream(Theme.COLOR);
  private final BlockRows blockRows = new BlockRows(Theme.COLOR);
  private final ScheduledExecutorService ticker;

  // Screen state, guarded by out's monitor.
  private boolean atLineStart = true;
  private String preview = "";
  private int previewRows;
  private boolean statusShown;
  private long lastPrint = System.nanoTime();
  private Activity activity = Activity.IDLE;
  private long activitySince = System.nanoTime();
  private int runningBlock;
  private int spinnerFrame;
  /** The block whose frame or approval question was the last thing printed, 0 if something else was. */
  private int blockOnScreen;
  /** The last row printed closed a code frame (the code_block event that follows names its block). */
  private boolean frameEndLast;
  /** In a transcript: the fences of the next answer are numbered from its first code_block event already. */
  private boolean numberedFromJournal;

  /**
   * @param columns the terminal's width, asked before each line (it may be resized)
   * @param rows    the terminal's height
   */
  public TerminalRenderer(PrintStream out, IntSupplier columns, IntSupplier rows, boolean transcript) {
    this(out, columns, rows, transcript, !transcript);
  }

  /** {@code statusLine}: whether a ticker draws the spinner (tests leave it off to see exactly what is printed). */
  TerminalRenderer(PrintStream out, IntSupplier columns, IntSupplier rows, boolean transcript, boolean statusLine) {
    super(out, Theme.COLOR, transcript);
    this.columns = columns;
    this.rows = rows;
    if (!statusLine) {
      ticker = null;
    } else {
      ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "i4j-status-line");
        t.setDaemon(true);
        return t;
      });
      ticker.scheduleAtFixedRate(this::tick, 100, 100, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  protected void render(EventPayload p) {
    clearStatus();
    show(p);
    lastPrint = System.nanoTime();
  }

  /** Each line wrapped to the terminal's width at spaces; its further rows are indented by {@code hang} or as it is. */
  @Override
  public void println(String text, int hang) {
    synchronized (out) {
      clearStatus();
      clearPreview();
      endLine();
      out.print(String.join("\n", TextWrap.hanging(text, width(), hang)) + "\n"); // one write: no half-drawn text
      atLineStart = true;
      blockOnScreen = 0;
      frameEndLast = false;
      out.flush();
      lastPrint = System.nanoTime();
    }
  }

  @Override
  public void turnStarted() {
    synchronized (out) {
      setActivity(Activity.THINKING);
    }
  }

  @Override
  public void idle() {
    synchronized (out) {
      clearStatus();
      clearPreview();
      endLine();
      out.flush();
      setActivity(Activity.IDLE);
    }
  }

  @Override
  public void interrupted() {
    synchronized (out) {
      if (statusShown) {
        clearStatus();
      } else if (previewRows == 0) {
        atLineStart = false;
      }
    }
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    synchronized (out) {
      clearStatus();
      clearPreview();
      endLine();
      out.print(Ansi.RESET);
      out.flush();
    }
  }

  // ---- events ----

  private void show(EventPayload p) {
    if (p instanceof EventPayload.AssistantDelta d) {
      setActivityIfIdle(Activity.THINKING);
      stream(d.text());
    } else if (p instanceof EventPayload.AssistantMessage m) {
      if (transcript) {
        stream(m.text());
        numberedFromJournal = false;
      }
      printRows(markdown.finish(width()));
    } else if (p instanceof EventPayload.UserMessage m) {
      if (transcript) {
        finishMarkdown();
        printRows(TextWrap.wrap(theme.bold(m.text().replace("\n", " ⏎ ")), width(), theme.green("❯ "), "  "));
      } else {
        setActivity(Activity.THINKING);
      }
    } else if (p instanceof EventPayload.CodeBlockEvent c) {
      if (!transcript) {
        markdown.nextBlockIndex(c.block() + 1);
      } else if (!numberedFromJournal) {
        // A journal has the answer's blocks before the answer itself: its first block numbers the answer's fences.
        markdown.nextBlockIndex(c.block());
        numberedFromJournal = true;
      }
      if (frameEndLast && preview.isEmpty()) {
        blockOnScreen = c.block();
      }
    } else if (p instanceof EventPayload.ApprovalRequested a) {
      finishMarkdown();
      approvalHeader(a);
      setActivity(Activity.ASKING);
      approvalShown(a.block());
    } else if (p instanceof EventPayload.Approval a) {
      approval(a);
      if (activity == Activity.ASKING) {
        setActivity(Activity.THINKING);
      }
    } else if (p instanceof EventPayload.ExecStarted s) {
      finishMarkdown();
      if (blockOnScreen != s.block() || transcript) {
        printRows(List.of(theme.dim("▶ block " + s.block() + " (" + s.language() + ")")));
      }
      runningBlock = s.block();
      setActivity(Activity.RUNNING);
    } else if (p instanceof EventPayload.Output o) {
      output(o);
    } else if (p instanceof EventPayload.Image i) {
      endLine();
      printRows(List.of(theme.dim(OUTPUT_INDENT + ImageLine.of(i))));
      drawPicture(i, OUTPUT_INDENT, width(), rows.getAsInt() > 0 ? rows.getAsInt() : 24);
    } else if (p instanceof EventPayload.Html h) {
      endLine();
      printRows(List.of(theme.dim(OUTPUT_INDENT + ImageLine.of(h))));
    } else if (p instanceof EventPayload.ExecFinished f) {
      endLine();
      printRows(List.of(blockRows.badge(f, verbose), ""));
      if (activity == Activity.RUNNING) {
        setActivity(Activity.THINKING);
      }
    } else if (p instanceof EventPayload.Usage u) {
      if (verbose) {
        finishMarkdown();
        printRows(List.of(theme.dim(OUTPUT_INDENT + "· " + u.input_tokens() + " tokens in, " + u.output_tokens()
            + " out")));
      }
    } else if (p instanceof EventPayload.Retry r) {
      finishMarkdown();
      printRows(TextWrap.wrap(theme.warn("↻ " + EventText.retry(r)), width(), "", "  "));
    } else if (p instanceof EventPayload.Error e) {
      finishMarkdown();
      printRows(TextWrap.wrap(theme.red("✗ " + e.message()), width(), "", "  "));
    } else if (p instanceof EventPayload.Conversation c) {
      if (transcript) {
        finishMarkdown();
        printRows(List.of(theme.dim("── " + EventText.conversationChange(c) + " ──")));
      }
    } else if (p instanceof EventPayload.SessionStarted s) {
      if (transcript) {
        printRows(List.of(theme.dim("session started · model " + s.model() + " · " + s.cwd())));
      }
    } else if (p instanceof EventPayload.TurnFinished t) {
      finishMarkdown();
      setActivity(Activity.IDLE);
      String end = turnEnd(t);
      if (end != null) {
        printRows(TextWrap.wrap(theme.warn("■ " + end), width(), "", "  "));
      } else if (verbose) {
        printRows(List.of(theme.dim("· done after " + t.iterations() + " model call"
            + (t.iterations() == 1 ? "" : "s"))));
      }
    }
  }

  private void approvalHeader(EventPayload.ApprovalRequested a) {
    if (blockOnScreen != a.block() && !transcript) {
      printRows(blockRows.frame(a.block(), a.language(), a.code(), width()));
    }
    printRows(blockRows.risk(a, width()));
    blockOnScreen = a.block();
  }

  private void approval(EventPayload.Approval a) {
    if (a.decision() == ApprovalDecision.EDITED && a.code() != null) {
      printRows(blockRows.frame(a.block(), "edited", a.code(), width()));
      blockOnScreen = a.block();
    }
    printRows(blockRows.decision(a, width(), transcript, verbose));
    if (a.decision() == ApprovalDecision.DENIED) {
      blockOnScreen = 0;
    }
  }

  // ---- streamed markdown ----

  private void stream(String text) {
    List<String> done = markdown.feed(text, width());
    String next = markdown.preview();
    if (done.isEmpty() && !preview.isEmpty() && next.startsWith(preview)) {
      // The partial line grew: print just what is new, unless the preview would outgrow the screen.
      String grown = next.substring(preview.length());
      int rowsNeeded = rowsOf(next);
      if (rowsNeeded <= maxPreviewRows()) {
        out.print(grown);
        preview = next;
        previewRows = rowsNeeded;
      }
      return;
    }
    printRows(done);
    showPreview(next);
  }

  private void showPreview(String text) {
    if (text.isEmpty()) {
      return;
    }
    endLine();
    String shown = text;
    if (rowsOf(shown) > maxPreviewRows()) {
      shown = shown.substring(0, TextWrap.cutAt(shown, maxPreviewRows() * width() - 1));
    }
    out.print(shown);
    preview = shown;
    previewRows = rowsOf(shown);
    atLineStart = false;
    blockOnScreen = 0;
    frameEndLast = false;
  }

  private void clearPreview() {
    if (previewRows == 0 && preview.isEmpty()) {
      return;
    }
    out.print(Ansi.up(previewRows - 1) + "\r" + Ansi.ERASE_DOWN);
    preview = "";
    previewRows = 0;
    atLineStart = true;
  }

  private void finishMarkdown() {
    printRows(markdown.finish(width()));
  }

  private void printRows(List<String> rendered) {
    clearPreview();
    if (rendered.isEmpty()) {
      return;
    }
    endLine();
    for (String row : rendered) {
      out.print(row);
      out.print('\n');
    }
    atLineStart = true;
    blockOnScreen = 0;
    frameEndLast = MarkdownStream.isFrameEnd(rendered.get(rendered.size() - 1));
  }

  // ---- block output ----

  private void output(EventPayload.Output o) {
    clearPreview();
    String shown = OutputIndent.indent(o.text(), atLineStart, OUTPUT_INDENT,
        o.stream() == StreamName.STDERR ? theme::stderr : UnaryOperator.identity());
    out.print(shown);
    atLineStart = OutputIndent.endsLine(shown, atLineStart);
    blockOnScreen = 0;
    frameEndLast = false;
  }

  // ---- status line ----

  private void tick() {
    synchronized (out) {
      boolean quiet = System.nanoTime() - lastPrint > QUIET_NANOS;
      if ((activity != Activity.THINKING && activity != Activity.RUNNING) || !atLineStart || previewRows > 0
          || !quiet) {
        return;
      }
      long elapsed = (System.nanoTime() - activitySince) / 1_000_000;
      String text = StatusLine.text(spinnerFrame++, activity == Activity.RUNNING ? runningBlock : 0, elapsed, width());
      out.print("\r" + theme.dim(text) + Ansi.ESC + "[K");
      out.flush();
      statusShown = true;
    }
  }

  private void clearStatus() {
    if (statusShown) {
      out.print(Ansi.ERASE_LINE);
      statusShown = false;
    }
  }

  private void setActivity(Activity next) {
    if (activity != next) {
      activity = next;
      activitySince = System.nanoTime();
    }
  }

  private void setActivityIfIdle(Activity next) {
    if (activity == Activity.IDLE) {
      setActivity(next);
    }
  }

  // ---- helpers ----

  private void endLine() {
    if (!atLineStart) {
      out.print('\n');
      atLineStart = true;
    }
  }

  private int width() {
    int w = columns.getAsInt();
    return w <= 0 ? 80 : w;
  }

  private int maxPreviewRows() {
    int h = rows.getAsInt();
    return Math.max(1, (h <= 0 ? 24 : h) - 2);
  }

  private int rowsOf(String text) {
    int w = Ansi.width(text);
    return Math.max(1, (w + width() - 1) / width());
  }
}
