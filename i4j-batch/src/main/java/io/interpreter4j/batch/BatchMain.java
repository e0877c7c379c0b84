package io.interpreter4j.batch;

import io.interpreter4j.batch.cli.BatchCommand;
import io.interpreter4j.batch.cli.ReplayBatchEnvironment;
import picocli.CommandLine;

/**
 * {@code i4j batch} on its own, for replay cassettes only: the tests run it in a child JVM to kill it, and it
 * runs offline demos. The {@code i4j} command adds {@link BatchCommand} with real providers.
 */
public final class BatchMain {

  private BatchMain() {}

  public static void main(String[] args) {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    // Initialised here, on one thread, before the actor system logs from several.
    org.slf4j.LoggerFactory.getILoggerFactory();
    System.exit(run(args));
  }

  public static int run(String... args) {
    CommandLine cli = new CommandLine(new BatchCommand(
        new ReplayBatchEnvironment(System.getenv(), System.out, System.err, true)));
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("i4j batch: unexpected error: " + e);
      e.printStackTrace(commandLine.getErr());
      return 1;
    });
    return cli.execute(args);
  }
}
