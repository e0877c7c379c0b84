package io.interpreter4j.cli;

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
    // Initialise logging before any thread logs, so SLF4J has nothing to replay (and nothing to warn about).
    org.slf4j.LoggerFactory.getILoggerFactory();
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code; usage and configuration errors give 2. */
  static int run(String... args) {
    CommandLine cli = new CommandLine(new ChatCommand());
    cli.addSubcommand("batch", new io.interpreter4j.batch.cli.BatchCommand(new CliBatchEnvironment()));
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof ModelFactory.UsageException) {
        commandLine.getErr().println("i4j: " + e.getMessage());
        return 2;
      }
      commandLine.getErr().println("i4j: unexpected error: " + e);
      e.printStackTrace(commandLine.getErr());
      return 1;
    });
    return cli.execute(args);
  }
}
