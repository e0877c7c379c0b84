package io.interpreter4j.api;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.providers.Models;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.repl.PythonLocator;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import io.interpreter4j.runtime.session.HostProbe;
import io.interpreter4j.runtime.session.SessionIds;
import io.interpreter4j.runtime.session.SessionSpec;
import io.interpreter4j.runtime.supervision.Faults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * interpreter4j embedded in a program: a model and the rules its code runs under, from which any number of
 * {@link Session}s are opened, concurrently. All interpreters of a JVM share one actor system unless given one
 * ({@link Builder#actorSystem(ActorSystem)}); it is started by the first and stopped when the last is closed.
 * {@link #close()} closes every session still open, so no interpreter process outlives it.
 *
 * <pre>{@code
 * try (Interpreter i4j = Interpreter.builder().model("replay:examples/hello.json").autoRun(true).build();
 *      Session s = i4j.newSession()) {
 *   TurnResult r = s.chat("mean of 3 5 8 13").toCompletableFuture().get();
 *   ExecResult x = s.execute("python", "print(6*7)");
 * }
 * }</pre>
 */
public final class Interpreter implements AutoCloseable {

  /**
   * Delivers events to {@link Session#events()} subscribers: daemon threads of their own, not the actor system's, so
   * a subscriber may block in {@code onNext}, and may read to the end after the interpreter was closed.
   */
  private static final Executor EVENT_DELIVERY = Executors.newCachedThreadPool(task -> {
    Thread t = new Thread(task, "i4j-api-events");
    t.setDaemon(true);
    return t;
  });

  private final ActorSystem<?> system;
  private final boolean sharedSystem;
  private final Settings settings;
  private final Config config;
  private final Map<String, String> env;
  private final String model;
  private final String apiKey;
  private final Containment containment;
  private final VenvMode venv;
  private final HostInfo host;
  private final io.interpreter4j.runtime.approval.Approver approver;
  private final Executor blocking;
  private final int eventBuffer;
  private final Set<Session> sessions = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();

  private Interpreter(Builder b, ActorSystem<?> system, boolean sharedSystem, Settings settings, Config config,
                      Containment containment) {
    this.system = system;
    this.sharedSystem = sharedSystem;
    this.settings = settings;
    this.config = config;
    this.env = b.env;
    this.apiKey = b.apiKey;
    this.containment = containment;
    this.venv = VenvMode.from(config);
    this.eventBuffer = b.eventBuffer;
    this.blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    this.model = Models.resolve(settings, config, env, system).orElseThrow(() -> new IllegalArgumentException(
        "no model: give the builder .model(\"replay:PATH\"), .model(\"openai/gpt-4o-mini\") with OPENAI_API_KEY set, "
            + ".model(\"anthropic/...\"), .model(\"ollama/...\"), or set I4J_MODEL (see docs/models.md)"));
    Models.create(model, settings, config, apiKey, env, system); // a model it cannot serve fails here, not per session
    String python = settings.python().isBlank() ? PythonLocator.resolve() : settings.python();
    this.host = HostProbe.probe(settings.workdir(), python,
        io.interpreter4j.runtime.session.Session.languages(), env);
    this.approver = b.approver == null ? io.interpreter4j.runtime.approval.Approver.NOBODY
        : new CodeApprover(b.approver, blocking);
  }

  /**
   * A builder with the defaults of {@code reference.conf}, the user's config file and {@code I4J_*} variables, as
   * the {@code i4j} command has them; what the builder sets overrides those.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The model every session of this interpreter talks to.
   *
   * @return e.g. {@code openai/gpt-4o-mini} or {@code replay:examples/hello.json}
   */
  public String model() {
    return model;
  }

  /**
   * The folder the sessions' code runs in.
   *
   * @return the working directory, absolute
   */
  public Path workdir() {
    return settings.workdir();
  }

  /**
   * What to tell a person when code that runs without asking runs unconfined: auto-run is on and the sandbox is off
   * or cannot run here (why, and how to get one). The {@code i4j} command prints it once at start.
   *
   * @return the notice, or empty when auto-run is off or its code runs in a sandbox
   */
  public Optional<String> unconfinedNotice() {
    return settings.approvalMode() == Settings.ApprovalMode.AUTO ? containment.autoRunNotice() : Optional.empty();
  }

  /**
   * Where sessions keep their journals and outputs ({@code sessions/ID} below it).
   *
   * @return the data directory
   */
  public Path dataDir() {
    return settings.dataDir();
  }

  /**
   * Opens a new session: its own conversation (a replay model starts at its cassette's first reply) and its own
   * REPL processes, started on their first block.
   *
   * @return the session, ready for {@link Session#chat(String)} and {@link Session#execute(String, String)}
   * @throws IllegalStateException when this interpreter is closed or the session could not be created
   */
  public Session newSession() {
    if (closed.get()) {
      throw new IllegalStateException("this Interpreter is closed; build a new one");
    }
    String id = SessionIds.next();
    ModelProvider provider = Models.create(model, settings, config, apiKey, env, system);
    EventFeed feed = new EventFeed(settings.dataDir().resolve("sessions").resolve(id), eventBuffer, EVENT_DELIVERY);
    TurnCollector turns = new TurnCollector(id);
    Consumer<Event> subscriber = event -> turns.accept(feed.accept(event));
    SessionSpec spec = new SessionSpec(id, settings, provider, approver, host, List.of(subscriber), containment, venv,
        Faults.NONE);
    // resumed on failure as under the SessionManager: a session keeps its conversation through a bug
    ActorRef<io.interpreter4j.runtime.session.Session.Command> ref = system.systemActorOf(
        Behaviors.supervise(io.interpreter4j.runtime.session.Session.create(spec))
            .onFailure(SupervisorStrategy.resume()), "i4j-api-session-" + id, Props.empty());
    Session[] self = new Session[1];
    self[0] = new Session(id, system, ref, feed, turns, () -> sessions.remove(self[0]));
    sessions.add(self[0]);
    if (closed.get()) { // closed meanwhile: this session must not outlive it
      self[0].close();
      throw new IllegalStateException("this Interpreter was closed while the session was being created");
    }
    return self[0];
  }

  /**
   * Closes every open session (killing their processes, see {@link Session#close()}) and, if this was the last
   * interpreter on the shared actor system, stops it. An actor system given to the builder is left running.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    RuntimeException failure = null;
    for (Session s : new ArrayList<>(sessions)) {
      try {
        s.close();
      } catch (RuntimeException e) { // the others are closed all the same
        failure = failure == null ? e : failure;
      }
    }
    if (sharedSystem) {
      SharedSystem.release();
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Sets up an {@link Interpreter}; every setting is optional but the model, which may also come from config. */
  public static final class Builder {

    private final Map<String, Object> flags = new LinkedHashMap<>();
    private io.interpreter4j.api.Approver approver;
    private ActorSystem<?> actorSystem;
    private Path configFile;
    private String apiKey;
    private int eventBuffer = 1024;
    private Map<String, String> env = System.getenv();

    private Builder() {}

    /**
     * The model: {@code replay:PATH} (a recorded cassette), {@code openai/NAME}, {@code anthropic/NAME},
     * {@code ollama/NAME}, ... (docs/models.md). Unset: {@code I4J_MODEL}, the config file, or one found from API
     * keys or a local Ollama.
     *
     * @param model the model's name
     * @return this builder
     */
    public Builder model(String model) {
      flags.put("interpreter4j.model", Objects.requireNonNull(model, "model"));
      return this;
    }

    /**
     * Run blocks without asking (the {@code -y} of the command line). The danger analysis and the approval rules
     * still apply: high-risk blocks go to the {@link #approver(io.interpreter4j.api.Approver) approver} if there
     * is one, else they are denied; deny rules always deny. Under auto-run the code runs in the platform's sandbox
     * by default ({@link Sandbox#AUTO_RUN}).
     *
     * @param autoRun true to run without asking
     * @return this builder
     */
    public Builder autoRun(boolean autoRun) {
      flags.put("interpreter4j.approval.mode", autoRun ? "auto" : "ask");
      return this;
    }

    /**
     * The folder the code runs in (it must exist). Unset: the configured one, else the current directory.
     *
     * @param workdir the working directory
     * @return this builder
     */
    public Builder workdir(Path workdir) {
      flags.put("interpreter4j.workdir", workdir.toAbsolutePath().normalize().toString());
      return this;
    }

    /**
     * Where the interpreters run. Unset: {@link Sandbox#AUTO_RUN}.
     *
     * @param sandbox the sandbox
     * @return this builder
     */
    public Builder sandbox(Sandbox sandbox) {
      flags.put("interpreter4j.sandbox.kind", sandbox.setting());
      return this;
    }

    /**
     * Decides in code about the blocks that need a person. Unset: no one can approve, so with auto-run off every
     * block ends its turn {@link TurnStatus#BLOCKED}, and under auto-run high-risk blocks are denied.
     *
     * @param approver the approver
     * @return this builder
     */
    public Builder approver(io.interpreter4j.api.Approver approver) {
      this.approver = approver;
      return this;
    }

    /**
     * Runs the sessions on this actor system instead of the JVM's shared one; closing the interpreter leaves it
     * running.
     *
     * @param system a typed Pekko actor system
     * @return this builder
     */
    public Builder actorSystem(ActorSystem<?> system) {
      this.actorSystem = system;
      return this;
    }

    /**
     * Where sessions keep their journals and outputs. Unset: {@code I4J_HOME}, else
     * {@code $XDG_DATA_HOME/interpreter4j}, else {@code ~/.local/share/interpreter4j}.
     *
     * @param dataDir the data directory
     * @return this builder
     */
    public Builder dataDir(Path dataDir) {
      flags.put("interpreter4j.data-dir", dataDir.toAbsolutePath().normalize().toString());
      return this;
    }

    /**
     * A HOCON config file to read instead of the user's default one ({@code ~/.config/interpreter4j/config.conf}).
     *
     * @param file an existing file
     * @return this builder
     */
    public Builder configFile(Path file) {
      this.configFile = file;
      return this;
    }

    /**
     * The model provider's API key, instead of its environment variable.
     *
     * @param key the key
     * @return this builder
     */
    public Builder apiKey(String key) {
      this.apiKey = key;
      return this;
    }

    /**
     * Any other setting of docs/configuration.md, by its path, e.g.
     * {@code setting("interpreter4j.execution.timeout", "30s")}.
     *
     * @param path  the setting's path, starting with {@code interpreter4j.}
     * @param value its value (a string, number, boolean or list)
     * @return this builder
     */
    public Builder setting(String path, Object value) {
      flags.put(path, value);
      return this;
    }

    /**
     * How many recent events each session keeps in memory for {@link Session#events()} subscribers; one further
     * behind reads from the journal on disk. Default 1024.
     *
     * @param events at least 1
     * @return this builder
     */
    public Builder eventBuffer(int events) {
      if (events < 1) {
        throw new IllegalArgumentException("the event buffer must hold at least 1 event, not " + events);
      }
      this.eventBuffer = events;
      return this;
    }

    /**
     * The environment to read {@code I4J_*} settings and API keys from, instead of the process's.
     *
     * @param env variable names to values
     * @return this builder
     */
    public Builder environment(Map<String, String> env) {
      this.env = Map.copyOf(env);
      return this;
    }

    /**
     * Checks the settings, finds the model and the sandbox, probes this machine's interpreters for the system prompt,
     * and joins (or starts) the actor system.
     *
     * @return the interpreter
     * @throws IllegalArgumentException when a setting is invalid, the workdir is missing, the model cannot be served
     *     or a named sandbox cannot run here; the message says what to change
     */
    public Interpreter build() {
      Config config = ConfigLoader.load(configFile, flags, env);
      Settings settings = Settings.from(config, env);
      if (!Files.isDirectory(settings.workdir())) {
        throw new IllegalArgumentException("working directory not found: " + settings.workdir()
            + " (give an existing folder to workdir(...))");
      }
      Containment containment;
      try {
        SandboxSettings sandbox = SandboxSettings.from(config);
        containment = Containment.of(sandbox, MaskedPaths.standard(env, settings.dataDir(), sandbox.maskedPaths()));
        containment.check();
      } catch (IllegalStateException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
      boolean shared = actorSystem == null;
      ActorSystem<?> system = shared ? SharedSystem.acquire() : actorSystem;
      try {
        return new Interpreter(this, system, shared, settings, config, containment);
      } catch (RuntimeException e) {
        if (shared) {
          SharedSystem.release();
        }
        throw e;
      }
    }
  }
}
