package io.interpreter4j.batch.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.batch.BatchContext;
import io.interpreter4j.batch.BatchListener;
import io.interpreter4j.batch.BatchOptions;
import io.interpreter4j.batch.BatchRunner;
import io.interpreter4j.batch.BatchSummary;
import io.interpreter4j.batch.BatchTask;
import io.interpreter4j.batch.TaskFileParser;
import io.interpreter4j.batch.client.BatchServerClient;
import io.interpreter4j.batch.progress.JsonProgressPrinter;
import io.interpreter4j.batch.progress.PlainProgressPrinter;
import io.interpreter4j.batch.progress.ProgressFormat;
import io.interpreter4j.batch.progress.TerminalProgressBar;
import io.interpreter4j.batch.progress.Terminals;
import io.interpreter4j.core.config.ConfigLoader;
import io.interpreter4j.core.config.DurationFlags;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.image.Vision;
import io.interpreter4j.core.prompt.HostInfo;
import io.interpreter4j.runtime.llm.ModelProvider;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import io.interpreter4j.runtime.session.ProcessDefaults;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code i4j batch TASKS}: runs a file of tasks unattended, each in its own session, N at a time, with a journal
 * to resume from. The program that hosts it passes a {@link BatchEnvironment}
 * ({@code new CommandLine(new BatchCommand(environment))} or {@code addSubcommand("batch", ...)}).
 */
@Command(name = "batch", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Run a file of tasks unattended, each in its own session, N at a time.",
        "TASKS is JSONL, one task a line: {\"id\": \"t1\", \"prompt\": \"...\", \"model\": ..., \"workdir\": ..., "
            + "\"timeout_s\": ..., \"max_iterations\": ..., \"cassette\": ...}; or plain text, one prompt a line.",
        "Each task's result is appended to --out as it finishes. Running the same command again resumes: finished "
            + "tasks are not run again.",
        "Without -y no block can run (nobody can approve it): tasks with code end 'blocked'.",
        "With --server URL the batch runs on that `i4j serve` (token: I4J_TOKEN) and is followed from here.",
        "Exit codes: 0 every task done, 1 some task not done, 2 invalid task file or usage, 3 the server could not "
            + "be asked (--server), 130 stopped (Ctrl-C, SIGTERM)."},
    footer = {"", "Example:", "  i4j batch examples/batch-tasks.jsonl -y --parallel 4 --out /tmp/i4j-results.jsonl",
        "", "See docs/batch.md."})
