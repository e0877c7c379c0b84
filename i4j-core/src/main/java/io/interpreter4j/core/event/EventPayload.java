package io.interpreter4j.core.event;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of a session event, one record per event type. Field names are the JSON field names of the
 * {@code --json} protocol (see docs/events.md); {@link #type()} is the event's {@code type}.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public sealed interface EventPayload {

  /** The wire name of this event type. */
  String type();

  record SessionStarted(String model, String cwd) implements EventPayload {
    public String type() { return "session_started"; }
  }

  record UserMessage(String text) implements EventPayload {
    public String type() { return "user_message"; }
  }

  record AssistantDelta(String text) implements EventPayload {
    public String type() { return "assistant_delta"; }
  }

  record AssistantMessage(String text) implements EventPayload {
    public String type() { return "assistant_message"; }
  }

  record CodeBlockEvent(int block, String language, String code, boolean unterminated) implements EventPayload {
    public String type() { return "code_block"; }
  }

  /** One finding of the danger analysis: level low | medium | high, a stable rule id and a reason. */
  record RiskFlag(String level, String rule, String reason) {}

  /** A person is asked to approve this block (terminal prompt, dashboard card); risk: low | medium | high. */
  record ApprovalRequested(int block, String language, String code, String risk, java.util.List<RiskFlag> flags)
      implements EventPayload {
    public String type() { return "approval_requested"; }
  }

  /**
   * decision: approved | denied | edited; by: auto | user | policy; risk and flags from the danger analysis;
   * code: the code that runs when it was edited, else null.
   */
  record Approval(int block, ApprovalDecision decision, DecidedBy by, String reason, String risk,
                  java.util.List<RiskFlag> flags, String code) implements EventPayload {
    public Approval(int block, ApprovalDecision decision, DecidedBy by, String reason) {
      this(block, decision, by, reason, "low", java.util.List.of(), null);
    }

    public String type() { return "approval"; }
  }

  record ExecStarted(int block, String language) implements EventPayload {
    public String type() { return "exec_started"; }
  }

  /** stream: stdout | stderr. */
  record Output(int block, StreamName stream, String text) implements EventPayload {
    public String type() { return "output"; }
  }

  record ExecFinished(int block, int exit_code, boolean timed_out, boolean interrupted, long duration_ms,
                      boolean truncated, String output_file) implements EventPayload {
    public String type() { return "exec_finished"; }
  }

  /**
   * A picture a block showed, saved under the session's {@code outputs/} folder; its bytes never travel in events.
   * mime: image/png | image/jpeg | image/gif | image/webp; source: display | matplotlib | r | screenshot.
   */
  record Image(int block, String mime, String path, int width, int height,
               io.interpreter4j.core.image.ImageSource source) implements EventPayload {
    public String type() { return "image"; }
  }

  /**
   * An HTML document a block showed (python's display() of an object with {@code _repr_html_}), saved under the
   * session's {@code outputs/} folder as {@code block-<n>-<k>.html}; bytes: its size. The dashboard shows it in a
   * sandboxed frame; its text went to the block's output, which is what the model reads.
   */
  record Html(int block, String path, long bytes) implements EventPayload {
    public String type() { return "html"; }
  }

  /**
   * One action on the computer (computer use): action is target.action (mouse.click, keyboard.write, browser.go, ...);
   * x, y: the point in model coordinates, else null; text: what was typed or looked for (redacted like other
   * secrets), else null; ref: the browser element, else null; url: the page after a browser action, else null;
   * ok: whether it was done; result: the short text the model got.
   */
  record ComputerAction(int block, String action, Integer x, Integer y, String text, String ref, String url,
                        boolean ok, String result) implements EventPayload {
    public String type() { return "computer_action"; }
  }

  /** Tokens of one model call, as the provider reported them. */
  record Usage(long input_tokens, long output_tokens) implements EventPayload {
    public String type() { return "usage"; }
  }

  record Retry(int attempt, String reason) implements EventPayload {
    public String type() { return "retry"; }
  }

  /** status: done | failed | gave_up | interrupted | blocked. */
  record TurnFinished(TurnStatus status, int iterations, String reason) implements EventPayload {
    public String type() { return "turn_finished"; }
  }

  record Error(String message) implements EventPayload {
    public String type() { return "error"; }
  }

  /** One message of a {@link Conversation}: role user | assistant. */
  record Message(String role, String content) {}

  /**
   * The conversation was replaced between turns. reason: reset | undo | load | resume; source: where restored
   * messages came from (a file, a session id), else null; messages: the conversation now, without the system
   * prompt. A journal is rebuilt from its last such event on.
   */
  record Conversation(String reason, String source, java.util.List<Message> messages) implements EventPayload {
    public String type() { return "conversation"; }
  }
}
