package io.interpreter4j.cluster.serve;

import io.interpreter4j.cluster.journal.SessionLog;
import io.interpreter4j.server.hub.EventLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The events waiting for the {@link JournalMirror} while its writes are under way, gathered by session in the order
 * they came, and cut into batches of at most {@code maxEvents} events and {@code maxChars} characters of JSON (one
 * event longer than that is a batch of its own), each journaled by its {@link SessionLog} with one write.
 */
final class WaitingEvents {
  /** One session's events to journal with one write, in order. */
  record Batch(String session, List<SessionLog.Entry> entries) {
    long lastSeq() {
      return entries.get(entries.size() - 1).seq();
    }
  }

  private final int maxEvents;
  private final int maxChars;
  private final Map<String, List<EventLine>> bySession = new LinkedHashMap<>();
  private int count;

  WaitingEvents(int maxEvents, int maxChars) {
    if (maxEvents < 1 || maxChars < 1) {
      throw new IllegalArgumentException("a batch holds at least one event of at least one character, not "
          + maxEvents + " events of " + maxChars);
    }
    this.maxEvents = maxEvents;
    this.maxChars = maxChars;
  }

  WaitingEvents add(EventLine line) {
    bySession.computeIfAbsent(line.session(), s -> new ArrayList<>()).add(line);
    count++;
    return this;
  }

  /** How many events wait. */
  int count() {
    return count;
  }

  /** The batches, sessions in the order their first event came, each session's batches in order. */
  List<Batch> batches() {
    List<Batch> batches = new ArrayList<>();
    for (Map.Entry<String, List<EventLine>> session : bySession.entrySet()) {
      List<SessionLog.Entry> entries = new ArrayList<>();
      int chars = 0;
      for (EventLine line : session.getValue()) {
        int length = line.json().length();
        if (!entries.isEmpty() && (entries.size() == maxEvents || chars + length > maxChars)) {
          batches.add(new Batch(session.getKey(), List.copyOf(entries)));
          entries.clear();
          chars = 0;
        }
        entries.add(new SessionLog.Entry(line.seq(), line.json()));
        chars += length;
      }
      batches.add(new Batch(session.getKey(), List.copyOf(entries)));
    }
    return batches;
  }
}
