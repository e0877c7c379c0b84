package io.interpreter4j.runtime.repl;

import io.interpreter4j.core.image.ImageBudget;
import io.interpreter4j.core.image.ImageHeader;
import io.interpreter4j.core.image.ImageSource;
import io.interpreter4j.core.output.OutputSpool;
import io.interpreter4j.core.safety.SecretRedactor;
import io.interpreter4j.runtime.repl.ReplProcess.Stream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One block while it runs: the command that hands it to the driver, end markers, spool and live-output budget,
 * and how it is being stopped. Plain state owned by the {@link ReplWorker}; no threads, no actor.
 */
final class BlockRun {

  /** Why the worker is stopping the block, if it is. */
  enum Halt { NONE, TIMEOUT, INTERRUPT }

  private final ReplWorker.Execute request;
  private final String marker;
  private final String command;
  private final String carriedNotice;
  private final OutputSpool spool;
  private final Path outputsDir;
  private final ImageBudget images = new ImageBudget();
  /** HTML documents have a budget of their own, as large as the images'. */
  private final ImageBudget htmlDocuments = new ImageBudget();
  private boolean imagesNoted;
  /** Lines about images for stderr, held until the user's stderr is at the start of a line (two pipes race). */
  private final List<String> heldNotes = new ArrayList<>(2);
  private boolean stderrAtLineStart = true;
  private final MarkerScanner stdout;
  private final MarkerScanner stderr;
  private final long liveLimit;
  private final long startNanos = System.nanoTime();
  private long liveBytes;
  private boolean liveCapped;
  private boolean stdoutClosed;
  private boolean stderrClosed;
  private Halt halt = Halt.NONE;
  private boolean killed;
  private Integer exitValue;

  private BlockRun(ReplWorker.Execute request, String marker, String command, String carriedNotice,
      OutputSpool spool, Path outputsDir, long liveLimit) {
    this.outputsDir = outputsDir;
    this.request = request;
    this.marker = marker;
    this.command = command;
    this.carriedNotice = carriedNotice;
    this.spool = spool;
    this.stdout = new MarkerScanner(marker);
    this.stderr = new MarkerScanner(marker);
    this.liveLimit = liveLimit;
  }

  /**
   * Prepares the driver's command: the code inline when the dialect takes it so, else written to
   * {@link ReplDialect#codeFile}. Output goes to {@code sessionDir/outputs/block-<n>.txt}.
   */
  static BlockRun open(ReplConfig config, ReplDialect dialect, ReplWorker.Execute request, String carriedNotice)
      throws IOException {
    Path sessionDir = config.sessionDir().toAbsolutePath();
    String marker = MarkerScanner.newMarker();
    String command = dialect.inlineCommand(marker, request.block(), request.code());
    if (command == null) {
      Path codeFile = dialect.codeFile(sessionDir, request.block());
      Files.createDirectories(codeFile.getParent());
      Files.writeString(codeFile, request.code(), StandardCharsets.UTF_8);
      command = dialect.command(marker, codeFile);
    }
    // made only if the output outgrows the spool's buffer or the live events (see result): a file costs as much to
    // create as a trivial block takes to run
    OutputSpool spool = OutputSpool.open(sessionDir.resolve("outputs").resolve("block-" + request.block() + ".txt"),
        config.maxOutput(), SecretRedactor.ofThisProcess());
    return new BlockRun(request, marker, command, carriedNotice, spool, sessionDir.resolve("outputs"),
        config.liveOutputLimit());
  }

  ReplWorker.Execute request() {
    return request;
  }

  String marker() {
    return marker;
  }

  /** What to write to the driver to run the block. */
  String command() {
    return command;
  }

  String carriedNotice() {
    return carriedNotice;
  }

  Halt halt() {
    return halt;
  }

  void halt(Halt why) {
    halt = why;
  }

  boolean killed() {
    return killed;
  }

  void markKilled() {
    killed = true;
  }

