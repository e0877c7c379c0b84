package io.interpreter4j.cli.mcp;

import io.interpreter4j.core.event.ApprovalDecision;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.output.OutputTruncator;
import io.interpreter4j.core.safety.SecretRedactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of one tool call's turn folded into its result: for {@code execute} the block's output (cut to
 * {@code max-output} head and tail) and {@code exit code: N}, or why it did not run; for {@code run_task} the final
 * answer and the blocks that ran. Pure but for reading a block's output file, which holds more than the live events.
 */
public final class CallRecord {

  /** A block of the turn: its number, language, and (once it ran) exit code, timeout, interruption, output file. */
  public record Block(int index, String language, Integer exitCode, boolean timedOut, boolean interrupted,
                      String outputFile) {}

  private final List<Block> blocks = new ArrayList<>();
  private final StringBuilder liveOutput = new StringBuilder();
  private String refusal;
  private String error;
  private String answer;
  private TurnStatus status;
  private String reason;

  public void accept(Event event) {
    EventPayload p = event.payload();
    if (p instanceof EventPayload.CodeBlockEvent c) {
      blocks.add(new Block(c.block(), c.language(), null, false, false, null));
    } else if (p instanceof EventPayload.Output o) {
      liveOutput.append(o.text());
    } else if (p instanceof EventPayload.ExecFinished f) {
      replace(f.block(), b -> new Block(b.index(), b.language(), f.exit_code(), f.timed_out(), f.interrupted(),
          f.output_file()));
    } else if (p instanceof EventPayload.Approval a && a.decision() == ApprovalDecision.DENIED) {
      refusal = a.reason();
    } else if (p instanceof EventPayload.Error e) {
      error = e.message();
    } else if (p instanceof EventPayload.AssistantMessage m) {
      answer = m.text();
    } else if (p instanceof EventPayload.TurnFinished t) {
      status = t.status();
      reason = t.reason();
    }
  }

  public boolean finished() {
    return status != null;
  }

  public TurnStatus status() {
    return status;
  }

  public List<Block> blocks() {
    return List.copyOf(blocks);
  }

  /** Whether an {@code execute} result is an error: a non-zero exit, a timeout, a refusal, no run at all. */
  public boolean executeFailed() {
    Block b = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
    return b == null || b.exitCode() == null || b.exitCode() != 0 || b.timedOut() || status != TurnStatus.DONE;
  }

  /** The text of an {@code execute} result. */
  public String executeText(int maxOutput) {
    Block b = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
    if (b == null || b.exitCode() == null) {
      String why = refusal != null ? refusal : error != null ? error : reason != null ? reason : "it was not run";
      return "refused, not run: " + why;
    }
    String output = OutputTruncator.truncate(output(b), maxOutput, b.outputFile());
    StringBuilder sb = new StringBuilder(output);
    if (!output.isEmpty() && !output.endsWith("\n")) {
      sb.append('\n');
    }
    sb.append("exit code: ").append(b.exitCode());
    if (b.timedOut()) {
      sb.append(" (timed out)");
    } else if (b.interrupted()) {
      sb.append(" (interrupted)");
    }
    return sb.toString();
  }

  /** Whether a {@code run_task} result is an error: the turn did not end {@code done}. */
  public boolean taskFailed() {
    return status != TurnStatus.DONE;
  }

  /** The text of a {@code run_task} result: the final answer, then the blocks that ran. */
  public String taskText() {
    StringBuilder sb = new StringBuilder(answer == null ? "" : answer.strip());
    if (status != TurnStatus.DONE) {
      sb.append(sb.isEmpty() ? "" : "\n\n").append("The task ended ").append(status == null ? "unfinished"
          : status.wire()).append(reason == null ? "" : ": " + reason);
    }
    if (!blocks.isEmpty()) {
      sb.append("\n\nBlocks run:");
      for (Block b : blocks) {
        sb.append("\n- block ").append(b.index()).append(" (").append(b.language()).append("): ")
            .append(b.exitCode() == null ? "not run" : "exit code " + b.exitCode() + (b.timedOut() ? ", timed out"
                : b.interrupted() ? ", interrupted" : ""));
      }
    }
    return sb.toString();
  }

  /** The block's whole output from its file, secrets redacted as in the events; the live output when it cannot be read. */
  private String output(Block b) {
    if (b.outputFile() != null) {
      try {
        return SecretRedactor.ofThisProcess().redact(Files.readString(Path.of(b.outputFile())));
      } catch (IOException | RuntimeException e) {
        // gone or unreadable: what was shown live is what there is
      }
    }
    return liveOutput.toString();
  }

  private void replace(int index, java.util.function.UnaryOperator<Block> change) {
    for (int i = 0; i < blocks.size(); i++) {
      if (blocks.get(i).index() == index) {
        blocks.set(i, change.apply(blocks.get(i)));
      }
    }
  }
}
