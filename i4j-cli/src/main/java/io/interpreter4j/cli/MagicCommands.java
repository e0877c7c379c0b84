package io.interpreter4j.cli;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.cli.chat.MagicCommand;
import io.interpreter4j.cli.chat.ModelPrices;
import io.interpreter4j.cli.chat.ShellCommand;
import io.interpreter4j.cli.history.ConversationFile;
import io.interpreter4j.cli.history.Journal;
import io.interpreter4j.cli.history.MarkdownExport;
import io.interpreter4j.cli.history.NotebookExport;
import io.interpreter4j.cli.history.SessionCatalog;
import io.interpreter4j.cli.history.TurnLog;
import io.interpreter4j.cli.render.EventRenderer;
import io.interpreter4j.cli.render.Theme;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.providers.context.ContextWindows;
import io.interpreter4j.providers.context.TokenCounter;
import io.interpreter4j.runtime.session.ConversationRebuilder;
import io.interpreter4j.runtime.session.ProcessDefaults;
import io.interpreter4j.runtime.session.Session;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The {@code %} commands of the chat: each one runs between turns on the main thread and prints through the
 * renderer. Conversation edits go to the session ({@link Session.Reset}, {@link Session.Undo},
 * {@link Session.Restore}); exports read the session's journal.
 */
final class MagicCommands {

  static final String RESUME_NOTE = "This conversation was resumed from an earlier session (%s). Its code ran in "
      + "REPL processes that have ended: variables, imports and the shell's working directory from before are "
      + "gone. Run code again if you need its state.";
  static final String LOAD_NOTE = "This conversation was loaded from %s. Its code ran in REPL processes that have "
      + "ended: variables, imports and the shell's working directory from before are gone. Run code again if you "
      + "need its state.";

  private final CliSession session;
  private final Settings settings;
  private final EventRenderer display;
  private final Theme theme;
  private final ShellCommand shell;
  private final String profile;
  private boolean autoRun;
  /** The sandbox the session's code runs in ("none": unconfined). */
  private String sandbox;

  MagicCommands(CliSession session, Settings settings, EventRenderer display, ShellCommand shell, String profile) {
    this.session = session;
    this.settings = settings;
    this.display = display;
    this.theme = display.theme();
    this.shell = shell;
    this.profile = profile;
    this.autoRun = settings.approvalMode() == Settings.ApprovalMode.AUTO;
    this.sandbox = ProcessDefaults.containment().forMode(settings.approvalMode()).name();
  }

