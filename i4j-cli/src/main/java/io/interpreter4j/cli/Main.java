package io.interpreter4j.cli;

import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine;

/** Entry point of the {@code i4j} command. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    if (args.length == 1 && ("--version".equals(args[0]) || "-V".equals(args[0]))) {
      // answered before picocli, logging and the runtime load: asking for the version costs a JVM start only
      System.out.println(VersionProvider.version());
      return;
    }
    ConsoleLogging.quiet();
    // Initialise logging before any thread logs, so SLF4J has nothing to replay (and nothing to warn about).
    org.slf4j.LoggerFactory.getILoggerFactory();
    System.exit(run(args));
  }

  /**
   * Runs the command line and returns its exit code. A usage error (a flag or value picocli refuses) is one line and
   * a pointer to the command's help, exit 2; a configuration error ({@link ModelFactory.UsageException}) is one line,
   * exit 2; anything else is a bug: one line, exit 1, and its stack trace under {@code I4J_DEBUG}.
   */
  static int run(String... args) {
    CommandLine cli = new CommandLine(new ChatCommand());
    cli.addSubcommand("batch", new io.interpreter4j.batch.cli.BatchCommand(new CliBatchEnvironment()));
    cli.setParameterExceptionHandler(Main::usageError);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof ModelFactory.UsageException) {
        commandLine.getErr().println("i4j: " + e.getMessage());
        return 2;
      }
      commandLine.getErr().println("i4j: unexpected error: " + e
          + (System.getenv("I4J_DEBUG") == null ? " (I4J_DEBUG=1 shows where)" : ""));
      if (System.getenv("I4J_DEBUG") != null) {
        e.printStackTrace(commandLine.getErr());
      }
      return 1;
    });
    return cli.execute(args);
  }

  /** "i4j: unknown option: '--bogus' (did you mean --model?)" and "see 'i4j run --help'", as git does. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    String message = e.getMessage() == null ? "invalid arguments" : e.getMessage();
    message = message.isEmpty() ? message : message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
    if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
      message += " (did you mean " + unmatched.getSuggestions().get(0) + "?)";
    }
    err.println("i4j: " + message.replace("\n", " ").strip());
    err.println("see '" + command.getCommandSpec().qualifiedName() + " --help'");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }
}
