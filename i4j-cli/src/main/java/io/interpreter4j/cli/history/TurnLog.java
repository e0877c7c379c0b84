package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The current conversation of a journal as turns, for exports: each turn is a user message and the events it
 * caused. {@code %reset} drops the turns before it, {@code %undo} the last one; a conversation loaded or resumed
 * is kept as its messages, since its events are in another journal (or none).
 *
 * @param restored messages the conversation started from (load, resume, or what an undo left of them), or empty
 */
public record TurnLog(String session, String model, Instant started, String restoredFrom,
                      List<EventPayload.Message> restored, List<Turn> turns) {

  /** A user message and the events of its turn, in order. */
  public record Turn(String userText, Instant at, List<EventPayload> events) {}

  public static TurnLog of(List<Event> events) {
    String session = "";
    String model = "";
    Instant started = null;
    String restoredFrom = null;
    List<EventPayload.Message> restored = List.of();
    List<Turn> turns = new ArrayList<>();
    for (Event e : events) {
      EventPayload p = e.payload();
      if (started == null) {
        started = e.ts();
        session = e.session();
      }
      if (p instanceof EventPayload.SessionStarted s) {
        model = s.model();
      } else if (p instanceof EventPayload.Conversation c) {
        if (c.reason().equals("undo") && !turns.isEmpty()) {
          turns.remove(turns.size() - 1);
        } else if (c.reason().equals("undo")) {
          restored = c.messages();
        } else {
          turns.clear();
          restored = c.messages();
          restoredFrom = c.reason().equals("reset") ? null : c.source();
        }
      } else if (p instanceof EventPayload.UserMessage m) {
        turns.add(new Turn(m.text(), e.ts(), new ArrayList<>()));
      } else if (!turns.isEmpty()) {
        turns.get(turns.size() - 1).events().add(p);
      }
    }
    return new TurnLog(session, model, started == null ? Instant.EPOCH : started, restoredFrom, restored, turns);
  }

  /** The first user message, on one line: the conversation's title. */
  public String title() {
    for (EventPayload.Message m : restored) {
      if (m.role().equals("user")) {
        return SessionCatalog.firstLine(m.content());
      }
    }
    return turns.isEmpty() ? "(empty conversation)" : SessionCatalog.firstLine(turns.get(0).userText());
  }
}
