package io.interpreter4j.cli;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.cli.approve.ApprovalPrompter;
import io.interpreter4j.cli.approve.ConsoleApprover;
import io.interpreter4j.cli.approve.Editor;
import io.interpreter4j.cli.render.EventRenderer;
import io.interpreter4j.cli.render.JsonEventPrinter;
import io.interpreter4j.cli.render.TerminalSize;
import io.interpreter4j.runtime.approval.Approver;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import sun.misc.Signal;

/** {@code i4j run TASK}: one task, to the end of its turn, then exit with a code a script can act on. */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
        "Run one task to the end of its turn and exit.",
        "Exit codes: 0 done, 1 failed or gave up, 2 usage or configuration error, 130 interrupted.",
        "Without -y each block needs approval: on a terminal you are asked y/n/e; otherwise answers are read "
            + "as lines from stdin (y, n or e), so a script can pipe them."},
    footer = {"", "Example:", "  i4j run -y --json --model replay:examples/hello.json \"say hello\""})
final class RunCommand implements Callable<Integer> {

  @Mixin ConversationOptions options;

  @Parameters(index = "0", paramLabel = "TASK", description = "The task for the model; - reads it from stdin.")
  String task;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = System.getenv();
    PrintStream out = System.out;
    SessionLauncher launcher = new SessionLauncher(options, env, out);
    BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String text = task;
    boolean stdinUsed = false;
    if ("-".equals(task)) {
      text = readAll(stdin);
      stdinUsed = true;
      if (text.isBlank()) {
        throw new ModelFactory.UsageException("no task on stdin (i4j run - reads the task from standard input)");
      }
    }
    ConsoleApprover approver = null;
    ApprovalPrompter prompter = null;
    Approver sessionApprover = Approver.NOBODY;
    boolean terminal = System.console() != null;
    TerminalSize size = terminal ? TerminalSize.probe(env) : new TerminalSize(80, 24);
    EventRenderer display = launcher.display(options, terminal, size::columns, size::rows);
    // Under -y a terminal user is still asked about high-risk blocks; piped input is never asked under -y.
    if (!stdinUsed && (!launcher.autoRun() || terminal)) {
      approver = new ConsoleApprover(terminal);
      sessionApprover = approver;
      // In --json mode stdout carries events only, so the question goes to stderr.
      PrintStream promptOut = options.json ? System.err : out;
      boolean echo = !terminal;
      prompter = new ApprovalPrompter(prompt -> readLine(stdin, promptOut, prompt, echo), promptOut,
          new Editor(env, System.console() != null),
          block -> {
            if (!options.json) {
              display.awaitApprovalShown(block, java.time.Duration.ofSeconds(2));
            }
          });
    }
    try (display; CliSession session = launcher.start(options, sessionApprover,
        options.json ? new JsonEventPrinter(out) : display)) {
      AtomicInteger interrupts = new AtomicInteger();
      Signal.handle(new Signal("INT"), sig -> {
        if (interrupts.incrementAndGet() == 1) {
          session.interrupt();
        } else {
          Runtime.getRuntime().halt(130);
        }
      });
      TurnStatus status = SessionLauncher.awaitTurn(session.send(text), approver, prompter);
      if (status == TurnStatus.FAILED && (options.json || !terminal)) {
        // scripts read the cause here, whatever stdout carries (events under --json); on a terminal it was just shown
        System.err.println("i4j: the task failed: " + (session.lastReason() == null ? "see the events above"
            : session.lastReason()));
      }
      return CliSession.exitCode(status);
    }
  }

  /** Shows the prompt and reads one answer; a piped answer is echoed so the transcript reads naturally. */
  private static Optional<String> readLine(BufferedReader in, PrintStream out, String prompt, boolean echo) {
    synchronized (out) {
      out.print(prompt);
      out.flush();
    }
    try {
      String line = in.readLine();
      if (echo) {
        synchronized (out) {
          out.println(line == null ? "(end of input)" : line);
        }
      }
      return Optional.ofNullable(line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String readAll(BufferedReader in) throws IOException {
    StringBuilder sb = new StringBuilder();
    char[] buf = new char[8192];
    int n;
    while ((n = in.read(buf)) > 0) {
      sb.append(buf, 0, n);
    }
    return sb.toString().strip();
  }
}
