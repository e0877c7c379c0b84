package io.interpreter4j.cli;

import io.interpreter4j.core.event.TurnStatus;

import com.typesafe.config.Config;
import io.interpreter4j.cli.approve.ApprovalPrompter;
import io.interpreter4j.cli.approve.ConsoleApprover;
import io.interpreter4j.cli.render.JsonEventPrinter;
import io.interpreter4j.cli.render.EventRenderer;
import io.interpreter4j.cli.render.PlainRenderer;
import io.interpreter4j.cli.render.TerminalRenderer;
import io.interpreter4j.cli.render.inline.ImageProtocol;
import io.interpreter4j.cli.render.inline.InlineImageMode;
import io.interpreter4j.cli.render.inline.InlinePictures;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.providers.Models;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.session.SessionManager;
import java.io.PrintStream;
import java.nio.file.Files;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.repl.LanguageRegistry;
import io.interpreter4j.runtime.computer.ComputerSettings;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.computer.browser.BrowserActor;
import io.interpreter4j.runtime.computer.browser.BrowserSettings;
import io.interpreter4j.runtime.repl.PythonForkServer;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import io.interpreter4j.runtime.session.ProcessDefaults;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import io.interpreter4j.server.approval.FirstAnswerApprover;
import io.interpreter4j.server.hub.SessionHub;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;

/** The steps every session command shares: settings, model, actor system, renderer, approver, session. */
final class SessionLauncher {

  final Settings settings;
  /** The configuration: for a chat, as read before its prompt ({@link #prepareForPrompt}); see {@link #whole()}. */
  final Config config;
  private final Supplier<Config> whole;
  final Map<String, String> env;
  final PrintStream out;

  SessionLauncher(CommonOptions options, Map<String, String> env, PrintStream out) {
    this(prepare(options, env), out);
  }

  /** A launcher from what {@link #prepare} read, writing to {@code out}. */
  SessionLauncher(Prepared prepared, PrintStream out) {
    this.env = prepared.env();
    this.config = prepared.config();
    this.whole = prepared.whole();
    this.settings = prepared.settings();
    this.out = out;
  }

  /**
   * The configuration and settings of a session command, and its environment; {@code whole} gives the configuration
   * with every library's defaults (for the actor system), {@code config} itself unless it was read for a prompt.
   */
  record Prepared(Config config, Supplier<Config> whole, Settings settings, Map<String, String> env) {}

  /**
   * Reads the configuration (flags, environment, profile, file), checks the working and data folders, sets the
   * process's defaults (sandbox, languages, whose probes start now) and says when auto-run runs unconfined: all a
   * launcher needs but its output stream, so that a chat can do it while its terminal opens.
   */
  static Prepared prepare(CommonOptions options, Map<String, String> env) {
    return prepare(options, env, false);
  }

  /**
   * As {@link #prepare(CommonOptions, Map)} for a chat's prompt: the configuration read over interpreter4j's own
   * defaults ({@link ConfigLoader#loadEarly}), the same settings, warnings and errors; every library's defaults are
   * read for the actor system when it starts ({@link #whole()}).
   */
  static Prepared prepareForPrompt(CommonOptions options, Map<String, String> env) {
    return prepare(options, env, true);
  }

