package io.interpreter4j.core.output;

import io.interpreter4j.core.safety.SecretRedactor;
import io.interpreter4j.core.safety.StreamRedactor;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Keeps the whole output of one block in a file while holding only a bounded head and tail in memory, so
 * code that prints gigabytes costs disk, not heap, and the model still gets a useful {@link #truncatedText()}.
 * The file is created lazily: output stays in a bounded buffer until it outgrows it, and a block with little
 * output costs one write of its file at {@link #close()} (no open file, no big buffer while it runs). Creating a
 * file can take far longer than writing it (hundreds of microseconds on a busy disk), so it can be done in the
 * background while the block runs ({@link #open(Path, int, Executor)}).
 * The file holds the output with secrets redacted ({@link StreamRedactor}, this process's secrets by default), as
 * the events show it; the in-memory head and tail keep the text as it came.
 * Not thread-safe: one owner appends.
 */
public final class OutputSpool implements Closeable {

  /** Characters held in memory before the file is opened and written through a buffer of this size. */
  private static final int BUFFER_CHARS = 1 << 16;

  private final Path file;
  private final int maxOutput;
  private final StreamRedactor redactor;
  private final StringBuilder head;
  private final TailRing tail;
  /** Output not written yet while the file is not open; null once it is (or after an error). */
  private StringBuilder pending = new StringBuilder();
  private Writer writer;
  /** The file being created in the background, or null to create it when first written. */
  private CompletableFuture<OutputStream> creating;
  private IOException error;
  private long totalChars;
  /** Closed by {@link #closeWithoutFile()} before any file was made: there is none. */
  private boolean fileless;

  private OutputSpool(Path file, int maxOutput, SecretRedactor secrets) {
    this.file = file;
    this.maxOutput = Math.max(0, maxOutput);
    this.redactor = new StreamRedactor(secrets);
    int headCapacity = OutputTruncator.headLength(this.maxOutput);
    this.head = new StringBuilder(Math.min(headCapacity, 1 << 16));
    this.tail = new TailRing(this.maxOutput - headCapacity);
  }

  /**
   * A spool for {@code file}, which is created (or replaced), with its parent folders, by the first write: when
   * the output outgrows the in-memory buffer, else at {@link #close()} (also when there was no output at all).
   */
  public static OutputSpool open(Path file, int maxOutput) throws IOException {
    return open(file, maxOutput, SecretRedactor.ofThisProcess());
  }

  /** As {@link #open(Path, int)}, redacting {@code secrets} in the file. */
  public static OutputSpool open(Path file, int maxOutput, SecretRedactor secrets) {
    return new OutputSpool(file.toAbsolutePath(), maxOutput, secrets);
  }

  /** As {@link #open(Path, int)}, with the file created (empty) on {@code create} at once, while output comes. */
  public static OutputSpool open(Path file, int maxOutput, Executor create) {
    OutputSpool spool = new OutputSpool(file.toAbsolutePath(), maxOutput, SecretRedactor.ofThisProcess());
    spool.creating = CompletableFuture.supplyAsync(() -> {
      try {
        return Files.newOutputStream(spool.createParent());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, create);
    return spool;
  }

  /** Appends to the file and to the in-memory head/tail. A write error stops the file, not the spool. */
  public void append(CharSequence text) {
    if (text.isEmpty()) {
      return;
    }
    totalChars += text.length();
    int headRoom = OutputTruncator.headLength(maxOutput) - head.length();
    int intoHead = Math.min(Math.max(0, headRoom), text.length());
    head.append(text, 0, intoHead);
    tail.append(text, intoHead);
    write(redactor.feed(text));
  }

  private void write(String text) {
    if (text.isEmpty()) {
      return;
    }
    try {
      if (pending != null) {
        pending.append(text);
        if (pending.length() > BUFFER_CHARS) {
          writer = new BufferedWriter(new OutputStreamWriter(fileStream(), StandardCharsets.UTF_8), BUFFER_CHARS);
          writer.append(pending);
          pending = null;
        }
      } else if (writer != null) {
        writer.append(text);
      }
    } catch (IOException e) {
      failed(e);
    }
  }

  /** The absolute path of the spool file (not made if {@link #fileless()}). */
  public Path file() {
    return file;
  }

  /** Whether {@link #closeWithoutFile()} left the file out. */
  public boolean fileless() {
    return fileless;
  }

  /** Characters appended so far. */
  public long totalChars() {
    return totalChars;
  }

  /** Whether more than {@code maxOutput} characters were appended. */
  public boolean truncated() {
    return totalChars > maxOutput;
  }

  /** The first write or close error, or null; after one, the file holds only what came before it. */
  public IOException error() {
    return error;
  }

  /** The whole text when it fits in {@code maxOutput}, else head + truncation marker naming the file + tail. */
  public String truncatedText() {
    if (!truncated()) {
      return head + tail.contents();
    }
    return OutputTruncator.join(head.toString(), totalChars, file.toString(), tail.contents());
  }

  /** Writes (or flushes) and closes the file; the in-memory head and tail stay readable. Idempotent. */
  @Override
  public void close() {
    write(redactor.finish());
    if (pending != null) {
      try (OutputStream out = fileStream()) {
        out.write(pending.toString().getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        failed(e);
      }
      pending = null;
    }
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException e) {
        failed(e);
      }
      writer = null;
    }
  }

  /**
   * Closes the spool without making its file when none is made yet (the output fit in the in-memory buffer, nothing
   * was cut): for output whose whole text is kept elsewhere (a block's {@code output} events in the journal). A file
   * costs as much to create as a trivial block takes to run. Otherwise, or when the output was cut, the same as
   * {@link #close()}. Returns whether the file was left out.
   */
  public boolean closeWithoutFile() {
    if (pending != null && creating == null && writer == null && error == null && !truncated()) {
      redactor.finish();
      pending = null;
      fileless = true;
      return true;
    }
    close();
    return false;
  }

  /** The file, open for writing from its start: the one created in the background, else created now. */
  private OutputStream fileStream() throws IOException {
    if (creating == null) {
      return Files.newOutputStream(createParent());
    }
    try {
      return creating.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      throw new IOException("cannot create " + file + ": " + cause, cause);
    }
  }

  /** The file, after making sure its folder exists (a stat, not an exception, when it does). */
  private Path createParent() throws IOException {
    Path parent = file.getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      Files.createDirectories(parent);
    }
    return file;
  }

  private void failed(IOException e) {
    if (error == null) {
      error = e;
    }
    pending = null;
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException ignored) {
        // already failing; the first error is the one worth reporting
      }
    }
    writer = null;
  }

  /** The last {@code capacity} characters seen, in a fixed array. */
  private static final class TailRing {
    private final char[] ring;
    private int next;
    private boolean wrapped;

    TailRing(int capacity) {
      this.ring = new char[capacity];
    }

    void append(CharSequence text, int from) {
      if (ring.length == 0) {
        return;
      }
      // only the last ring.length characters of a big chunk can survive, so skip the rest up front
      int start = Math.max(from, text.length() - ring.length);
      for (int i = start; i < text.length(); i++) {
        ring[next] = text.charAt(i);
        next++;
        if (next == ring.length) {
          next = 0;
          wrapped = true;
        }
      }
    }

    String contents() {
      if (!wrapped) {
        return new String(ring, 0, next);
      }
      return new String(ring, next, ring.length - next) + new String(ring, 0, next);
    }
  }
}
