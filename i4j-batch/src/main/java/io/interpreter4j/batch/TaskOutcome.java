package io.interpreter4j.batch;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.EventPayload;
import java.time.Duration;

/**
 * Follows one task's session events and turns them into its {@link TaskResult}: blocks run and failed, tokens,
 * the model's last answer, the last error, and how the turn ended. Pure; the {@link TaskRunner} feeds it.
 */
final class TaskOutcome {

  private int blocks;
  private int failedBlocks;
  private String lastMessage;
  private String lastError;
  private TurnStatus turnStatus;
  private String turnReason;
  private int iterations;
  private long inputTokens;
  private long outputTokens;

  /** The events that matter for a result; the session's other events are not handed over at all. */
  static boolean relevant(EventPayload payload) {
    return payload instanceof EventPayload.ExecFinished || payload instanceof EventPayload.AssistantMessage
        || payload instanceof EventPayload.TurnFinished || payload instanceof EventPayload.Error
        || payload instanceof EventPayload.Usage;
  }

  void accept(EventPayload payload) {
    if (payload instanceof EventPayload.ExecFinished f) {
      blocks++;
      if (f.exit_code() != 0 || f.timed_out()) {
        failedBlocks++;
      }
    } else if (payload instanceof EventPayload.AssistantMessage m) {
      lastMessage = m.text();
    } else if (payload instanceof EventPayload.Usage u) {
      inputTokens += u.input_tokens();
      outputTokens += u.output_tokens();
    } else if (payload instanceof EventPayload.Error e) {
      lastError = e.message();
    } else if (payload instanceof EventPayload.TurnFinished t && turnStatus == null) {
      turnStatus = t.status();
      turnReason = t.reason();
      iterations = t.iterations();
    } else if (payload instanceof EventPayload.TurnFinished t) {
      iterations = Math.max(iterations, t.iterations());
    }
  }

  /** The session refused to start the task's turn, for this reason: the task failed. */
  void refused(String reason) {
    if (turnStatus == null) {
      turnStatus = TurnStatus.FAILED;
      turnReason = reason;
    }
  }

  boolean turnFinished() {
    return turnStatus != null;
  }

  /**
   * The result.
   *
   * @param timedOutAfter the task's limit when the batch stopped it for running too long, else null
   */
  TaskResult result(String id, String session, Duration timedOutAfter, long durationMs) {
    TaskStatus status;
    String error;
    if (timedOutAfter != null) {
      status = TaskStatus.TIMEOUT;
      error = "timed out after " + describe(timedOutAfter) + " (timeout_s); its session and processes were stopped";
    } else if (turnStatus != null) {
      status = TaskStatus.fromTurn(turnStatus, false);
      error = status == TaskStatus.DONE ? null : firstNonBlank(turnReason, lastError, "turn ended " + turnStatus);
      if (turnStatus == TurnStatus.INTERRUPTED) {
        error = "the session was interrupted by someone else: " + error;
      }
    } else {
      status = TaskStatus.ERROR;
      error = "the session ended before its turn finished" + (lastError == null ? "" : ": " + lastError);
    }
    return new TaskResult(id, status, session, iterations, blocks, failedBlocks, durationMs, inputTokens,
        outputTokens, TaskResult.cut(lastMessage), error);
  }

  private static String describe(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  private static String firstNonBlank(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return null;
  }
}
