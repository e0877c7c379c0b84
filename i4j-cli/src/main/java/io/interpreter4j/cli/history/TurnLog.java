package io.interpreter4j.cli.history;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.runtime.session.ConversationEdits;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The current conversation of a journal as turns, for transcripts and exports ({@code i4j show}, with and without
 * {@code --markdown}, {@code %markdown}, {@code %jupyter}): each turn is a user message and the events it caused.
 * {@code %reset} drops the turns before it, {@code %undo} the last one; a conversation loaded or resumed is kept as
 * its messages, since its events are in another journal (or none). The same rule as {@link ConversationTitle}.
 *
 * @param restoredBy the {@code conversation} event's reason that brought them ({@code load}, {@code resume}), or null
 * @param restored messages the conversation started from (load, resume, or what an undo left of them), or empty
 */
public record TurnLog(String session, String model, Instant started, String restoredFrom, String restoredBy,
                      List<EventPayload.Message> restored, List<Turn> turns) {

  /** The reason of the {@code conversation} marker {@link #transcript()} puts before restored messages. */
  public static final String EARLIER = "earlier";

  /** A user message and the events of its turn, in order. */
  public record Turn(String userText, Instant at, List<EventPayload> events) {}

  public static TurnLog of(List<Event> events) {
    String session = "";
    String model = "";
    Instant started = null;
    String restoredFrom = null;
    String restoredBy = null;
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
          restoredBy = c.reason();
        }
      } else if (p instanceof EventPayload.UserMessage m) {
        turns.add(new Turn(m.text(), e.ts(), new ArrayList<>()));
      } else if (!turns.isEmpty()) {
        turns.get(turns.size() - 1).events().add(p);
      }
    }
    return new TurnLog(session, model, started == null ? Instant.EPOCH : started, restoredFrom, restoredBy, restored,
        turns);
  }

  /** The first user message, on one line: the conversation's title (as {@code i4j sessions} says it). */
  public String title() {
    ConversationTitle title = new ConversationTitle();
    restored.stream().filter(m -> m.role().equals("user")).findFirst()
        .ifPresent(m -> title.conversation("load", m.content()));
    turns.forEach(t -> title.userMessage(t.userText()));
    return title.title();
  }

  /**
   * The conversation as events for a renderer ({@code i4j show}): the messages it was restored from (the model's
   * answers and your messages; the results of blocks sent back to the model are left out), then each turn.
   */
  public List<EventPayload> transcript() {
    List<EventPayload> out = new ArrayList<>();
    if (!restored.isEmpty()) {
      out.add(restoredFrom == null || restoredBy == null
          ? new EventPayload.Conversation(EARLIER, "earlier messages", restored)
          : new EventPayload.Conversation(restoredBy, restoredFrom, restored));
      for (EventPayload.Message m : restored) {
        if (m.role().equals("assistant")) {
          out.add(new EventPayload.AssistantMessage(m.content()));
        } else if (m.role().equals("user") && !ConversationEdits.isGenerated(m.content())) {
          out.add(new EventPayload.UserMessage(m.content()));
        }
      }
    }
    for (Turn turn : turns) {
      out.add(new EventPayload.UserMessage(turn.userText()));
      out.addAll(turn.events());
    }
    return out;
  }
}
