package io.interpreter4j.cli;

import io.interpreter4j.server.ServerConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code i4j}: an interactive chat. The model's answer streams in, each block is shown and (unless -y) asked
 * about, its output streams live. Ctrl-C interrupts the running block or the generation; Ctrl-D exits. Its
 * subcommands are added by {@link Main#whole()}, which a command line naming none of them does without.
 */
@Command(name = "i4j", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
        "Chat with a model that runs code on this machine, with your approval.",
        "Type a message and press Enter (a message between lines of \"\"\" spans several lines); %%help lists the "
            + "%% commands. Ctrl-C interrupts the running block or the model; Ctrl-D exits.",
        "Use 'i4j run TASK' for one task from a script."},
    footer = {"", "Examples:",
        "  i4j --model replay:examples/hello.json       offline demo, no key needed",
        "  i4j -m openai/gpt-4o-mini -y                 auto-run every block",
        "  i4j --profile local                          settings from profiles/local.conf",
        "  i4j resume                                   continue the last conversation",
        "  i4j doctor                                   what protects this machine from the code",
        "  i4j run -y --json -m replay:examples/hello.json \"say hello\"",
        "", "Configuration: docs/configuration.md. Events: docs/events.md. Terminal: docs/terminal.md."})
final class ChatCommand implements Callable<Integer> {

  @Mixin ConversationOptions options;

  @Option(names = "--dashboard", description = "Also serve the web dashboard for this session (watch and approve "
      + "in a browser; the URL is printed).")
  boolean dashboard;

  @Option(names = "--port", paramLabel = "PORT", description = "Dashboard port with --dashboard (0: any free port). "
      + "Default: 8717.")
  int port = ServerConfig.DEFAULT_PORT;

  @Override
  public Integer call() throws Exception {
    ServerConfig dashboardConfig = dashboard
        ? ServerConfig.defaults().withPort(port).withToken(ServerConfig.tokenFrom(System.getenv())) : null;
    return InteractiveChat.run(options, dashboardConfig, null);
  }
}