  private static Prepared prepare(CommonOptions options, Map<String, String> env, boolean forPrompt) {
    Config config;
    Supplier<Config> whole;
    Settings settings;
    try {
      Config profile = Profiles.layer(options.profile, env);
      if (forPrompt) {
        ConfigLoader.Early early = ConfigLoader.loadEarly(options.config, profile, options.overrides(), env,
            ConfigWarnings.stderr("i4j"));
        config = early.config();
        whole = early.whole();
      } else {
        Config read = ConfigLoader.load(options.config, profile, options.overrides(), env,
            ConfigWarnings.stderr("i4j"));
        config = read;
        whole = () -> read;
      }
      settings = Settings.from(config, env);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    if (!Files.isDirectory(settings.workdir())) {
      throw new ModelFactory.UsageException("working directory not found: " + settings.workdir()
          + " (give an existing folder to --workdir)");
    }
    try {
      Files.createDirectories(settings.dataDir().resolve("sessions"));
    } catch (java.io.IOException e) {
      throw new ModelFactory.UsageException("cannot keep sessions in " + settings.dataDir() + " (" + e.getMessage()
          + "): set I4J_HOME or interpreter4j.data-dir to a folder you can write");
    }
    applyProcessDefaults(config, settings, env);
    if (settings.approvalMode() == Settings.ApprovalMode.AUTO) {
      announceAutoRun(System.err);
    }
    return new Prepared(config, whole, settings, env);
  }

  /**
   * The configuration with every library's defaults (Pekko's, for the actor system), read at the first call when
   * {@link #config} was read for a prompt; a setting that cannot be resolved is a usage error, as in {@link #prepare}.
   */
  Config whole() {
    try {
      return whole.get();
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
  }

  /**
   * The containment (which sandbox for auto-run and for ask sessions, what it hides), pip-install mode and languages
   * of every session of this process; a named sandbox that cannot run, a bad masked path or an invalid language
   * definition is a usage error.
   */
  static void applyProcessDefaults(Config config, Settings settings, Map<String, String> env) {
    try {
      SandboxSettings sandbox = SandboxSettings.from(config);
      Containment containment = Containment.of(sandbox,
          MaskedPaths.standard(env, settings.dataDir(), sandbox.maskedPaths()));
      containment.check();
      ProcessDefaults.set(containment, VenvMode.from(config));
      PythonForkServer.configure(config); // interpreter4j.repl.python.fork-server
      io.interpreter4j.runtime.repl.PythonStart.from(config); // checked here; each session reads it as it starts
      // --computer: every session of this process may use the screen, and a browser of its own (Playwright driving
      // the system's Chromium), started at its first browser action
      BrowserSettings browser = BrowserSettings.from(config);
      ProcessDefaults.setComputer(ComputerSpec.of(ComputerSettings.from(config)).withTarget("browser",
          ctx -> BrowserActor.create(browser, ctx.workdir(), Optional.ofNullable(ctx.display()))));
      LanguageRegistry.configure(config); // what the system prompt lists; probing starts now, in the background
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
  }

  /**
   * Says once, on {@code err}, when code that runs without asking will run unconfined: the sandbox was turned off,
   * or none can run here (probes the platform's sandbox, once). Nothing when it runs in a sandbox.
   */
  static void announceAutoRun(PrintStream err) {
    ProcessDefaults.containment().autoRunNotice().ifPresent(notice -> err.println("i4j: " + notice));
  }

  /** The settings alone (for commands that only read the data folder): config file, profile, environment. */
  static Settings settingsOnly(java.nio.file.Path configFile, String profile, Map<String, String> env) {
    try {
      return Settings.from(configOnly(configFile, profile, Map.of(), env), env);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
  }

  /** The configuration alone: config file, profile, flags given as {@code overrides}, environment. */
  static Config configOnly(java.nio.file.Path configFile, String profile, Map<String, Object> overrides,
      Map<String, String> env) {
    try {
      return ConfigLoader.load(configFile, Profiles.layer(profile, env), overrides, env, ConfigWarnings.stderr("i4j"));
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
  }

  /** The actor system started by {@link #startSystemEarly()}, or null. */
  private volatile CompletableFuture<ActorSystem<SessionManager.Command>> earlySystem;

  /**
   * Starts the actor system on a thread of its own now, so that it comes up while the caller does other work (the
   * chat sets up its line editor); {@link #start} takes it. Only for a caller that calls {@code start} next or exits.
   */
  void startSystemEarly() {
    if (earlySystem == null) {
      CompletableFuture<ActorSystem<SessionManager.Command>> system = new CompletableFuture<>();
      Thread starter = new Thread(() -> {
        try {
          system.complete(CliSession.startSystem(whole()));
        } catch (RuntimeException | Error e) {
          system.completeExceptionally(e);
        }
      }, "i4j-system-start");
      starter.setDaemon(true);
      starter.start();
      earlySystem = system;
    }
  }

  /** Terminates the system {@link #startSystemEarly()} started if {@link #start} did not take it. */
  void discardEarlySystem() {
    CompletableFuture<ActorSystem<SessionManager.Command>> system = earlySystem;
    earlySystem = null;
    if (system != null) {
      system.thenAccept(ActorSystem::terminate);
    }
  }

  private ActorSystem<SessionManager.Command> system() {
    CompletableFuture<ActorSystem<SessionManager.Command>> early = earlySystem;
    earlySystem = null; // taken: the session closes it
    if (early == null) {
      return CliSession.startSystem(whole());
    }
    try {
      return early.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /**
   * The name the session's model will have, when the flags, configuration or environment name a model (no local
   * Ollama asked) and that name is one a provider can have; empty otherwise, and then only {@link #start} knows it.
   */
  Optional<String> modelName() {
    try {
      return Models.resolveOffline(settings, env).map(model -> Models.name(model, settings));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // start says what is wrong with it
    }
  }

  /** Starts the system and one session; closes the system again if the model cannot be set up. */
  CliSession start(CommonOptions options, Approver approver, Consumer<Event> renderer) {
    return start(options, approver, renderer, null);
  }

  /**
   * As {@link #start(CommonOptions, Approver, Consumer)}; with a dashboard config, also serves the web dashboard,
   * where the session can be watched and its blocks approved (the first answer, terminal or browser, wins).
   */
  CliSession start(CommonOptions options, Approver approver, Consumer<Event> renderer, ServerConfig dashboard) {
    // the host probe runs python (twice behind a pyenv shim): let it overlap the actor system's start
    CompletableFuture<HostInfo> hostProbe = CompletableFuture.supplyAsync(() -> CliSession.host(settings, env));
    ActorSystem<SessionManager.Command> system = system();
    try {
      String model = ModelFactory.resolveModel(settings, whole(), env, system);
      ModelProvider provider = ModelFactory.create(model, settings, whole(), options.apiKey, options.record, env,
          system);
      HostInfo host = hostProbe.join();
      String id = SessionIds.next();
      List<Consumer<Event>> subscribers = new ArrayList<>(List.of(renderer));
      Approver effective = approver;
      ServerHandle server = null;
      if (dashboard != null) {
        try {
          server = Server.start(system, dashboard, settings, models(options, system), host);
        } catch (IllegalStateException e) {
          throw new ModelFactory.UsageException("the dashboard: "
              + BindFailure.describe(dashboard.host(), dashboard.port(), e));
        }
        SessionHub.Registration registration = server.register(id, settings.dataDir());
        subscribers.add(registration.subscriber());
        effective = FirstAnswerApprover.of(approver, registration.approver());
        System.err.println("i4j: dashboard at " + server.url());
      }
      CliSession session = CliSession.start(system, id, settings, provider, effective, subscribers, host);
      if (server != null) {
        server.attach(id, session.ref());
      }
      return session;
    } catch (RuntimeException e) {
      system.terminate();
      throw e;
    }
  }

  /** A fresh provider per session from a model spec (blank: the configured or discovered default). */
  Function<String, ModelProvider> models(CommonOptions options, ActorSystem<?> system) {
    return spec -> {
      String model = spec == null || spec.isBlank() ? ModelFactory.resolveModel(settings, whole(), env, system) : spec;
      try {
        return ModelFactory.create(model, settings, whole(), options.apiKey, null, env, system);
      } catch (ModelFactory.UsageException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    };
  }

  Consumer<Event> renderer(boolean json, boolean color) {
    return json ? new JsonEventPrinter(out) : new PlainRenderer(out, color);
  }

  /**
   * What a person sees: the rich terminal renderer when stdout is a terminal and neither {@code --plain},
   * {@code NO_COLOR} nor {@code TERM=dumb} says otherwise; else plain text. {@code columns} and {@code rows} give
   * the terminal's size.
   */
  EventRenderer display(CommonOptions options, boolean terminal, IntSupplier columns, IntSupplier rows) {
    boolean rich = rich(options, terminal);
    EventRenderer display = rich ? new TerminalRenderer(out, columns, rows, false) : new PlainRenderer(out, false);
    display.inlinePictures(pictures(config, rich, env));
    return display;
  }

  /**
   * What draws pictures under the image lines, per {@code interpreter4j.terminal.inline-images} (which
   * {@code --inline-images} sets), or null; {@code rich}: whether stdout is a terminal shown with colours and frames
   * (not {@code --plain}, {@code NO_COLOR}, {@code TERM=dumb}), which {@code auto} needs.
   */
  static InlinePictures pictures(Config config, boolean rich, Map<String, String> env) {
    InlineImageMode mode;
    try {
      mode = InlineImageMode.from(config);
    } catch (IllegalArgumentException e) {
      throw new ModelFactory.UsageException(e.getMessage());
    }
    ImageProtocol protocol = mode.protocol(rich, env);
    return protocol == null ? null : new InlinePictures(protocol);
  }

  boolean rich(CommonOptions options, boolean terminal) {
    return terminal && !options.plain && !options.json && !env.containsKey("NO_COLOR")
        && !"dumb".equals(env.getOrDefault("TERM", ""));
  }

  boolean autoRun() {
    return settings.approvalMode() == Settings.ApprovalMode.AUTO;
  }

  /** Waits for a turn to end, answering approval questions on this thread meanwhile. */
  static TurnStatus awaitTurn(CompletableFuture<TurnStatus> turn, ConsoleApprover approver, ApprovalPrompter prompter)
      throws InterruptedException {
    while (!turn.isDone()) {
      ConsoleApprover.Question q = approver == null ? null : approver.poll(50);
      if (q != null && q.answer().isDone()) {
        continue;  // answered elsewhere (the dashboard) before we got to it
      }
      if (q != null) {
        prompter.answer(q);
      } else if (approver == null) {
        try {
          return turn.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        }
      }
    }
    return turn.join();
  }
}
