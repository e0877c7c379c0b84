package io.interpreter4j.runtime.repl;

import java.time.Duration;
import java.util.Map;

/** The sentences that tell the model and the user what happened to an interpreter, in one place. */
final class Notices {

  static final String STDIN_CLOSED = "The code tried to read standard input, which is closed here (end-of-file): "
      + "pass input as arguments or files instead.";

  private static final Map<Integer, String> SIGNALS = Map.ofEntries(
      Map.entry(1, "SIGHUP"), Map.entry(2, "SIGINT"), Map.entry(3, "SIGQUIT"), Map.entry(4, "SIGILL"),
      Map.entry(5, "SIGTRAP"), Map.entry(6, "SIGABRT"), Map.entry(7, "SIGBUS"), Map.entry(8, "SIGFPE"),
      Map.entry(9, "SIGKILL"), Map.entry(10, "SIGUSR1"), Map.entry(11, "SIGSEGV"), Map.entry(12, "SIGUSR2"),
      Map.entry(13, "SIGPIPE"), Map.entry(14, "SIGALRM"), Map.entry(15, "SIGTERM"), Map.entry(24, "SIGXCPU"),
      Map.entry(25, "SIGXFSZ"));

  private Notices() {}

  /** The interpreter ended during a block: by exit code, or by signal when the JDK reports 128+n. */
  static String died(ReplDialect dialect, int exitValue) {
    return "The " + dialect.processName() + " " + howItEnded(exitValue) + "; " + dialect.stateLostTail();
  }

  /** Null for a runner of one process per block: the next block loses nothing. */
  static String diedBetweenBlocks(ReplDialect dialect, int exitValue) {
    if (!dialect.keepsState()) {
      return null;
    }
    return "The " + dialect.processName() + " " + howItEnded(exitValue) + " between blocks; this block ran in a new "
        + dialect.processNoun() + ", so " + dialect.earlierState() + " was reset.";
  }

  /** Null for a runner of one process per block: the next block loses nothing. */
  static String idleRestart(ReplDialect dialect, Duration idle) {
    if (!dialect.keepsState()) {
      return null;
    }
    return "The " + dialect.processName() + " had been idle for " + human(idle) + " and was stopped; this block ran "
        + "in a new " + dialect.processNoun() + ", so " + dialect.earlierState() + " was reset.";
  }

  static String stoppedAndKept(ReplDialect dialect, boolean timedOut, Duration timeout) {
    if (!dialect.keepsState()) {
      return cause(timedOut, timeout) + " and was stopped with SIGINT.";
    }
    return cause(timedOut, timeout) + " and was stopped with SIGINT; the " + dialect.processName()
        + " kept its state.";
  }

  static String stoppedAndKilled(ReplDialect dialect, boolean timedOut, Duration timeout, Duration grace) {
    return cause(timedOut, timeout) + " and did not stop within " + human(grace) + " of SIGINT, so the "
        + dialect.processName() + " was killed; " + dialect.stateLostTail();
  }

  static String stoppedBeforeStart(ReplDialect dialect, boolean timedOut, Duration timeout) {
    return cause(timedOut, timeout) + " before the " + dialect.processName() + " had started; nothing ran.";
  }

  static String workerStopped(ReplDialect dialect) {
    return "The block was cancelled because its " + dialect.processName() + " was shut down"
        + (dialect.keepsState() ? "; its state was lost." : ".");
  }

  /** The worker actor threw during the block; its interpreter was stopped with it. */
  static String workerCrashed(ReplDialect dialect, String reason, boolean restarting) {
    String lost = dialect.keepsState() ? " and its state is lost" : "";
    return restarting
        ? "The " + dialect.name() + " worker crashed (" + reason + "); its " + dialect.processName() + " was stopped"
            + lost + ": the next block starts a fresh one."
        : "The " + dialect.name() + " worker crashed (" + reason + ") and was not restarted; its "
            + dialect.processName() + " was stopped" + lost + ".";
  }

  static String busy(ReplDialect dialect) {
    return "Not run: another block is still running in this " + dialect.processName() + ".";
  }

  static String cannotStart(ReplDialect dialect, Throwable failure) {
    return "The " + dialect.processName() + " could not be started (" + failure.getMessage() + "); nothing ran.";
  }

  static String neverStarted(ReplDialect dialect, int exitValue) {
    return "The " + dialect.processName() + " could not be started (its launcher exited with code " + exitValue
        + "; the output says why); nothing ran.";
  }

  static String cannotPrepare(Throwable failure) {
    return "The block could not be prepared (" + failure + "); nothing ran.";
  }

  static String join(String first, String second) {
    if (first == null) {
      return second;
    }
    return second == null ? first : first + " " + second;
  }

  /** "2 s", "500 ms", "10 min", "1 MiB"-style sizes for the sentences. */
  static String human(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0 && ms >= 60_000) {
      return ms / 60_000 + " min";
    }
    if (ms % 1000 == 0 && ms >= 1000) {
      return ms / 1000 + " s";
    }
    return ms + " ms";
  }

  static String humanBytes(long bytes) {
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
      return bytes / (1024 * 1024) + " MiB";
    }
    if (bytes >= 1024 && bytes % 1024 == 0) {
      return bytes / 1024 + " KiB";
    }
    return bytes + " bytes";
  }

  private static String cause(boolean timedOut, Duration timeout) {
    return timedOut ? "The block ran past its " + human(timeout) + " timeout" : "The block was interrupted";
  }

  private static String howItEnded(int exitValue) {
    int signal = exitValue - 128;
    if (signal > 0 && signal < 64) {
      String name = SIGNALS.get(signal);
      return "was killed by signal " + signal + (name == null ? "" : " (" + name + ")");
    }
    return "exited with code " + exitValue;
  }
}