  Integer exitValue() {
    return exitValue;
  }

  void exited(int value) {
    exitValue = value;
  }

  /**
   * Takes a chunk of a stream; returns the live replies to send: user text, the one live-limit notice, the images
   * the block showed (saved under {@code outputs/}) and a line on stderr for each one that could not be shown.
   */
  List<ReplWorker.Reply> accept(Stream stream, String chunk) {
    List<ReplWorker.Reply> replies = new ArrayList<>(2);
    MarkerScanner scanner = scanner(stream);
    String text = scanner.feed(chunk);
    while (true) {
      emit(stream, text, replies);
      List<MarkerScanner.ImageLine> shown = scanner.takeImages();
      List<MarkerScanner.HtmlLine> documents = scanner.takeHtml();
      int dropped = scanner.takeDropped();
      if (shown.isEmpty() && documents.isEmpty() && dropped == 0) {
        break;
      }
      shown.forEach(line -> image(line, replies));
      documents.forEach(line -> html(line, replies));
      for (int i = 0; i < dropped; i++) {
        images.dropOne();
      }
      text = scanner.feed(""); // what came after the image line, in order
    }
    if (!imagesNoted && markersSeen()) {
      imagesNoted = true;
      String note = images.droppedNote();
      if (note != null) {
        note(note, replies);
      }
      if (htmlDocuments.dropped() > 0) {
        note("[" + htmlDocuments.dropped() + " HTML document(s) dropped: a block shows at most "
            + ImageBudget.MAX_IMAGES + " and " + ImageBudget.MAX_BYTES / (1024 * 1024) + " MB of them]", replies);
      }
    }
    if (markersSeen() && !heldNotes.isEmpty()) {
      // the block wrote all it will: a line it left open gets its end rather than a note glued to it
      emit(Stream.STDERR, stderrAtLineStart ? "" : "\n", replies);
    }
    return replies;
  }

  /** A line about images on stderr, now if the user's stderr is at the start of a line, else once it is. */
  private void note(String line, List<ReplWorker.Reply> replies) {
    heldNotes.add(line + "\n");
    if (stderrAtLineStart) {
      emit(Stream.STDERR, "", replies);
    }
  }

  /** Checks, limits and saves one image the driver sent; what is wrong with it becomes a line on stderr. */
  private void image(MarkerScanner.ImageLine line, List<ReplWorker.Reply> replies) {
    ImageSource source;
    byte[] bytes;
    ImageHeader header;
    try {
      source = ImageSource.fromWire(line.source());
      bytes = Base64.getDecoder().decode(line.base64());
      header = ImageHeader.read(bytes);
    } catch (IllegalArgumentException e) {
      note("[image not shown: " + e.getMessage() + "]", replies);
      return;
    }
    if (!images.admit(bytes.length)) {
      return; // counted; the note comes at the end of the block
    }
    Path file = outputsDir.resolve("block-" + request.block() + "-" + images.kept() + "." + header.format().extension());
    try {
      Files.createDirectories(outputsDir);
      Files.write(file, bytes);
    } catch (IOException e) {
      note("[image not shown: cannot write " + file + ": " + e.getMessage() + "]", replies);
      return;
    }
    replies.add(new ReplWorker.Image(request.block(), new BlockImage(file, header, source)));
  }

