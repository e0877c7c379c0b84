package io.interpreter4j.runtime.session;

import io.interpreter4j.core.event.EventPayload;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The session's conversation edits between turns ({@code %reset}, {@code %undo}, {@code %load}, resume): each is
 * refused while a turn runs, recorded as a {@code conversation} event, and answered with the conversation as it is
 * now. Runs on the session actor's thread.
 */
final class ConversationCommands {

  private final Conversation conversation;
  private final ReplWorkers workers;
  private final SessionEvents events;
  private final BooleanSupplier busy;
  private final Runnable touch;

  ConversationCommands(Conversation conversation, ReplWorkers workers, SessionEvents events, BooleanSupplier busy,
                       Runnable touch) {
    this.conversation = conversation;
    this.workers = workers;
    this.events = events;
    this.busy = busy;
    this.touch = touch;
  }

  /** A new conversation; the REPL processes are restarted. */
  void reset(ActorRef<Session.Changed> replyTo) {
    if (refusedWhileBusy(replyTo)) {
      return;
    }
    touch.run();
    conversation.reset();
    workers.restartAll();
    events.publish(new EventPayload.Conversation("reset", null, List.of()));
    replyTo.tell(new Session.Changed(true, "new conversation; the REPL processes were restarted",
        conversation.messages()));
  }

  /** The user's last message and everything after it are taken back; the REPL processes keep their state. */
  void undo(ActorRef<Session.Changed> replyTo) {
    if (refusedWhileBusy(replyTo)) {
      return;
    }
    var undone = conversation.undo();
    if (undone.isEmpty()) {
      replyTo.tell(new Session.Changed(false, "nothing to undo", conversation.messages()));
      return;
    }
    touch.run();
    events.publish(new EventPayload.Conversation("undo", null, ConversationEdits.forEvent(conversation.forModel())));
    replyTo.tell(new Session.Changed(true, "removed your last message: " + undone.get(), conversation.messages()));
  }

  /** Restored messages replace the conversation; the REPL processes are restarted. */
  void restore(Session.Restore m) {
    if (refusedWhileBusy(m.replyTo())) {
      return;
    }
    touch.run();
    conversation.restore(m.messages(), m.note());
    workers.restartAll();
    events.publish(new EventPayload.Conversation(m.reason(), m.source(),
        ConversationEdits.forEvent(conversation.forModel())));
    m.replyTo().tell(new Session.Changed(true, "restored " + conversation.size() + " messages",
        conversation.messages()));
  }

  private boolean refusedWhileBusy(ActorRef<Session.Changed> replyTo) {
    if (!busy.getAsBoolean()) {
      return false;
    }
    replyTo.tell(new Session.Changed(false, "a turn is still running; interrupt it (Ctrl-C) or wait for it to finish",
        conversation.messages()));
    return true;
  }
}
