package io.interpreter4j.cli.render;

import io.interpreter4j.cli.render.inline.InlinePictures;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Shows a session's events to a person. Events arrive on the session's thread; the approval question and the
 * output of {@code %} commands are printed from the main thread through {@link #println} and the approval
 * handshake, so that nothing is printed over anything else: events are rendered under {@code out}'s lock.
 */
public abstract class EventRenderer implements Consumer<Event>, AutoCloseable {

  protected final PrintStream out;
  protected final Theme theme;
  /** In a transcript ({@code i4j show}, the recap of {@code i4j resume}) user messages are printed too. */
  protected final boolean transcript;
  protected volatile boolean verbose;
  private final Map<Integer, CompletableFuture<Void>> approvalShown = new ConcurrentHashMap<>();
  /** Draws the images blocks show under their line, or null (the line alone). */
  private volatile InlinePictures pictures;
  /** The last error of the current turn (guarded by out's lock): a turn ending for that reason does not repeat it. */
  private String lastError;

  protected EventRenderer(PrintStream out, Theme theme, boolean transcript) {
    this.out = out;
    this.theme = theme;
    this.transcript = transcript;
  }

  /** The styles for text printed with {@link #println}: none in plain mode. */
  public Theme theme() {
    return theme;
  }

  @Override
  public void accept(Event event) {
    synchronized (out) {
      EventPayload p = event.payload();
      if (p instanceof EventPayload.UserMessage) {
        lastError = null;
      } else if (p instanceof EventPayload.Error e) {
        lastError = e.message();
      }
      render(p);
      out.flush();
    }
  }

  /** Shows one event; called under {@code out}'s lock. */
  protected abstract void render(EventPayload p);

  /** The line that ends a turn other than done, the reason left out when the turn's last error said it; or null. */
  protected String turnEnd(EventPayload.TurnFinished t) {
    String end = EventText.turnEnd(t, lastError);
    lastError = null;
    return end;
  }

  /** Draw the images blocks show with these (null: only their {@code image WxH · PATH} line). */
  public void inlinePictures(InlinePictures pictures) {
    this.pictures = pictures;
  }

  /**
   * Draws an image under its line, if pictures are on: {@code indent}, the picture, a newline; a picture that cannot
   * be drawn gets a short line saying why instead. Called under {@code out}'s lock, the cursor at a line's start.
   */
  protected void drawPicture(EventPayload.Image image, String indent, int columns, int rows) {
    InlinePictures drawing = pictures;
    if (drawing == null) {
      return;
    }
    String sequence;
    try {
      sequence = drawing.draw(java.nio.file.Path.of(image.path()), columns, rows);
    } catch (java.io.IOException | RuntimeException e) {
      String why = e instanceof java.nio.file.NoSuchFileException ? "the file is gone" : e.getMessage();
      out.print(theme.dim(indent + "(picture not drawn: " + why + ")") + "\n");
      return;
    }
    out.print(indent + sequence + "\n");
  }

  /** Verbose: also token usage per model call, automatic approvals and output files. */
  public void verbose(boolean on) {
    verbose = on;
  }

  public boolean verbose() {
    return verbose;
  }

  /** Prints lines of text (a command's output) after whatever the renderer has on screen. */
  public void println(String text) {
    println(text, 2);
  }

  /**
   * As {@link #println(String)}; where lines are wrapped to a terminal's width (at spaces, never inside a word), the
   * rows after a line's first are indented by {@code hang} columns (10 under a table's 10-column labels), or as far as
   * the line itself is when that is more.
   */
  public abstract void println(String text, int hang);

  /**
   * Waits until the header of the approval question for {@code block} (its risk, flags and code) is on screen, so
   * the prompt comes after it; gives up after {@code timeout} (the event may never come).
   */
  public void awaitApprovalShown(int block, Duration timeout) {
    CompletableFuture<Void> shown = approvalShown.computeIfAbsent(block, b -> new CompletableFuture<>());
    try {
      shown.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // ask anyway
    } finally {
      approvalShown.remove(block);
    }
  }

  /** Called once the approval header for {@code block} has been printed. */
  protected void approvalShown(int block) {
    approvalShown.computeIfAbsent(block, b -> new CompletableFuture<>()).complete(null);
  }

  /** Marks the start of a turn the user just asked for (a status line may appear while the model thinks). */
  public void turnStarted() {}

  /** The prompt is about to be shown: nothing may be drawn until the next turn starts. */
  public void idle() {}

  /** Ctrl-C was pressed: the terminal has echoed {@code ^C} where the cursor was. */
  public void interrupted() {}

  @Override
  public void close() {}

  /** "79 ms", "3.2 s", "2m 05s". */
  public static String duration(long millis) {
    if (millis < 1000) {
      return millis + " ms";
    }
    if (millis < 60_000) {
      return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    long s = millis / 1000;
    return String.format(java.util.Locale.ROOT, "%dm %02ds", s / 60, s % 60);
  }
}