  /** Runs a {@code %} command line; problems are printed, never thrown. */
  void handle(String line) {
    MagicCommand command = MagicCommand.parse(line).orElseThrow();
    try {
      switch (command.name()) {
        case "%help" -> help();
        case "%reset" -> changed(session.reset(), "new conversation; the REPL processes were restarted");
        case "%undo" -> undo();
        case "%save" -> save(command.argument());
        case "%load" -> load(command.argument());
        case "%tokens" -> tokens();
        case "%verbose" -> verbose(command);
        case "%auto_run" -> autoRun(command);
        case "%info" -> info();
        case "%%" -> shell(command.argument());
        case "%markdown" -> export(command.argument(), ".md");
        case "%jupyter" -> export(command.argument(), ".ipynb");
        default -> unknown(command.name());
      }
    } catch (IOException | RuntimeException e) {
      fail(command.name() + " failed: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
    }
  }

  private void help() {
    StringBuilder sb = new StringBuilder(theme.bold("Commands") + "\n");
    for (MagicCommand.Spec spec : MagicCommand.SPECS) {
      String usage = spec.name() + (spec.arguments().isEmpty() ? "" : " " + spec.arguments());
      sb.append("  ").append(theme.cyan(usage)).append(" ".repeat(Math.max(1, 24 - usage.length())))
          .append(spec.summary()).append('\n');
    }
    sb.append(theme.dim("  A message between lines of \"\"\" can span several lines. Tab completes commands and "
        + "paths.\n  Ctrl-C interrupts the model or the running block; Ctrl-D exits."));
    display.println(sb.toString());
  }

  private void undo() {
    Session.Changed c = session.undo();
    if (c.done()) {
      String removed = c.message().replaceFirst("^removed your last message: ", "");
      ok("removed your last message: " + quote(removed) + " and everything after it");
    } else {
      fail(c.message());
    }
  }

  private void save(String argument) throws IOException {
    Path file = argument.isBlank() ? conversationsDir().resolve(session.id() + ".json") : resolve(argument);
    List<ChatMessage> history = session.history();
    ConversationFile.write(file, session.id(), session.model(), history);
    ok("saved " + (history.size() - 1) + " messages to " + file + "; "
        + (argument.isBlank() ? "%load" : "%load " + argument.strip()) + " brings them back");
  }

  private void load(String argument) throws IOException {
    Path file;
    String source;
    List<ChatMessage> messages;
    if (argument.isBlank()) {
      file = latestSaved().orElseThrow(() -> new IllegalArgumentException("nothing saved yet in "
          + conversationsDir() + "; give a file or a session id (i4j sessions lists them)"));
    } else {
      file = resolve(argument);
    }
    if (Files.isRegularFile(file)) {
      messages = ConversationFile.read(file, settings.maxOutput());
      source = file.toString();
    } else if (!argument.isBlank() && !argument.contains("/")) {
      SessionCatalog.Entry entry = SessionCatalog.find(settings.dataDir(), argument);
      messages = ConversationRebuilder.rebuild(Journal.read(entry.journal()), settings.maxOutput()).messages();
      source = entry.id();
    } else {
      throw new IllegalArgumentException("no file " + file);
    }
    Session.Changed c = session.restore(messages, "load", source, String.format(LOAD_NOTE, source));
    if (c.done()) {
      ok("loaded " + c.messages().size() + " messages from " + source
          + "; the REPL processes were restarted (their earlier state is gone)");
    } else {
      fail(c.message());
    }
  }

  private void tokens() {
    List<ChatMessage> history = session.history();
    String model = session.model();
    String name = model.contains("/") ? model.substring(model.indexOf('/') + 1) : model;
    boolean exact = !model.startsWith("replay:") && isOpenAiTokenizer(name);
    TokenCounter counter = exact ? TokenCounter.forModel(name) : TokenCounter.estimate();
    int total = counter.count(history);
    int system = counter.count(history.get(0));
    int window = ContextWindows.forModel(name);
    Session.Status status = session.status();
    StringBuilder sb = new StringBuilder();
    sb.append(theme.bold("Context  ")).append(String.format(Locale.ROOT, "%,d tokens", total))
        .append(theme.dim(String.format(Locale.ROOT, " (system prompt %,d, %d messages)", system,
            history.size() - 1)));
    if (!model.startsWith("replay:")) {
      sb.append(theme.dim(String.format(Locale.ROOT, " of a %,d-token window (%.1f%%)", window,
          100.0 * total / window)));
    }
    sb.append('\n').append(theme.dim("         " + (exact ? "counted with the model's tokenizer"
        : "estimated at about 3 characters a token"))).append('\n');
    sb.append(theme.bold("Session  ")).append(String.format(Locale.ROOT, "%,d input + %,d output tokens",
        status.inputTokens(), status.outputTokens())).append(theme.dim(" as reported for this session's model calls"))
        .append('\n');
    Optional<ModelPrices.Price> price = ModelPrices.of(model);
    sb.append(theme.bold("Cost     "));
    if (price.isEmpty()) {
      sb.append(theme.dim("unknown for " + model));
    } else if (price.get().inputPerMillion() == 0) {
      sb.append("$0").append(theme.dim(" (a local or replayed model)"));
    } else {
      ModelPrices.Price p = price.get();
      sb.append(String.format(Locale.ROOT, "about $%.4f so far", p.cost(status.inputTokens(), status.outputTokens())))
          .append(theme.dim(String.format(Locale.ROOT, "; the next call's input about $%.4f (%s at $%.2f / $%.2f "
              + "per million tokens in / out)", p.cost(total, 0), p.model(), p.inputPerMillion(),
              p.outputPerMillion())));
    }
    display.println(sb.toString(), 9);
  }

  private static boolean isOpenAiTokenizer(String name) {
    String m = name.toLowerCase(Locale.ROOT);
    return m.startsWith("gpt-") || m.startsWith("chatgpt") || m.matches("o[1-9]([-.].*)?");
  }

  private void verbose(MagicCommand command) {
    Optional<Boolean> on = command.onOff();
    if (on.isEmpty() && !command.argument().isBlank()) {
      fail("%verbose takes on or off");
      return;
    }
    display.verbose(on.orElse(!display.verbose()));
    ok("verbose is " + (display.verbose() ? "on: token usage, automatic approvals and output files are shown"
        : "off"));
  }

  private void autoRun(MagicCommand command) {
    Optional<Boolean> on = command.onOff();
    if (on.isEmpty() && !command.argument().isBlank()) {
      fail("%auto_run takes on or off");
      return;
    }
    autoRun = on.orElse(!autoRun);
    if (autoRun) {
      // probed here, on this thread, rather than by the session on its own
      ProcessDefaults.containment().forAutoRun();
    }
    Session.ModeSet set = session.autoRun(autoRun);
    sandbox = set.sandbox();
    String where = "none".equals(sandbox) ? "" : " in the " + sandbox + " sandbox";
    if (!autoRun) {
      ok("auto-run is off: you are asked before each block runs" + (where.isEmpty() ? "" : "; code stays" + where));
      return;
    }
    ok("auto-run is on: code runs without asking" + where + " (high-risk blocks are still asked about)"
        + (set.restarted() ? "; the REPL processes were restarted inside the sandbox, their state was reset" : "")
        + (set.deferred() ? "; from the end of the running turn, when the REPL processes restart inside the sandbox"
            : ""));
    if ("none".equals(sandbox)) {
      ProcessDefaults.containment().autoRunNotice().ifPresent(this::fail);
    }
  }

  private void info() {
    HostInfo host = session.host();
    String model = session.model();
    String name = model.contains("/") ? model.substring(model.indexOf('/') + 1) : model;
    Path dir = Journal.file(settings.dataDir(), session.id()).getParent();
    StringBuilder sb = new StringBuilder();
    row(sb, "model", model + (model.startsWith("replay:") ? "" : theme.dim(String.format(Locale.ROOT,
        " (context window %,d tokens)", ContextWindows.forModel(name)))));
    row(sb, "approval", autoRun ? "auto-run (high-risk blocks still ask)" : "asks before running code");
    row(sb, "sandbox", "none".equals(sandbox) ? "none: code runs unconfined" : sandbox + theme.dim(
        " · writes only in the working directory and /tmp · secrets hidden · 'i4j doctor' says more"));
    row(sb, "limits", "timeout " + EventRenderer.duration(settings.timeout().toMillis()) + " a block · "
        + settings.maxOutput() + " characters of output to the model · " + settings.maxIterations()
        + " model calls a message · " + settings.maxConsecutiveFailures() + " failures in a row");
    row(sb, "languages", String.join(", ", host == null ? Session.languages() : host.languages()));
    if (host != null) {
      row(sb, "shell", host.shell() + theme.dim(" · " + host.osName() + " " + host.osVersion() + " ("
          + host.arch() + ")"));
    }
    row(sb, "mode", settings.interceptorMode().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    row(sb, "workdir", settings.workdir().toString());
    row(sb, "session", session.id() + theme.dim("  " + dir));
    row(sb, "data", settings.dataDir().toString());
    row(sb, "profile", profile == null || profile.isBlank() ? theme.dim("none") : profile);
    row(sb, "verbose", display.verbose() ? "on" : "off");
    display.println(sb.toString().stripTrailing(), 10);
  }

  private void row(StringBuilder sb, String label, String value) {
    sb.append(theme.bold(String.format(Locale.ROOT, "%-10s", label))).append(value).append('\n');
  }

  private void shell(String command) throws IOException {
    if (command.isBlank()) {
      fail("%% takes a shell command, e.g. %% ls -la");
      return;
    }
    try {
      ShellCommand.Result r = shell.run(command, settings.workdir(), settings.timeout(),
          text -> display.accept(synthetic(new EventPayload.Output(0, StreamName.STDOUT, text))),
          text -> display.accept(synthetic(new EventPayload.Output(0, StreamName.STDERR, text))));
      display.accept(synthetic(new EventPayload.ExecFinished(0, r.exitCode(), r.timedOut(), r.interrupted(),
          r.durationMs(), false, null)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void export(String argument, String extension) throws IOException {
    Path file = argument.isBlank() ? settings.workdir().resolve("conversation-" + session.id() + extension)
        : resolve(argument);
    TurnLog log = TurnLog.of(Journal.read(Journal.file(settings.dataDir(), session.id())));
    String text = extension.equals(".md") ? MarkdownExport.render(log)
        : EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(NotebookExport.render(log)) + "\n";
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, text, StandardCharsets.UTF_8);
    ok("exported " + log.turns().size() + " turn" + (log.turns().size() == 1 ? "" : "s") + " to " + file);
  }

  private void unknown(String name) {
    String hint = MagicCommand.closest(name).map(c -> "did you mean " + c + "? ").orElse("");
    fail("unknown command " + name + "; " + hint + "%help lists the commands");
  }

  // ---- helpers ----

  private void changed(Session.Changed c, String success) {
    if (c.done()) {
      ok(success);
    } else {
      fail(c.message());
    }
  }

  private Event synthetic(EventPayload payload) {
    return new Event(session.id(), 0, Instant.now(), payload);
  }

  private Path conversationsDir() {
    return settings.dataDir().resolve("conversations");
  }

  private Optional<Path> latestSaved() throws IOException {
    if (!Files.isDirectory(conversationsDir())) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(conversationsDir())) {
      return files.filter(f -> f.toString().endsWith(".json"))
          .max(Comparator.comparing(f -> f.toFile().lastModified()));
    }
  }

  private Path resolve(String argument) {
    String a = argument.strip();
    if (a.startsWith("~/")) {
      a = System.getProperty("user.home") + a.substring(1);
    }
    return settings.workdir().resolve(a).normalize();
  }

  private static String quote(String text) {
    String first = text.strip().lines().findFirst().orElse("");
    return "\"" + (first.length() > 60 ? first.substring(0, 57) + "..." : first) + "\"";
  }

  private void ok(String text) {
    display.println(theme.green("✓ ") + text);
  }

  private void fail(String text) {
    display.println(theme.yellow("! ") + text);
  }
}
