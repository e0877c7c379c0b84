package io.interpreter4j.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One step of a session, as docs/events.md describes it: one record per event type, each with the envelope
 * ({@link #session()}, {@link #seq()}, {@link #ts()}) first and the type's own fields after it, named as in the JSON
 * protocol but in camel case. A type this version does not know (a newer runtime's) arrives as {@link Other} with its
 * fields, never as a failure.
 */
public sealed interface Event {

  /**
   * The session's id.
   *
   * @return e.g. {@code 20261202-131500-4f9a2c}
   */
  String session();

  /**
   * The event's number in its session: 1, 2, 3, ... without gaps.
   *
   * @return the sequence number
   */
  long seq();

  /**
   * When the event happened.
   *
   * @return the timestamp (UTC)
   */
  Instant ts();

  /**
   * The event's type as on the wire.
   *
   * @return e.g. {@code exec_finished}
   */
  String type();

  /**
   * The session was created.
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param model   the model's name
   * @param cwd     the working directory of the code
   */
  record SessionStarted(String session, long seq, Instant ts, String model, String cwd) implements Event {
    @Override
    public String type() {
      return "session_started";
    }
  }

  /**
   * A user message started a turn.
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param text    the message
   */
  record UserMessage(String session, long seq, Instant ts, String text) implements Event {
    @Override
    public String type() {
      return "user_message";
    }
  }

  /**
   * A piece of the model's answer as it streams (not journaled; {@link AssistantMessage} carries the whole).
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param text    the piece
   */
  record AssistantDelta(String session, long seq, Instant ts, String text) implements Event {
    @Override
    public String type() {
      return "assistant_delta";
    }
  }

  /**
   * The model's whole answer for one call.
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param text    the answer, in markdown
   */
  record AssistantMessage(String session, long seq, Instant ts, String text) implements Event {
    @Override
    public String type() {
      return "assistant_message";
    }
  }

  /**
   * A runnable block closed in the model's answer, or {@link Session#execute(String, String)} was given code.
   *
   * @param session      the session's id
   * @param seq          the event's number
   * @param ts           when
   * @param block        the block's number in the session
   * @param language     its language
   * @param code         its code
   * @param unterminated the answer ended inside the block
   */
  record CodeBlock(String session, long seq, Instant ts, int block, String language, String code,
                   boolean unterminated) implements Event {
    @Override
    public String type() {
      return "code_block";
    }
  }

  /**
   * One finding of the danger analysis.
   *
   * @param level  low, medium or high
   * @param rule   the rule's stable id
   * @param reason what it found
   */
  record RiskFlag(String level, String rule, String reason) {}

  /**
   * A person (or the {@link Approver}) is asked to approve a block; an {@link Approval} follows.
   *
   * @param session  the session's id
   * @param seq      the event's number
   * @param ts       when
   * @param block    the block's number
   * @param language its language
   * @param code     its code
   * @param risk     low, medium or high
   * @param flags    the danger analysis' findings
   */
  record ApprovalRequested(String session, long seq, Instant ts, int block, String language, String code,
                           String risk, List<RiskFlag> flags) implements Event {
    @Override
    public String type() {
      return "approval_requested";
    }
  }

  /**
   * The approval gate decided about a block.
   *
   * @param session  the session's id
   * @param seq      the event's number
   * @param ts       when
   * @param block    the block's number
   * @param decision approved, denied or edited
   * @param by       auto, user or policy
   * @param reason   why, or null
   * @param risk     low, medium or high
   * @param flags    the danger analysis' findings
   * @param code     the code that runs when edited, else null
   */
  record Approval(String session, long seq, Instant ts, int block, Decision.Kind decision, Decision.DecidedBy by,
                  String reason, String risk, List<RiskFlag> flags, String code) implements Event {
    @Override
    public String type() {
      return "approval";
    }
  }

  /**
   * A block started in its REPL worker.
   *
   * @param session  the session's id
   * @param seq      the event's number
   * @param ts       when
   * @param block    the block's number
   * @param language its language
   */
  record ExecStarted(String session, long seq, Instant ts, int block, String language) implements Event {
    @Override
    public String type() {
      return "exec_started";
    }
  }

  /**
   * Live output of a running block (its first {@code live-output-limit} bytes).
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param block   the block's number
   * @param stream  stdout or stderr
   * @param text    the output
   */
  record Output(String session, long seq, Instant ts, int block, String stream, String text) implements Event {
    @Override
    public String type() {
      return "output";
    }
  }

  /**
   * A block ended.
   *
   * @param session     the session's id
   * @param seq         the event's number
   * @param ts          when
   * @param block       the block's number
   * @param exitCode    its exit status (124 timed out, 130 interrupted, 128+n killed by signal n)
   * @param timedOut    it ran past its timeout
   * @param interrupted it was interrupted
   * @param durationMs  its wall time in milliseconds
   * @param truncated   the model got only the head and tail of its output
   * @param outputFile  the absolute path of its whole output, or null
   */
  record ExecFinished(String session, long seq, Instant ts, int block, int exitCode, boolean timedOut,
                      boolean interrupted, long durationMs, boolean truncated, String outputFile) implements Event {
    @Override
    public String type() {
      return "exec_finished";
    }
  }

  /**
   * Tokens of one model call.
   *
   * @param session      the session's id
   * @param seq          the event's number
   * @param ts           when
   * @param inputTokens  tokens sent
   * @param outputTokens tokens received
   */
  record Usage(String session, long seq, Instant ts, long inputTokens, long outputTokens) implements Event {
    @Override
    public String type() {
      return "usage";
    }
  }

  /**
   * A model call failed and is tried again.
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param attempt the next attempt's number
   * @param reason  why the call failed
   */
  record Retry(String session, long seq, Instant ts, int attempt, String reason) implements Event {
    @Override
    public String type() {
      return "retry";
    }
  }

  /**
   * A turn ended.
   *
   * @param session    the session's id
   * @param seq        the event's number
   * @param ts         when
   * @param status     how it ended
   * @param iterations the model calls of the turn
   * @param reason     why, when not done, else null
   */
  record TurnFinished(String session, long seq, Instant ts, TurnStatus status, int iterations, String reason)
      implements Event {
    @Override
    public String type() {
      return "turn_finished";
    }
  }

  /**
   * Something went wrong that the user should see (the turn may go on).
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param message what went wrong
   */
  record Error(String session, long seq, Instant ts, String message) implements Event {
    @Override
    public String type() {
      return "error";
    }
  }

  /**
   * One message of a {@link Conversation}.
   *
   * @param role    user or assistant
   * @param content the message
   */
  record Message(String role, String content) {}

  /**
   * The conversation was replaced between turns.
   *
   * @param session  the session's id
   * @param seq      the event's number
   * @param ts       when
   * @param reason   reset, undo, load or resume
   * @param source   the file or session restored from, or null
   * @param messages the conversation now, without the system prompt
   */
  record Conversation(String session, long seq, Instant ts, String reason, String source, List<Message> messages)
      implements Event {
    @Override
    public String type() {
      return "conversation";
    }
  }

  /**
   * An event of a type this version does not know, with its fields as parsed from JSON (strings, numbers, booleans,
   * lists, maps, nulls).
   *
   * @param session the session's id
   * @param seq     the event's number
   * @param ts      when
   * @param type    its type
   * @param fields  its own fields, without the envelope
   */
  record Other(String session, long seq, Instant ts, String type, Map<String, Object> fields) implements Event {}
}
