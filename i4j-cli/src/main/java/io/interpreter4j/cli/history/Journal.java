package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a session's journal, {@code <data-dir>/sessions/<id>/events.jsonl}. Lines that do not parse (one still
 * being written, an event type from a newer version) are skipped: a transcript with a gap beats none.
 */
public final class Journal {

  private Journal() {}

  public static Path sessionsDir(Path dataDir) {
    return dataDir.resolve("sessions");
  }

  public static Path file(Path dataDir, String sessionId) {
    return sessionsDir(dataDir).resolve(sessionId).resolve("events.jsonl");
  }

  public static List<Event> read(Path file) {
    List<Event> events = new ArrayList<>();
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        try {
          events.add(EventCodec.fromJson(line));
        } catch (IllegalArgumentException e) {
          // a partial last line or an unknown event type
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the journal " + file + ": " + e.getMessage(), e);
    }
    return events;
  }
}
