package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.repl.BlockRun.Halt;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletionException;

/**
 * How a block ended, as the exit code and notice of its result: the {@link ReplWorker}'s decisions about how the
 * interpreter and the worker fared, with no process and no actor in sight.
 */
final class BlockEndings {

  /** A block the runtime failed to run to its end: refused, not prepared, or its worker crashed. */
  static final int RUNTIME_FAILURE = 1;
  /** The block ran past its timeout. */
  static final int TIMED_OUT = 124;
  /** The interpreter could not be started; nothing ran. */
  static final int CANNOT_START = 127;
  /** The block was interrupted, or cancelled because its worker was shut down. */
  static final int INTERRUPTED = 130;
  /** The exit value of an interpreter killed with SIGKILL whose exit was not seen. */
  private static final int KILLED = 128 + 9;

  /** An exit code and a sentence for the model and user (null when there is nothing to say). */
  record Ending(int exitCode, String notice) {}

  private BlockEndings() {}

  /** Both end markers arrived: the interpreter survived the block, which may have been stopped with SIGINT. */
  static Ending survived(ReplDialect dialect, int reportedStatus, Halt halt, Duration timeout, boolean readStdinAtEof) {
    int exitCode = reportedStatus;
    String notice = null;
    if (halt != Halt.NONE) {
      exitCode = exitCodeFor(halt);
      notice = Notices.stoppedAndKept(dialect, halt == Halt.TIMEOUT, timeout);
    }
    if (readStdinAtEof) {
      notice = Notices.join(notice, Notices.STDIN_CLOSED);
    }
    return new Ending(exitCode, notice);
  }

  /**
   * The interpreter is gone during the block: it exited, crashed, or was killed by the worker after SIGINT did not
   * stop it. {@code exitValue} is null when its exit was not seen (it was killed); {@code served} says whether it
   * had finished a block before, since a launcher that cannot start the interpreter also exits 126 or 127.
   */
  static Ending died(ReplDialect dialect, Integer exitValue, Halt halt, boolean killed, Duration timeout,
      Duration grace, boolean served) {
    int value = exitValue != null ? exitValue : KILLED;
    if (halt != Halt.NONE) {
      return new Ending(exitCodeFor(halt), killed
          ? Notices.stoppedAndKilled(dialect, halt == Halt.TIMEOUT, timeout, grace)
          : Notices.died(dialect, value));
    }
    boolean neverStarted = !served && (value == 126 || value == CANNOT_START);
    return new Ending(value, neverStarted ? Notices.neverStarted(dialect, value) : Notices.died(dialect, value));
  }

  /** Timed out or interrupted while the interpreter was still starting. */
  static Ending stoppedBeforeStart(ReplDialect dialect, Halt halt, Duration timeout) {
    return new Ending(exitCodeFor(halt), Notices.stoppedBeforeStart(dialect, halt == Halt.TIMEOUT, timeout));
  }

  /** The launch failed (the sandbox, the environment, the executable); {@code failure} as the launch reported it. */
  static Ending cannotStart(ReplDialect dialect, Throwable failure) {
    return new Ending(CANNOT_START, Notices.cannotStart(dialect, causeOf(failure)));
  }

  static Ending busy(ReplDialect dialect) {
    return new Ending(RUNTIME_FAILURE, Notices.busy(dialect));
  }

  static Ending cannotPrepare(Throwable failure) {
    return new Ending(RUNTIME_FAILURE, Notices.cannotPrepare(failure));
  }

  /** The worker was told to stop (or its system is ending) while the block ran. */
  static Ending shutDown(ReplDialect dialect) {
    return new Ending(INTERRUPTED, Notices.workerStopped(dialect));
  }

  /**
   * The worker threw while the block ran: its interpreter was stopped with it. {@code failure} is what it threw
   * (null if not known); {@code restarting} whether a fresh worker takes the next block or the worker stopped.
   */
  static Ending crashed(ReplDialect dialect, Throwable failure, boolean restarting) {
    return new Ending(RUNTIME_FAILURE, Notices.workerCrashed(dialect, describe(failure), restarting));
  }

  static int exitCodeFor(Halt halt) {
    return halt == Halt.TIMEOUT ? TIMED_OUT : INTERRUPTED;
  }

  /** What a launch failure is about, without the wrappers the asynchronous launch put around it. */
  static Throwable causeOf(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof UncheckedIOException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** An exception in a few words: its message, or its class when it has none. */
  static String describe(Throwable failure) {
    if (failure == null) {
      return "cause unknown";
    }
    String message = failure.getMessage();
    return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
  }
}
