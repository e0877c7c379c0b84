package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.DecidedBy;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The words both renderers (and the markdown export) print for an event, so that plain text, the terminal and a
 * transcript say the same thing; each only adds its own symbols, colours and layout.
 */
public final class EventText {

  private EventText() {}

  /**
   * "denied by user: \"not on prod\"", "approved by auto", "denied: blocked by policy: ...": a person's reason is
   * quoted so that it never runs into what follows it.
   */
  static String approval(EventPayload.Approval a) {
    String reason = a.reason() == null || a.reason().isBlank() ? "" : a.reason().strip();
    boolean policy = reason.startsWith("blocked by policy");
    String who = policy ? "" : " by " + a.by();
    if (reason.isEmpty()) {
      return a.decision() + who;
    }
    return a.decision() + who + ": " + (a.by() == DecidedBy.USER ? "\"" + reason + "\"" : reason);
  }

  /** What follows the exit code: timed out, interrupted, where the full output is. */
  static List<String> execNotes(EventPayload.ExecFinished f, boolean verbose) {
    List<String> notes = new ArrayList<>();
    if (f.timed_out()) {
      notes.add("timed out");
    }
    if (f.interrupted()) {
      notes.add("interrupted");
    }
    if (f.truncated()) {
      notes.add("output cut for the model; full output in " + f.output_file());
    } else if (verbose && f.output_file() != null) {
      notes.add(f.output_file());
    }
    return notes;
  }

  static String retry(EventPayload.Retry r) {
    return "retrying the model call (attempt " + r.attempt() + "): " + r.reason();
  }

  /**
   * The end of a turn that did not finish as done: "turn ended: failed" alone when the error just shown already
   * said why (a model failure is then said once), else with the reason; null for a done turn.
   */
  public static String turnEnd(EventPayload.TurnFinished t, String lastError) {
    if (t.status() == TurnStatus.DONE) {
      return null;
    }
    String reason = t.reason() == null ? "" : t.reason().strip();
    boolean said = reason.isEmpty() || lastError != null && lastError.contains(reason);
    return "turn ended: " + t.status() + (said ? "" : " — " + reason);
  }

  /** How a transcript tells of a {@code conversation} event. */
  static String conversationChange(EventPayload.Conversation c) {
    return switch (c.reason()) {
      case "reset" -> "new conversation (%reset)";
      case "undo" -> "last message undone (%undo)";
      case "load" -> "conversation loaded from " + c.source() + " (" + c.messages().size() + " messages)";
      case "resume" -> "resumed from session " + c.source() + " (" + c.messages().size() + " messages)";
      case "earlier" -> "continues from " + c.source() + " (" + c.messages().size() + " messages)";
      default -> "conversation replaced (" + c.reason() + ")";
    };
  }
}
