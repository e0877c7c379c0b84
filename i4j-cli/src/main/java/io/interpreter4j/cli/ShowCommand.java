package io.interpreter4j.cli;

import io.interpreter4j.cli.history.Journal;
import io.interpreter4j.cli.history.MarkdownExport;
import io.interpreter4j.cli.history.SessionCatalog;
import io.interpreter4j.cli.history.TurnLog;
import io.interpreter4j.cli.render.EventRenderer;
import io.interpreter4j.cli.render.PlainRenderer;
import io.interpreter4j.cli.render.TerminalRenderer;
import io.interpreter4j.cli.render.TerminalSize;
import io.interpreter4j.cli.render.inline.InlineImageMode;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code i4j show ID}: a kept session's transcript, rendered as it looked, or as markdown. */
@Command(name = "show", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"Print the transcript of a kept session: messages, code, outputs, exit codes.",
        "It shows the conversation as it stands at the end, as --markdown and 'i4j sessions' do: an exchange taken "
            + "back with %%undo, or cleared by %%reset, is not shown."})
final class ShowCommand implements Callable<Integer> {

  @Mixin DataOptions data;

  @Parameters(index = "0", arity = "0..1", paramLabel = "ID",
      description = "Session id, or a unique part of its start or end ('i4j sessions' lists them). Default: the latest.")
  String id;

  @Option(names = "--markdown", description = "Print the conversation as markdown (as %%markdown exports it).")
  boolean markdown;

  @Option(names = "--plain", description = "No colours or frames (also when stdout is not a terminal or NO_COLOR is set).")
  boolean plain;

  @Option(names = "--inline-images", paramLabel = "on|off|auto", converter = CommonOptions.InlineImagesConverter.class,
      description = "Draw the images blocks showed in the terminal (kitty, iTerm2 or sixel pictures). auto: when "
          + "stdout is a terminal known to draw them. Default: auto.")
  String inlineImages;

  @Override
  public Integer call() {
    Map<String, String> env = System.getenv();
    SessionCatalog.Entry entry;
    try {
      entry = SessionCatalog.find(data.settings().dataDir(), id);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    List<Event> events = Journal.read(entry.journal());
    TurnLog log = TurnLog.of(events);
    if (markdown) {
      System.out.print(MarkdownExport.render(log));
      return 0;
    }
    boolean rich = System.console() != null && !plain && !env.containsKey("NO_COLOR")
        && !"dumb".equals(env.getOrDefault("TERM", ""));
    TerminalSize size = rich ? TerminalSize.probe(env) : new TerminalSize(80, 24);
    try (EventRenderer renderer = rich ? new TerminalRenderer(System.out, size::columns, size::rows, true)
        : new PlainRenderer(System.out, false, true)) {
      Map<String, Object> flags = inlineImages == null ? Map.of() : Map.of(InlineImageMode.CONFIG_PATH, inlineImages);
      renderer.inlinePictures(SessionLauncher.pictures(data.config(flags), rich, env));
      // the same conversation as --markdown and 'i4j sessions' (see TurnLog): what %undo took back is not in it
      events.stream().filter(e -> e.payload() instanceof EventPayload.SessionStarted).limit(1).forEach(renderer);
      for (EventPayload p : log.transcript()) {
        renderer.accept(new Event(log.session(), 0, log.started(), p));
      }
    }
    System.out.flush();
    return 0;
  }
}