  /** Saves one HTML document the driver sent as {@code block-<n>-<k>.html}; a failure becomes a line on stderr. */
  private void html(MarkerScanner.HtmlLine line, List<ReplWorker.Reply> replies) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(line.base64());
    } catch (IllegalArgumentException e) {
      note("[HTML not shown: " + e.getMessage() + "]", replies);
      return;
    }
    if (!htmlDocuments.admit(bytes.length)) {
      return; // counted; the note comes at the end of the block
    }
    Path file = outputsDir.resolve("block-" + request.block() + "-" + htmlDocuments.kept() + ".html");
    try {
      Files.createDirectories(outputsDir);
      Files.write(file, bytes);
    } catch (IOException e) {
      note("[HTML not shown: cannot write " + file + ": " + e.getMessage() + "]", replies);
      return;
    }
    replies.add(new ReplWorker.Html(request.block(), file, bytes.length));
  }

  /** The stream ended; text held back as a possible marker start is user output after all. */
  List<ReplWorker.Reply> closed(Stream stream) {
    if (stream == Stream.STDOUT) {
      stdoutClosed = true;
    } else {
      stderrClosed = true;
    }
    List<ReplWorker.Reply> replies = new ArrayList<>(2);
    emit(stream, scanner(stream).drain(), replies);
    if (streamsClosed() && !heldNotes.isEmpty()) {
      emit(Stream.STDERR, stderrAtLineStart ? "" : "\n", replies); // the interpreter is gone: the notes go out now
    }
    return replies;
  }

  /** Both end lines arrived: every byte the block wrote is accounted for. */
  boolean markersSeen() {
    return stdout.complete() && stderr.complete();
  }

  boolean streamsClosed() {
    return stdoutClosed && stderrClosed;
  }

  int reportedStatus() {
    return stdout.status();
  }

  boolean readStdinAtEof() {
    return stdout.flagged("stdin");
  }

  /**
   * Closes the spool and builds the result the session gets. A block whose whole output went out in its live
   * {@code output} events (not cut by the live limit nor for the model, small enough for the spool's buffer) gets no
   * output file: its result's {@code outputFile} is null and the journal holds its output.
   */
  ExecResult result(int exitCode, String notice) {
    boolean fileless = liveCapped ? closeSpool() : spool.closeWithoutFile();
    long durationMs = (System.nanoTime() - startNanos) / 1_000_000;
    return new ExecResult(exitCode, halt == Halt.TIMEOUT, halt == Halt.INTERRUPT, durationMs, spool.truncated(),
        fileless ? null : spool.file(), spool.truncatedText(), notice);
  }

  private boolean closeSpool() {
    spool.close();
    return false;
  }

  private MarkerScanner scanner(Stream stream) {
    return stream == Stream.STDOUT ? stdout : stderr;
  }

  private void emit(Stream stream, String text, List<ReplWorker.Reply> replies) {
    if (stream == Stream.STDERR) {
      if (!text.isEmpty()) {
        stderrAtLineStart = text.endsWith("\n");
      }
      if (stderrAtLineStart && !heldNotes.isEmpty()) {
        text = text + String.join("", heldNotes);
        heldNotes.clear();
      }
    }
    if (text.isEmpty()) {
      return;
    }
    spool.append(text);
    if (liveCapped) {
      return;
    }
    long bytes = utf8Length(text, text.length());
    if (liveBytes + bytes <= liveLimit) {
      liveBytes += bytes;
      replies.add(new ReplWorker.Output(request.block(), stream.label, text));
      return;
    }
    int fits = charsFitting(text, liveLimit - liveBytes);
    if (fits > 0) {
      replies.add(new ReplWorker.Output(request.block(), stream.label, text.substring(0, fits)));
    }
    liveCapped = true;
    replies.add(new ReplWorker.Output(request.block(), stream.label, "\n[live output limited to "
        + Notices.humanBytes(liveLimit) + "; the rest is in " + spool.file() + "]\n"));
  }

  private static long utf8Length(String text, int chars) {
    long bytes = 0;
    for (int i = 0; i < chars; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /** The longest prefix within {@code budget} UTF-8 bytes that does not split a surrogate pair. */
  private static int charsFitting(String text, long budget) {
    long bytes = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      int width = c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isHighSurrogate(c) ? 4 : 3;
      int chars = Character.isHighSurrogate(c) ? 2 : 1;
      if (bytes + width > budget) {
        break;
      }
      bytes += width;
      i += chars;
    }
    return Math.min(i, text.length());
  }
}
