package io.interpreter4j.server.openai;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.util.ArrayList;
import java.util.List;

/**
 * One turn's events as the text of a chat completion: the model's text as it streams across all the turn's model
 * calls (code blocks fenced as the model wrote them), each block's output right after it as a fenced block with the
 * info string {@code output} whose last line is {@code [exit N]}, then how the turn ended. Events before the turn's
 * {@code user_message} (an earlier turn, the session's start) are passed over. Pure: the endpoint feeds it events in
 * order and sends what it returns.
 */
public final class CompletionText {

  /** What one event adds to the completion. */
  public sealed interface Piece {}

  /** More text of the assistant's message. */
  public record Content(String text) implements Piece {}

  /** The turn ended with an answer: {@code finishReason} and the tokens of its model calls. */
  public record Finished(String finishReason, long promptTokens, long completionTokens) implements Piece {}

  /** The turn ended without one (a model call failed for good, it was interrupted): {@code code} says which. */
  public record Failed(String code, String message) implements Piece {}

  private boolean inTurn;
  private boolean ended;
  /** The last character sent, to start fences on a line of their own ('\n' at the start). */
  private char last = '\n';
  private boolean openFenceUnclosed;
  private long promptTokens;
  private long completionTokens;

  /** The pieces one event adds, in order; none once the turn has ended. */
  public List<Piece> accept(Event event) {
    List<Piece> out = new ArrayList<>(2);
    if (ended) {
      return out;
    }
    EventPayload p = event.payload();
    if (!inTurn) {
      inTurn = p instanceof EventPayload.UserMessage;
      return out;
    }
    if (p instanceof EventPayload.AssistantDelta d) {
      text(out, d.text());
    } else if (p instanceof EventPayload.CodeBlockEvent c) {
      openFenceUnclosed = c.unterminated();
    } else if (p instanceof EventPayload.ExecStarted) {
      closeUnterminatedBlock(out);
      text(out, lineStart() + "```output\n");
    } else if (p instanceof EventPayload.Output o) {
      text(out, o.text());
    } else if (p instanceof EventPayload.ExecFinished f) {
      text(out, lineStart() + "[exit " + f.exit_code() + "]\n```\n\n");
    } else if (p instanceof EventPayload.Approval a && a.decision() == ApprovalDecision.DENIED) {
      closeUnterminatedBlock(out);
      text(out, lineStart() + "```output\n[not run: " + (a.reason() == null ? "denied" : oneLine(a.reason()))
          + "]\n```\n\n");
    } else if (p instanceof EventPayload.Retry r) {
      // the failed call's text was sent already and cannot be taken back: say that it starts again
      text(out, lineStart() + "\n[the model call failed and is tried again: " + oneLine(r.reason()) + "]\n\n");
    } else if (p instanceof EventPayload.Usage u) {
      promptTokens += u.input_tokens();
      completionTokens += u.output_tokens();
    } else if (p instanceof EventPayload.TurnFinished t) {
      ended = true;
      switch (t.status()) {
        case DONE -> out.add(new Finished("stop", promptTokens, completionTokens));
        case GAVE_UP, BLOCKED -> {
          text(out, lineStart() + "\n[turn ended " + t.status().wire()
              + (t.reason() == null ? "" : ": " + oneLine(t.reason())) + "]\n");
          out.add(new Finished("stop", promptTokens, completionTokens));
        }
        case FAILED, INTERRUPTED -> out.add(new Failed("turn_" + t.status().wire(), "the turn "
            + (t.status() == io.interpreter4j.core.event.TurnStatus.FAILED ? "failed" : "was interrupted")
            + (t.reason() == null ? "" : ": " + t.reason())));
      }
    }
    return out;
  }

  /** Whether the turn's {@code turn_finished} has been seen. */
  public boolean ended() {
    return ended;
  }

  private void closeUnterminatedBlock(List<Piece> out) {
    if (openFenceUnclosed) {
      openFenceUnclosed = false;
      text(out, lineStart() + "```\n");
    }
  }

  private String lineStart() {
    return last == '\n' ? "" : "\n";
  }

  private void text(List<Piece> out, String text) {
    if (!text.isEmpty()) {
      last = text.charAt(text.length() - 1);
      out.add(new Content(text));
    }
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
