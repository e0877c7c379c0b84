package io.interpreter4j.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a session's events back from disk, in order, for a subscriber that fell behind the {@link EventFeed}'s ring:
 * the session's journal ({@code events.jsonl}: every event but {@code assistant_delta}) merged by sequence number
 * with the feed's delta file (the {@code assistant_delta} events). Both files grow while they are read; only whole
 * lines are taken, a line still being written is read on a later call. Holds two open files and one line each.
 */
final class JournalCursor implements AutoCloseable {

  private final LineFile journal;
  private final LineFile deltas;
  private Event journalNext;
  private Event deltaNext;

  JournalCursor(Path journal, Path deltas) {
    this.journal = new LineFile(journal);
    this.deltas = new LineFile(deltas);
  }

  /**
   * The first event with {@code from <= seq < below}, or null when the files hold none (now). Events before
   * {@code from} are skipped for good.
   */
  Event next(long from, long below) {
    journalNext = advance(journal, journalNext, from);
    deltaNext = advance(deltas, deltaNext, from);
    Event first = journalNext == null ? deltaNext
        : deltaNext == null ? journalNext : journalNext.seq() < deltaNext.seq() ? journalNext : deltaNext;
    if (first == null || first.seq() >= below) {
      return null;
    }
    if (first == journalNext) {
      journalNext = null;
    } else {
      deltaNext = null;
    }
    return first;
  }

  private static Event advance(LineFile file, Event peeked, long from) {
    Event e = peeked;
    while (e == null || e.seq() < from) {
      String line = file.nextLine();
      if (line == null) {
        return null;
      }
      e = line.isBlank() ? null : EventMapping.fromLine(line);
    }
    return e;
  }

  @Override
  public void close() {
    journal.close();
    deltas.close();
  }

  /** Whole lines of a file that may still be growing; a file not there yet reads as empty. */
  private static final class LineFile {
    private final Path path;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private final byte[] buffer = new byte[8192];
    private int start;
    private int end;
    private InputStream in;

    LineFile(Path path) {
      this.path = path;
    }

    /** The next whole line, or null when none is complete yet. */
    String nextLine() {
      try {
        if (in == null) {
          if (!Files.exists(path)) {
            return null;
          }
          in = Files.newInputStream(path);
        }
        while (true) {
          for (int i = start; i < end; i++) {
            if (buffer[i] == '\n') {
              partial.write(buffer, start, i - start);
              start = i + 1;
              String line = partial.toString(StandardCharsets.UTF_8);
              partial.reset();
              return line;
            }
          }
          partial.write(buffer, start, end - start);
          start = 0;
          end = 0;
          int n = in.read(buffer);
          if (n <= 0) {
            return null; // the rest of the line, if any, stays in partial until more is written
          }
          end = n;
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot read the session's events from " + path + ": " + e.getMessage(), e);
      }
    }

    void close() {
      try {
        if (in != null) {
          in.close();
        }
      } catch (IOException e) {
        // read-only: nothing is lost
      }
    }
  }
}