public final class BatchCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "TASKS", description = "The task file (JSONL or one prompt a line).")
  Path tasksFile;

  @Option(names = "--parallel", paramLabel = "N", defaultValue = "4",
      description = "Tasks at a time. Default: ${DEFAULT-VALUE}.")
  int parallel;

  @Option(names = {"-y", "--yes"}, description = "Run code without asking (auto-approve). Without it, blocks are "
      + "blocked: a batch has nobody to ask.")
  boolean yes;

  @Option(names = "--out", paramLabel = "FILE", defaultValue = "results.jsonl",
      description = "Results file, a JSON line per task. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Option(names = "--journal", paramLabel = "DIR", description = "Journal folder (default: "
      + "<data-dir>/batches/<hash of the task file and --out>).")
  Path journal;

  @Option(names = "--dangerously-allow-all", description = "With -y, run even high-risk blocks (deny rules still "
      + "apply). Without it a batch denies them: the model is told and may choose a safer way.")
  boolean dangerouslyAllowAll;

  @Option(names = "--sandbox", arity = "0..1", paramLabel = "KIND", fallbackValue = "auto",
      description = "Where code runs. Default (auto-run): with -y, in the platform's sandbox (bwrap on Linux, "
          + "seatbelt on macOS). Alone: the platform's sandbox; or none, bwrap, docker, seatbelt, auto-run.")
  String sandbox;

  @Option(names = "--sandbox-network", arity = "0..1", paramLabel = "on|off", fallbackValue = "on",
      description = "Whether sandboxed code may use the network: on (the default; the flag alone) or off.")
  String sandboxNetwork;

  @Option(names = "--retry-failed", description = "Run again the tasks that finished other than done.")
  boolean retryFailed;

  @Option(names = "--drain", description = "On Ctrl-C or SIGTERM, let running tasks finish instead of "
      + "interrupting them.")
  boolean drain;

  @Option(names = "--skip-invalid", description = "Run the valid tasks even if some lines are invalid.")
  boolean skipInvalid;

  @Option(names = "--task-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "Wall-clock limit of a task without timeout_s: seconds, or 90s, 5m, 1h. Default: 30m.")
  Duration taskTimeout;

  @Option(names = "--json", description = "Print JSON events on stdout (task_started, task_finished, "
      + "batch_progress, batch_finished) and nothing else.")
  boolean json;

  @Option(names = "--dashboard", description = "Show the batch on the dashboard (when this build has one).")
  boolean dashboard;

  @Option(names = {"-m", "--model"}, paramLabel = "MODEL", description = "Model of tasks without their own "
      + "model or cassette. Default: I4J_MODEL or the config file.")
  String model;

  @Option(names = "--vision", paramLabel = "on|off|auto", converter = VisionConverter.class,
      description = "Send the images a block shows to the model: on, off, or auto = for models known to accept "
          + "images (interpreter4j.vision.models). Default: auto.")
  String vision;

  @Option(names = "--config", paramLabel = "FILE", description = "HOCON config file (default: "
      + "$XDG_CONFIG_HOME/interpreter4j/config.conf if present).")
  Path config;

  @Option(names = "--workdir", paramLabel = "DIR", description = "Working directory of tasks without their own. "
      + "Default: the current one.")
  Path workdir;

  @Option(names = "--server", paramLabel = "URL", description = "Run the batch on this `i4j serve` (e.g. "
      + "http://127.0.0.1:8717; a cluster node) and follow it from here. The token comes from I4J_TOKEN.")
  String server;

  private final BatchEnvironment environment;

  public BatchCommand(BatchEnvironment environment) {
    this.environment = environment;
  }

  @Override
  public Integer call() throws Exception {
    PrintStream err = environment.err();
    Map<String, String> env = environment.env();
    if (parallel < 1) {
      return usage("--parallel must be at least 1, not " + parallel);
    }
    if (!Files.isRegularFile(tasksFile)) {
      return usage("task file not found: " + tasksFile);
    }
    if (server != null) {
      return onServer();
    }
    TaskFileParser.ParseResult parsed;
    try {
      parsed = TaskFileParser.parse(tasksFile);
    } catch (IOException e) {
      return usage("cannot read the task file " + tasksFile + ": " + e.getMessage());
    }
    for (TaskFileParser.ParseError e : parsed.errors()) {
      err.println("i4j batch: " + tasksFile + ":" + e.line() + ": " + e.message());
    }
    if (!parsed.valid() && !skipInvalid) {
      return usage(parsed.invalidLines() + " invalid line(s) in " + tasksFile + "; nothing was started. Fix them, "
          + "or pass --skip-invalid to run the " + parsed.tasks().size() + " valid task(s)");
    }
    if (parsed.tasks().isEmpty()) {
      return usage("no tasks to run in " + tasksFile);
    }
    Config loaded;
    Settings settings;
    try {
      if (sandbox != null) {
        SandboxSettings.Kind.parse(sandbox);
      }
    } catch (IllegalArgumentException e) {
      return usage("--sandbox: " + e.getMessage());
    }
    try {
      if (sandboxNetwork != null) {
        SandboxSettings.parseNetwork(sandboxNetwork);
      }
    } catch (IllegalArgumentException e) {
      return usage("--sandbox-network: " + e.getMessage());
    }
    try {
      loaded = ConfigLoader.load(config, ConfigFactory.empty(), overrides(), env,
          warning -> err.println("i4j batch: warning: " + warning));
      settings = Settings.from(loaded, env);
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage());
    }
    if (!Files.isDirectory(settings.workdir())) {
      return usage("working directory not found: " + settings.workdir() + " (give an existing folder to --workdir)");
    }
    List<BatchTask> tasks = parsed.tasks();
    BatchOptions options;
    try {
      options = new BatchOptions(tasksFile, out, journal, parallel, yes, retryFailed,
          taskTimeout == null ? BatchOptions.DEFAULT_TIMEOUT : taskTimeout, parsed.invalidLines());
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage());
    }
    ActorSystem<?> system = environment.actorSystem(loaded);
    if (yes) {
      // said once: the tasks' code runs without asking, and here unconfined
      ProcessDefaults.containment().autoRunNotice().ifPresent(notice -> err.println("i4j batch: " + notice));
    }
    try {
      String needModel = tasks.stream().filter(t -> t.modelSpec() == null).map(t -> Integer.toString(t.line()))
          .limit(10).collect(Collectors.joining(", "));
      if (settings.model().isBlank() && !needModel.isEmpty()) {
        Optional<String> found = environment.defaultModel(settings, loaded, system);
        if (found.isEmpty()) {
          return usage("no model for the tasks on line(s) " + needModel + ": give -m MODEL, or each task a "
              + "\"model\" or \"cassette\"");
        }
        loaded = ConfigFactory.parseMap(Map.of("interpreter4j.model", found.get()), "default model")
            .withFallback(loaded);
        settings = Settings.from(loaded, env);
      }
      Function<String, ModelProvider> models = environment.models(settings, loaded, system);
      HostInfo host = environment.host(settings);
      BatchContext context = new BatchContext(system, loaded, env, models, host);
      return run(options, tasks, context, system, settings);
    } finally {
      system.terminate();
      try {
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        err.println("i4j batch: the actor system did not stop within 30 s: " + e);
      }
    }
  }

  private int run(BatchOptions options, List<BatchTask> tasks, BatchContext context, ActorSystem<?> system,
                  Settings settings) throws InterruptedException {
    PrintStream err = environment.err();
    PrintStream out = environment.out();
    List<BatchListener> listeners = progressListeners();
    if (dashboard) {
      Optional<BatchListener> board = environment.dashboard(system, settings);
      board.ifPresentOrElse(listeners::add,
          () -> err.println("i4j batch: the dashboard is not available in this build; going on without it"));
    }
    BatchRunner runner;
    try {
      runner = BatchRunner.start(options, tasks, context, listeners);
    } catch (IOException e) {
      err.println("i4j batch: " + e.getMessage());
      return 1;
    }
    runner.warnings().forEach(w -> err.println("i4j batch: " + w));
    var plan = runner.plan();
    err.println("i4j batch: " + tasks.size() + " task(s)"
        + (plan.kept().isEmpty() ? "" : ", " + plan.kept().size() + " already finished")
        + (plan.resumed().isEmpty() ? "" : ", " + plan.resumed().size() + " resumed")
        + (plan.retried().isEmpty() ? "" : ", " + plan.retried().size() + " retried")
        + (plan.changed().isEmpty() ? "" : ", " + plan.changed().size() + " changed since they ran")
        + "; running " + plan.toRun().size() + ", " + options.parallel() + " at a time"
        + (options.autoApprove() ? "" : "; without -y code blocks end blocked")
        + "\ni4j batch: results: " + options.out() + "  journal: " + runner.journalDir());
    Runnable restoreSignals = environment.handleSignals() ? handleSignals(runner, err) : () -> { };
    BatchSummary summary;
    try {
      summary = runner.await();
    } catch (RuntimeException e) {
      err.println("i4j batch: the batch failed: " + e.getMessage() + " (the journal holds what finished; run the "
          + "same command again to resume)");
      return 1;
    } finally {
      restoreSignals.run();
    }
    (json ? err : out).println(ProgressFormat.summary(summary));
    return summary.exitCode();
  }

  /**
   * {@code --server}: sends the task file and the options to the server, then follows the batch there. Options the
   * server decides for itself (its sandbox, its configuration, where the journal lives) are refused.
   */
  private int onServer() throws InterruptedException {
    Map<String, String> localOnly = new LinkedHashMap<>();
    localOnly.put("--journal", journal == null ? null : "the server keeps the batch's journal in its data folder");
    localOnly.put("--sandbox", sandbox == null ? null : "tasks run in the server's sandbox (`i4j serve --sandbox`)");
    localOnly.put("--sandbox-network", sandboxNetwork == null ? null : "tasks run in the server's sandbox");
    localOnly.put("--retry-failed", !retryFailed ? null : "each submission is a new batch on the server");
    localOnly.put("--drain", !drain ? null : "Ctrl-C stops following, the batch goes on on the server");
    localOnly.put("--dashboard", !dashboard ? null : "the batch is on the server's own dashboard");
    localOnly.put("--config", config == null ? null : "tasks run with the server's configuration");
    localOnly.put("--vision", vision == null ? null : "tasks run with the server's configuration");
    localOnly.put("--workdir", workdir == null ? null : "tasks without a workdir run in the server's working "
        + "folder; give each task a \"workdir\" (relative to the task file's folder)");
    for (Map.Entry<String, String> e : localOnly.entrySet()) {
      if (e.getValue() != null) {
        return usage(e.getKey() + " cannot be used with --server: " + e.getValue());
      }
    }
    URI url;
    try {
      url = BatchServerClient.parseUrl(server);
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage());
    }
    String token = environment.env().get("I4J_TOKEN");
    if (token == null || token.isBlank()) {
      return usage("--server needs the server's API token in I4J_TOKEN (the token= part of the dashboard URL that "
          + "`i4j serve` prints, or the I4J_TOKEN it was started with)");
    }
    Path results = out.toAbsolutePath().normalize();
    try {
      if (Files.exists(results) && Files.size(results) > 0) {
        return usage("--out " + out + " already holds results; with --server each run is a new batch on the "
            + "server and writes all its results afresh: give another --out, or remove that file");
      }
    } catch (IOException e) {
      return usage("cannot read --out " + out + ": " + e.getMessage());
    }
    Path file = tasksFile.toAbsolutePath().normalize();
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return usage("cannot read the task file " + tasksFile + ": " + e.getMessage());
    }
    Map<String, String> params = new LinkedHashMap<>();
    params.put("name", file.getFileName().toString());
    params.put("parallel", Integer.toString(parallel));
    params.put("yes", Boolean.toString(yes));
    params.put("dangerously_allow_all", Boolean.toString(dangerouslyAllowAll));
    params.put("skip_invalid", Boolean.toString(skipInvalid));
    if (taskTimeout != null) {
      params.put("task_timeout", Long.toString(Math.max(1, (taskTimeout.toMillis() + 999) / 1000)));
    }
    if (model != null) {
      params.put("model", model);
    }
    params.put("base_dir", file.getParent().toString());
    return new ServerBatchRun(environment, tasksFile, results, json, progressListeners())
        .run(new BatchServerClient(url, token.strip()), text, params);
  }

  /** The progress printer a local batch would use: JSON events, the terminal bar or plain lines. */
  private List<BatchListener> progressListeners() {
    List<BatchListener> listeners = new ArrayList<>();
    if (json) {
      listeners.add(new JsonProgressPrinter(environment.out(), Clock.systemUTC()));
    } else if (environment.stderrIsTerminal()) {
      listeners.add(new TerminalProgressBar(environment.err(), Terminals.columns(environment.env())));
    } else {
      listeners.add(new PlainProgressPrinter(environment.err()));
    }
    return listeners;
  }

  /** First Ctrl-C or SIGTERM: stop (drain or interrupt). Second: kill the task processes and exit 130 at once. */
  private Runnable handleSignals(BatchRunner runner, PrintStream err) {
    AtomicInteger count = new AtomicInteger();
    SignalHandler handler = signal -> {
      if (count.incrementAndGet() == 1) {
        err.println();
        err.println("i4j batch: stopping: " + (drain ? "letting running tasks finish" : "interrupting running tasks")
            + " (SIG" + signal.getName() + " again exits at once)");
        runner.requestStop(drain);
      } else {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        Runtime.getRuntime().halt(130);
      }
    };
    return onStopSignals(handler);
  }

  /** Handles SIGINT and SIGTERM with {@code handler}; the returned action puts the earlier handlers back. */
  static Runnable onStopSignals(SignalHandler handler) {
    SignalHandler oldInt = Signal.handle(new Signal("INT"), handler);
    SignalHandler oldTerm = Signal.handle(new Signal("TERM"), handler);
    return () -> {
      Signal.handle(new Signal("INT"), oldInt);
      Signal.handle(new Signal("TERM"), oldTerm);
    };
  }

  private Map<String, Object> overrides() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (model != null) {
      m.put("interpreter4j.model", model);
    }
    if (workdir != null) {
      m.put("interpreter4j.workdir", workdir.toAbsolutePath().normalize().toString());
    }
    if (vision != null) {
      m.put("interpreter4j.vision.mode", vision);
    }
    if (dangerouslyAllowAll) {
      m.put("interpreter4j.approval.dangerously-allow-all", true);
    }
    if (sandbox != null) {
      m.put("interpreter4j.sandbox.kind", SandboxSettings.Kind.parse(sandbox).configName());
    }
    if (sandboxNetwork != null) {
      m.put("interpreter4j.sandbox.network", SandboxSettings.parseNetwork(sandboxNetwork));
    }
    return m;
  }

  private int usage(String message) {
    environment.err().println("i4j batch: " + message);
    return 2;
  }

  /** Checks "on", "off" or "auto" for {@code --vision}. */
  public static final class VisionConverter implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      try {
        return Vision.parse(value).name().toLowerCase(java.util.Locale.ROOT);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not on, off or auto");
      }
    }
  }

  /** Parses "90" (seconds), "90s", "1500ms", "5m", "1h". */
  public static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return DurationFlags.parsePositive(value, TypeConversionException::new);
    }
  }
}
