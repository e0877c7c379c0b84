package io.interpreter4j.cli;

import io.interpreter4j.cli.approve.ApprovalPrompter;
import io.interpreter4j.cli.approve.ConsoleApprover;
import io.interpreter4j.cli.approve.Editor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.interpreter4j.server.ServerConfig;

/**
 * {@code i4j}: an interactive chat. The model's answer streams in, each block is shown and (unless -y) asked
 * about, its output streams live. Ctrl-C interrupts the running block or the generation; Ctrl-D exits.
 */
@Command(name = "i4j", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    subcommands = {RunCommand.class, ServeCommand.class},
    description = {
        "Chat with a model that runs code on this machine, with your approval.",
        "Type a message and press Enter. Ctrl-C interrupts the running block or the model; Ctrl-D exits.",
        "Use 'i4j run TASK' for one task from a script."},
    footer = {"", "Examples:",
        "  i4j --model replay:examples/hello.json       offline demo, no key needed",
        "  i4j -m openai/gpt-4o-mini -y                 auto-run every block",
        "  i4j run -y --json -m replay:examples/hello.json \"say hello\"",
        "", "Configuration: docs/configuration.md. Events: docs/events.md."})
final class ChatCommand implements Callable<Integer> {

  @Mixin CommonOptions options;

  @Option(names = "--dashboard", description = "Also serve the web dashboard for this session (watch and approve "
      + "in a browser; the URL is printed).")
  boolean dashboard;

  @Option(names = "--port", paramLabel = "PORT", description = "Dashboard port with --dashboard (0: any free port). "
      + "Default: 8717.")
  int port = ServerConfig.DEFAULT_PORT;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = System.getenv();
    Terminal terminal = TerminalBuilder.builder().system(true).encoding(StandardCharsets.UTF_8).build();
    PrintStream out = new PrintStream(terminal.output(), true, StandardCharsets.UTF_8);
    SessionLauncher launcher = new SessionLauncher(options, env, out);
    LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("i4j").build();
    ConsoleApprover approver = new ConsoleApprover(true);
    ApprovalPrompter prompter = new ApprovalPrompter(prompt -> readAnswer(reader, prompt), out,
        new Editor(env, true));
    boolean color = !env.containsKey("NO_COLOR") && !options.json && !"dumb".equals(terminal.getType());
    ServerConfig dashboardConfig = dashboard
        ? ServerConfig.defaults().withPort(port).withToken(ServerConfig.tokenFrom(env)) : null;
    try (CliSession session = launcher.start(options, approver, launcher.renderer(options.json, color),
        dashboardConfig)) {
      terminal.handle(Terminal.Signal.INT, sig -> session.interrupt());
      if (!options.json) {
        out.println("interpreter4j · model " + session.model() + " · "
            + (launcher.autoRun() ? "auto-run (-y)" : "asks before running code")
            + " · Ctrl-C interrupts, Ctrl-D exits");
      }
      while (true) {
        String line;
        try {
          line = reader.readLine("> ");
        } catch (UserInterruptException e) {
          out.println("(Ctrl-D exits)");
          continue;
        } catch (EndOfFileException e) {
          return 0;
        }
        if (line.isBlank()) {
          continue;
        }
        SessionLauncher.awaitTurn(session.send(line), approver, prompter);
      }
    } finally {
      terminal.close();
    }
  }

  private static Optional<String> readAnswer(LineReader reader, String prompt) {
    try {
      return Optional.of(reader.readLine(prompt));
    } catch (UserInterruptException e) {
      return Optional.of("n");
    } catch (EndOfFileException e) {
      return Optional.empty();
    }
  }
}
