package io.interpreter4j.runtime.repl;

import java.nio.file.Path;

/**
 * How one block ended.
 *
 * @param exitCode    the block's status; 124 on timeout, 130 on interrupt, 128+n when the interpreter died of signal n,
 *                    127 when it could not be started, 1 with a notice when the block was refused or its worker
 *                    crashed (see {@link BlockEndings})
 * @param timedOut    the block ran past its timeout and was stopped
 * @param interrupted the block was stopped by {@link ReplWorker.Interrupt} (or by {@link ReplWorker.Stop})
 * @param durationMs  wall time from receiving the block to its end
 * @param truncated   the output had more than maxOutput characters, so {@code modelOutput} is head + marker + tail
 * @param outputFile  absolute path of the spool holding the whole output; null when the block never ran
 * @param modelOutput stdout and stderr interleaved as received, cut to maxOutput characters with an explicit marker
 * @param notice      null, or a sentence for the model and user about what happened to the interpreter or input
 */
public record ExecResult(int exitCode, boolean timedOut, boolean interrupted, long durationMs, boolean truncated,
    Path outputFile, String modelOutput, String notice) {
}
