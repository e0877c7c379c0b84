package io.interpreter4j.cli;

import io.interpreter4j.cli.history.Journal;
import io.interpreter4j.cli.history.SessionCatalog;
import io.interpreter4j.core.event.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code i4j resume [ID]}: continues a kept conversation in a new session. The messages are rebuilt from the old
 * session's journal; the model is told that the REPL state of the earlier blocks was not kept.
 */
@Command(name = "resume", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"Continue a kept conversation (the latest by default) in a new interactive session.",
        "It uses the session's model and working folder unless -m/--profile or --workdir say otherwise. Variables "
            + "and other REPL state of the earlier blocks are gone; the model is told so."})
final class ResumeCommand implements Callable<Integer> {

  @Mixin ConversationOptions options;

  @Parameters(index = "0", arity = "0..1", paramLabel = "ID",
      description = "Session id, or a unique part of it ('i4j sessions' lists them). Default: the latest.")
  String id;

  @Override
  public Integer call() throws Exception {
    SessionCatalog.Entry entry;
    try {
      entry = SessionCatalog.find(
          SessionLauncher.settingsOnly(options.config, options.profile, System.getenv()).dataDir(), id);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    List<Event> events = Journal.read(entry.journal());
    if (options.model == null && options.profile == null && !entry.model().isBlank()) {
      options.model = entry.model();
    }
    if (options.workdir == null) {
      events.stream().map(Event::payload)
          .filter(p -> p instanceof io.interpreter4j.core.event.EventPayload.SessionStarted)
          .map(p -> Path.of(((io.interpreter4j.core.event.EventPayload.SessionStarted) p).cwd()))
          .filter(Files::isDirectory).findFirst().ifPresent(dir -> options.workdir = dir);
    }
    return InteractiveChat.run(options, null, new InteractiveChat.Resume(entry, events));
  }
}
