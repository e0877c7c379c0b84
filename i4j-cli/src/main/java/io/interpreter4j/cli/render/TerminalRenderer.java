package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.core.event.DecidedBy;

import io.interpreter4j.core.event.ApprovalDecision;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

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

  private static final String[] SPINNER = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
  private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
  private static final String OUTPUT_INDENT = "  ";

  private enum Activity { IDLE, THINKING, RUNNING, ASKING }

  private final PrintStream out;
  private final Theme theme = Theme.COLOR;
  private final IntSupplier columns;
  private final IntSupplier rows;
  private final MarkdownStream markdown = new MarkdownStream(theme);
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
    super(transcript);
    this.out = out;
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
  public Theme theme() {
    return theme;
  }

  @Override
  public void accept(Event event) {
    synchronized (out) {
      clearStatus();
      render(event.payload());
      out.flush();
      lastPrint = System.nanoTime();
    }
  }

  @Override
  public void println(String text) {
    synchronized (out) {
      clearStatus();
      clearPreview();
      endLine();
      out.print(text);
      out.print('\n');
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

  private void render(EventPayload p) {
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
    } else if (p instanceof EventPayload.ExecFinished f) {
      endLine();
      printRows(List.of(badge(f), ""));
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
      printRows(TextWrap.wrap(theme.warn("↻ retrying the model call (attempt " + r.attempt() + "): " + r.reason()),
          width(), "", "  "));
    } else if (p instanceof EventPayload.Error e) {
      finishMarkdown();
      printRows(TextWrap.wrap(theme.red("✗ " + e.message()), width(), "", "  "));
    } else if (p instanceof EventPayload.Conversation c) {
      if (transcript) {
        finishMarkdown();
        printRows(List.of(theme.dim("── " + PlainRenderer.conversationChange(c) + " ──")));
      }
    } else if (p instanceof EventPayload.SessionStarted s) {
      if (transcript) {
        printRows(List.of(theme.dim("session started · model " + s.model() + " · " + s.cwd())));
      }
    } else if (p instanceof EventPayload.TurnFinished t) {
      finishMarkdown();
      setActivity(Activity.IDLE);
      if (t.status() != TurnStatus.DONE) {
        String reason = t.reason() == null ? "" : " — " + t.reason();
        printRows(TextWrap.wrap(theme.warn("■ turn ended: " + t.status() + reason), width(), "", "  "));
      } else if (verbose) {
        printRows(List.of(theme.dim("· done after " + t.iterations() + " model call"
            + (t.iterations() == 1 ? "" : "s"))));
      }
    }
  }

  private void approvalHeader(EventPayload.ApprovalRequested a) {
    String code = a.code() == null ? "" : a.code();
    if (blockOnScreen != a.block() && !transcript) {
      MarkdownStream frame = new MarkdownStream(theme);
      frame.nextBlockIndex(a.block());
      printRows(frame.feed("```" + a.language() + "\n" + code + "\n```\n", width()));
    }
    boolean risky = a.risk() != null && !"low".equals(a.risk());
    List<EventPayload.RiskFlag> flags = a.flags() == null ? List.of() : a.flags();
    if (risky || !flags.isEmpty()) {
      String level = a.risk() == null ? "unknown" : a.risk();
      String head = "⚠ risk: " + level;
      printRows(List.of("high".equals(level) ? theme.bad(head) : theme.warn(head)));
      for (EventPayload.RiskFlag f : flags) {
        String text = theme.bold(f.rule()) + theme.dim(" (" + f.level() + ")") + " " + f.reason();
        printRows(TextWrap.wrap(text, width(), "  • ", "    "));
      }
    }
    blockOnScreen = a.block();
  }

  private void approval(EventPayload.Approval a) {
    if (a.decision() == ApprovalDecision.EDITED && a.code() != null) {
      MarkdownStream frame = new MarkdownStream(theme);
      printRows(frame.feed("```" + "edited\n" + a.code() + "\n```\n", width()));
      blockOnScreen = a.block();
    }
    boolean userRan = a.by() == DecidedBy.USER && a.decision() != ApprovalDecision.DENIED;
    if (!transcript && (userRan || a.by() == DecidedBy.AUTO && a.decision() == ApprovalDecision.APPROVED && !verbose)) {
      return;
    }
    String reason = a.reason() == null ? "" : ": " + a.reason();
    String who = a.reason() != null && a.reason().startsWith("blocked by policy") ? "" : " by " + a.by();
    String text = (a.decision() == ApprovalDecision.DENIED ? "⊘ " : "✓ ") + a.decision() + who + reason;
    printRows(TextWrap.wrap(a.decision() == ApprovalDecision.DENIED ? theme.warn(text) : theme.dim(text), width(), "", "  "));
    if (a.decision() == ApprovalDecision.DENIED) {
      blockOnScreen = 0;
    }
  }

  private String badge(EventPayload.ExecFinished f) {
    StringBuilder note = new StringBuilder(" · ").append(duration(f.duration_ms()));
    if (f.timed_out()) {
      note.append(" · timed out");
    }
    if (f.interrupted()) {
      note.append(" · interrupted");
    }
    if (f.truncated()) {
      note.append(" · output cut for the model; full output in ").append(f.output_file());
    } else if (verbose && f.output_file() != null) {
      note.append(" · ").append(f.output_file());
    }
    String exit = "exit " + f.exit_code();
    return f.exit_code() == 0
        ? theme.ok("✓ " + exit) + theme.dim(note.toString())
        : theme.bad("✗ " + exit) + theme.red(note.toString());
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
    boolean stderr = o.stream() == StreamName.STDERR;
    StringBuilder sb = new StringBuilder();
    String text = o.text();
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      boolean end = i == text.length();
      char c = end ? 0 : text.charAt(i);
      if (!end && c != '\n' && c != '\r') {
        continue;
      }
      String piece = text.substring(start, i);
      if (!piece.isEmpty()) {
        if (atLineStart) {
          sb.append(OUTPUT_INDENT);
        }
        sb.append(stderr ? theme.stderr(piece) : piece);
        atLineStart = false;
      }
      if (!end) {
        if (c == '\n') {
          sb.append('\n');
          atLineStart = true;
        } else if (i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          // \r\n: the \n ends the line
        } else {
          sb.append('\r');
          atLineStart = true;
        }
      }
      start = i + 1;
    }
    out.print(sb);
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
      String label = activity == Activity.RUNNING ? "running block " + runningBlock : "thinking";
      String hint = activity == Activity.RUNNING ? " · Ctrl-C interrupts" : "";
      String text = SPINNER[spinnerFrame++ % SPINNER.length] + " " + label + " · " + seconds(elapsed) + hint;
      text = text.substring(0, TextWrap.cutAt(text, Math.max(10, width() - 1)));
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

  private static String seconds(long millis) {
    return millis < 60_000 ? (millis / 1000) + "." + (millis % 1000 / 100) + "s" : duration(millis);
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
