package io.interpreter4j.api;

import java.nio.file.Path;

/**
 * How one block ended, run by {@link Session#execute(String, String)} or by the model in a turn
 * ({@link BlockRun#result()}).
 *
 * @param block      the block's number in its session (0 when it was refused before getting one)
 * @param ran        whether the code ran (false: refused, denied, unknown language, or stopped before it started)
 * @param decision   the approval gate's verdict, null when the block never reached the gate
 * @param exitCode   the code's exit status: 0 ok, 124 timed out, 130 interrupted, 128+n killed by signal n; -1 when
 *                   it did not run
 * @param output     what the code printed, stdout and stderr interleaved (for {@code execute}: cut to
 *                   {@code max-output} characters, head and tail; in a turn: the live output, the first
 *                   {@code live-output-limit} bytes); the whole output is in {@code outputFile}
 * @param timedOut   it ran past the block timeout and was stopped
 * @param interrupted it was stopped by {@link Session#interrupt()} or by closing the session
 * @param truncated  {@code output} is not the whole output
 * @param durationMs wall time of the run in milliseconds
 * @param outputFile the file holding the whole output; null when it did not run, or when {@code output} is the
 *                   whole output (no file is made for it)
 * @param reason     why it did not run, or a notice about the interpreter (restarted, crashed), else null
 */
public record ExecResult(int block, boolean ran, Decision decision, int exitCode, String output, boolean timedOut,
                         boolean interrupted, boolean truncated, long durationMs, Path outputFile, String reason) {

  /**
   * Whether the code ran and exited 0.
   *
   * @return true for a successful run
   */
  public boolean ok() {
    return ran && exitCode == 0 && !timedOut && !interrupted;
  }
}
