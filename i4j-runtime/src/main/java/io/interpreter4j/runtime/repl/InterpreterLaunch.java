package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.sandbox.LaunchSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Starts one interpreter for a {@link ReplWorker}: the environment every interpreter gets, the launch that
 * {@link ReplLauncher} prepares (sandbox, python, virtual environment) and the process, on the blocking dispatcher,
 * since starting a process (and finding python behind a pyenv shim) blocks.
 */
final class InterpreterLaunch {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InterpreterLaunch.class);

  private InterpreterLaunch() {}

  /** Call on the actor's thread, where the launcher knows the block's needs; completes with the running process. */
  static CompletableFuture<ReplProcess> start(ReplConfig config, ReplDialect dialect, ReplLauncher launcher,
      ReplProcess.Listener listener, Executor blocking) {
    Map<String, String> env = environment(config.extraEnv());
    env.putAll(dialect.environment());
    String threadName = "i4j-repl-" + dialect.name().toLowerCase(Locale.ROOT);
    Supplier<LaunchSpec> launch = launcher.launch(env);
    return CompletableFuture.supplyAsync(() -> {
      try {
        LaunchSpec spec = launch.get();
        ReplProcess forked = dialect == ReplDialect.PYTHON ? fork(spec, config, listener, threadName)
            : dialect == ReplDialect.BASH ? execBash(spec, config, listener, threadName) : null;
        if (forked == null) {
          forked = execSandboxed(spec, config, dialect, listener, threadName);
        }
        if (forked != null) {
          return forked;
        }
        return ReplProcess.start(spec.command(ReplProcess.SETSID), spec.workdir(), spec.env(), dialect.prelude(),
            dialect.ownsProcessGroup(), threadName, listener);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, blocking);
  }

  /**
   * The launch as a child of the {@link PythonForkServer}, when it is on and the launch is one it reproduces (the
   * default python in a new session, no sandbox, no virtual environment, the same start-shaping environment); null
   * to spawn it. A server that cannot start or fork is logged and the launch spawned.
   */
  private static ReplProcess fork(LaunchSpec spec, ReplConfig config, ReplProcess.Listener listener, String name) {
    PythonForkServer server = PythonForkServer.shared();
    if (server == null || !spec.newSession() || !config.sandbox().name().equals("none")
        || !java.nio.file.Files.isDirectory(spec.workdir())) {
      return null;
    }
    Map<String, String> fullEnv = new HashMap<>(System.getenv());
    io.interpreter4j.core.safety.ChildEnvironment.withhold(fullEnv);
    fullEnv.putAll(spec.env());
    if (!server.accepts(spec.argv(), fullEnv)) {
      return null;
    }
    try {
      return ReplProcess.forked(server.fork(spec.workdir(), fullEnv), ReplDialect.PYTHON.prelude(), name, listener);
    } catch (IOException e) {
      LOG.warn("python fork server: {}; starting python the usual way", e.getMessage());
      return null;
    }
  }

  /**
   * The bash launch as a child of the {@link PythonForkServer} when one runs already (a python interpreter of this
   * JVM started it; bash never starts it, which would cost a python start): unsandboxed, in a new session, the
   * server spawns bash with SIGINT at its default, where the JVM would start {@code jspawnhelper}, {@code setsid},
   * {@code env --default-signal=INT} and then bash. Null to spawn it (no server, or it failed).
   */
  private static ReplProcess execBash(LaunchSpec spec, ReplConfig config, ReplProcess.Listener listener,
      String name) {
    PythonForkServer server = PythonForkServer.sharedIfRunning();
    if (server == null || !spec.newSession() || !config.sandbox().name().equals("none")
        || !java.nio.file.Files.isDirectory(spec.workdir())) {
      return null;
    }
    List<String> argv = spec.argv();
    if (argv.size() > 2 && argv.get(0).equals("env") && argv.get(1).equals("--default-signal=INT")) {
      argv = argv.subList(2, argv.size()); // the server's child sets SIGINT to its default itself
    }
    Optional<Path> program = Executables.find(argv.get(0));
    if (program.isEmpty()) {
      return null; // spawned, which reports the missing program as it always has
    }
    List<String> resolved = new ArrayList<>(argv);
    resolved.set(0, program.get().toAbsolutePath().toString());
    Map<String, String> fullEnv = new HashMap<>(System.getenv());
    io.interpreter4j.core.safety.ChildEnvironment.withhold(fullEnv);
    fullEnv.putAll(spec.env());
    try {
      return ReplProcess.forked(server.exec(resolved, spec.workdir(), fullEnv), ReplDialect.BASH.prelude(), name,
          listener);
    } catch (IOException e) {
      LOG.warn("python fork server: {}; starting bash the usual way", e.getMessage());
      return null;
    }
  }

  /**
   * A sandboxed launch (bwrap) as a child of the {@link PythonForkServer} when one runs already: the server spawns
   * bwrap leading a new session with SIGINT ignored, where the JVM would start {@code jspawnhelper}, {@code setsid}
   * and the shell that ignores SIGINT and outlives bwrap. The process group, its signals and the process-tree kill
   * are the same: bwrap leads the group and the code runs below it in that group. Null to spawn it (no server, a
   * sandbox without such a shell, or the server failed).
   */
  private static ReplProcess execSandboxed(LaunchSpec spec, ReplConfig config, ReplDialect dialect,
      ReplProcess.Listener listener, String name) {
    PythonForkServer server = PythonForkServer.sharedIfRunning();
    if (server == null || !spec.newSession() || !dialect.ownsProcessGroup()
        || !java.nio.file.Files.isDirectory(spec.workdir())) {
      return null;
    }
    Optional<List<String>> argv = config.sandbox().withoutSigintShell(spec.argv());
    if (argv.isEmpty()) {
      return null;
    }
    Map<String, String> fullEnv = new HashMap<>(System.getenv());
    io.interpreter4j.core.safety.ChildEnvironment.withhold(fullEnv);
    fullEnv.putAll(spec.env());
    try {
      return ReplProcess.forked(server.exec(argv.get(), spec.workdir(), fullEnv, true), dialect.prelude(), name,
          listener);
    } catch (IOException e) {
      LOG.warn("python fork server: {}; starting the sandbox the usual way", e.getMessage());
      return null;
    }
  }

  /** The environment entries every interpreter gets, with {@code extraEnv} (the session's) on top. */
  static Map<String, String> environment(Map<String, String> extraEnv) {
    Map<String, String> env = new HashMap<>();
    // live output from the code's own python children too, and no pager waiting for a key nobody will press
    env.put("PYTHONUNBUFFERED", "1");
    env.put("PYTHONIOENCODING", "utf-8");
    env.put("PAGER", "cat");
    env.put("GIT_PAGER", "cat");
    env.putAll(extraEnv);
    return env;
  }
}
