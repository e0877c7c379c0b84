package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.repl.BlockEndings.Ending;
import io.interpreter4j.runtime.repl.BlockRun.Halt;
import io.interpreter4j.runtime.supervision.Faults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class BlockEndingsTest {

  static final ReplDialect PYTHON = ReplDialect.PYTHON;
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final Duration GRACE = Duration.ofSeconds(2);

  @Test
  void aBlockThatEndsOnItsOwnKeepsItsStatusAndSaysNothing() {
    assertEquals(new Ending(0, null), BlockEndings.survived(PYTHON, 0, Halt.NONE, TIMEOUT, false));
    assertEquals(new Ending(3, null), BlockEndings.survived(PYTHON, 3, Halt.NONE, TIMEOUT, false));
  }

  @Test
  void aBlockStoppedWithSigintIs124Or130AndTheInterpreterKeptItsState() {
    Ending timedOut = BlockEndings.survived(PYTHON, 130, Halt.TIMEOUT, TIMEOUT, false);
    assertEquals(124, timedOut.exitCode());
    assertEquals("The block ran past its 30 s timeout and was stopped with SIGINT; the python process kept its state.",
        timedOut.notice());
    Ending interrupted = BlockEndings.survived(PYTHON, 1, Halt.INTERRUPT, TIMEOUT, false);
    assertEquals(130, interrupted.exitCode());
    assertEquals("The block was interrupted and was stopped with SIGINT; the python process kept its state.",
        interrupted.notice());
    assertEquals("The block was interrupted and was stopped with SIGINT.",
        BlockEndings.survived(PerBlockDialect.APPLESCRIPT, 1, Halt.INTERRUPT, TIMEOUT, false).notice());
  }

  @Test
  void readingClosedStdinAddsItsSentence() {
    assertEquals(new Ending(1, Notices.STDIN_CLOSED), BlockEndings.survived(PYTHON, 1, Halt.NONE, TIMEOUT, true));
    String both = BlockEndings.survived(PYTHON, 0, Halt.TIMEOUT, TIMEOUT, true).notice();
    assertTrue(both.endsWith("kept its state. " + Notices.STDIN_CLOSED), both);
  }

  @Test
  void anInterpreterThatDiesReportsItsExitValueOrSignal() {
    Ending exited = BlockEndings.died(ReplDialect.BASH, 7, Halt.NONE, false, TIMEOUT, GRACE, true);
    assertEquals(7, exited.exitCode());
    assertEquals("The bash shell exited with code 7; a new shell will start for the next block and its state "
        + "(cwd, variables, functions) was reset.", exited.notice());
    Ending killed = BlockEndings.died(PYTHON, 137, Halt.NONE, false, TIMEOUT, GRACE, true);
    assertEquals(137, killed.exitCode());
    assertTrue(killed.notice().startsWith("The python process was killed by signal 9 (SIGKILL); "), killed.notice());
    assertEquals(137, BlockEndings.died(PYTHON, null, Halt.NONE, false, TIMEOUT, GRACE, true).exitCode());
  }

  @Test
  void exit126Or127BeforeAnyBlockMeansTheLauncherCouldNotStartTheInterpreter() {
    Ending never = BlockEndings.died(PYTHON, 127, Halt.NONE, false, TIMEOUT, GRACE, false);
    assertEquals(127, never.exitCode());
    assertTrue(never.notice().contains("could not be started (its launcher exited with code 127"), never.notice());
    assertTrue(BlockEndings.died(PYTHON, 126, Halt.NONE, false, TIMEOUT, GRACE, false).notice()
        .contains("could not be started"));
    // after a block has run, 127 is what the code made the interpreter exit with
    assertTrue(BlockEndings.died(PYTHON, 127, Halt.NONE, false, TIMEOUT, GRACE, true).notice()
        .contains("exited with code 127"));
    assertTrue(BlockEndings.died(PYTHON, 3, Halt.NONE, false, TIMEOUT, GRACE, false).notice()
        .contains("exited with code 3"));
  }

  @Test
  void anInterpreterKilledAfterTheGraceIsReportedAsStoppedAndKilled() {
    Ending killed = BlockEndings.died(PYTHON, null, Halt.TIMEOUT, true, TIMEOUT, GRACE, true);
    assertEquals(124, killed.exitCode());
    assertEquals("The block ran past its 30 s timeout and did not stop within 2 s of SIGINT, so the python process "
        + "was killed; its state was lost and a new process will start for the next block.", killed.notice());
    Ending diedWhileStopping = BlockEndings.died(PYTHON, 139, Halt.INTERRUPT, false, TIMEOUT, GRACE, true);
    assertEquals(130, diedWhileStopping.exitCode());
    assertTrue(diedWhileStopping.notice().contains("signal 11 (SIGSEGV)"), diedWhileStopping.notice());
  }

  @Test
  void aBlockStoppedBeforeItsInterpreterStartedRanNothing() {
    assertEquals(new Ending(124, "The block ran past its 30 s timeout before the python process had started; "
        + "nothing ran."), BlockEndings.stoppedBeforeStart(PYTHON, Halt.TIMEOUT, TIMEOUT));
    assertEquals(130, BlockEndings.stoppedBeforeStart(PYTHON, Halt.INTERRUPT, TIMEOUT).exitCode());
  }

  @Test
  void aLaunchFailureIs127AndNamesTheCauseInsideItsWrappers() {
    Throwable failure = new CompletionException(new UncheckedIOException(new IOException("no executable python")));
    assertEquals(new Ending(127, "The python process could not be started (no executable python); nothing ran."),
        BlockEndings.cannotStart(PYTHON, failure));
  }

  @Test
  void refusedBlocksExitWithOne() {
    assertEquals(new Ending(1, "Not run: another block is still running in this python process."),
        BlockEndings.busy(PYTHON));
    Ending unprepared = BlockEndings.cannotPrepare(new IOException("disk full"));
    assertEquals(1, unprepared.exitCode());
    assertTrue(unprepared.notice().contains("disk full"), unprepared.notice());
  }

  @Test
  void aShutDownCancelsTheBlockWith130() {
    assertEquals(new Ending(130, "The block was cancelled because its python process was shut down; its state was "
        + "lost."), BlockEndings.shutDown(PYTHON));
  }

  @Test
  void aCrashedWorkerExitsWithOneAndSaysWhatCrashedAndWhatFollows() {
    Throwable fault = new Faults.InjectedFault(Faults.Point.WORKER_EXECUTING);
    assertEquals(new Ending(1, "The python worker crashed (injected fault at worker_executing); its python process "
        + "was stopped and its state is lost: the next block starts a fresh one."),
        BlockEndings.crashed(PYTHON, fault, true));
    assertEquals(new Ending(1, "The bash worker crashed (injected fault at worker_executing) and was not restarted; "
        + "its bash shell was stopped and its state is lost."), BlockEndings.crashed(ReplDialect.BASH, fault, false));
    assertEquals("The applescript worker crashed (boom); its applescript runner was stopped: the next block starts "
        + "a fresh one.", BlockEndings.crashed(PerBlockDialect.APPLESCRIPT, new IllegalStateException("boom"), true)
        .notice());
  }

  @Test
  void aCrashWithoutAMessageIsNamedByItsClass() {
    assertTrue(BlockEndings.crashed(PYTHON, new NullPointerException(), true).notice()
        .contains("crashed (NullPointerException)"));
    assertTrue(BlockEndings.crashed(PYTHON, null, true).notice().contains("crashed (cause unknown)"));
  }

  @Test
  void theHaltDecidesTheExitCode() {
    assertEquals(124, BlockEndings.exitCodeFor(Halt.TIMEOUT));
    assertEquals(130, BlockEndings.exitCodeFor(Halt.INTERRUPT));
    assertNull(BlockEndings.survived(PYTHON, 0, Halt.NONE, null, false).notice());
  }
}
