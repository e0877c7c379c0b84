package io.interpreter4j.cli;

import io.interpreter4j.core.config.ConfigLoader;
import java.io.PrintWriter;
import java.util.List;
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
    System.setProperty(UNUSED_CONVERTERS_PROPERTY, UNUSED_CONVERTERS);
    if (chatOnly(args)) {
      // the chat's terminal and line editor, and its configuration's defaults, while picocli reads the command line
      ConsoleLogging.quietPekko();
      ChatTerminal.openEarly(); // quiets JLine's logging on its own thread
      onThreadOfItsOwn(ConfigLoader::readOwnDefaults);
    } else {
      ConsoleLogging.quiet();
      if (args.length > 0 && "batch".equals(args[0])) {
        // every library's defaults, which ConfigFactory keeps: the batch's actor system starts right after picocli
        onThreadOfItsOwn(com.typesafe.config.ConfigFactory::load);
      }
    }
    // Initialise logging before any thread logs, so SLF4J has nothing to replay (and nothing to warn about).
    org.slf4j.LoggerFactory.getILoggerFactory();
    int code;
    try {
      code = run(args);
    } finally {
      ChatTerminal.discardEarly(); // a command line that started no chat after all
    }
    System.exit(code);
  }

  /** picocli's system property naming the types it registers no converter for (regular expressions). */
  static final String UNUSED_CONVERTERS_PROPERTY = "picocli.converters.excludes";

  /**
   * The types picocli finds by reflection to register their converters as it builds a model, which no option of i4j
   * has (MainTest holds every option of the whole command to it): java.sql's would load 100 classes of its module,
   * 0.015 s of a chat's start.
   */
  static final String UNUSED_CONVERTERS = "java\\.sql\\..*,java\\.time\\..*";

  /**
   * Parses HOCON defaults on a thread of their own while picocli reads the command line; whoever reads them next waits
   * for them if they are still being parsed. The chat reads interpreter4j's own ({@link ConfigLoader#loadEarly}):
   * every library's ({@code ConfigFactory.load()}, 7,000 lines of Pekko's) are parsed for its actor system after the
   * prompt, since parsed here they took the second core from the prompt's thread. A batch's actor system starts
   * right after picocli, so it reads every library's here. A file that does not parse fails again where it is read,
   * with the usual message.
   */
  private static void onThreadOfItsOwn(Runnable read) {
    Thread reader = new Thread(() -> {
      try {
        read.run();
      } catch (RuntimeException badFile) {
        // read again where it is used, which says what is wrong
      }
    }, "i4j-config-read");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Runs the command line and returns its exit code. A usage error (a flag or value picocli refuses) is one line and
   * a pointer to the command's help, exit 2; a configuration error ({@link ModelFactory.UsageException}) is one line,
   * exit 2; anything else is a bug: one line, exit 1, and its stack trace under {@code I4J_DEBUG}.
   */
  static int run(String... args) {
    if (chatOnly(args)) {
      // The chat alone: picocli builds the model of no subcommand (a tenth of the prompt's start). What it refuses
      // is parsed again by the whole command, so the message is the same as without this path.
      CommandLine chat = handled(new CommandLine(new ChatCommand()));
      chat.setParameterExceptionHandler((e, a) -> {
        ChatTerminal.discardEarly(); // the terminal given back before the message
        return whole().execute(args);
      });
      return chat.execute(args);
    }
    return whole().execute(args);
  }

  /** The subcommands, as {@code i4j --help} lists them. */
  static final List<String> SUBCOMMANDS = List.of("run", "serve", "mcp", "sessions", "resume", "show", "profiles",
      "doctor", "batch");

  /**
   * Whether {@code args} can only mean the chat: no word of them names a subcommand, asks for help or the version,
   * or is an {@code @file} of further arguments.
   */
  static boolean chatOnly(String... args) {
    for (String arg : args) {
      if (SUBCOMMANDS.contains(arg) || arg.startsWith("@") || arg.equals("-h") || arg.equals("--help")
          || arg.equals("-V") || arg.equals("--version")) {
        return false;
      }
    }
    return true;
  }

  /** The whole command: the chat and its subcommands. */
  static CommandLine whole() {
    CommandLine cli = new CommandLine(new ChatCommand());
    cli.addSubcommand(new RunCommand());
    cli.addSubcommand(new ServeCommand());
    cli.addSubcommand(new McpCommand());
    cli.addSubcommand(new SessionsCommand());
    cli.addSubcommand(new ResumeCommand());
    cli.addSubcommand(new ShowCommand());
    cli.addSubcommand(new ProfilesCommand());
    cli.addSubcommand(new DoctorCommand());
    cli.addSubcommand("batch", new io.interpreter4j.batch.cli.BatchCommand(new CliBatchEnvironment()));
    cli.setParameterExceptionHandler(Main::usageError);
    return handled(cli);
  }

  private static CommandLine handled(CommandLine cli) {
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
    return cli;
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
