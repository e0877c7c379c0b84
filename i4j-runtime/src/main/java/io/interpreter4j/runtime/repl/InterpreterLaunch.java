package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.sandbox.LaunchSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Starts one interpreter for a {@link ReplWorker}: the environment every interpreter gets, the launch that
 * {@link ReplLauncher} prepares (sandbox, python, virtual environment) and the process, on the blocking dispatcher,
 * since starting a process (and finding python behind a pyenv shim) blocks.
 */
final class InterpreterLaunch {

  private InterpreterLaunch() {}

  /** Call on the actor's thread, where the launcher knows the block's needs; completes with the running process. */
  static CompletableFuture<ReplProcess> start(ReplConfig config, ReplDialect dialect, ReplLauncher launcher,
      ReplProcess.Listener listener, Executor blocking) {
    Map<String, String> env = environment(config);
    env.putAll(dialect.environment());
    String threadName = "i4j-repl-" + dialect.name().toLowerCase(Locale.ROOT);
    Supplier<LaunchSpec> launch = launcher.launch(env);
    return CompletableFuture.supplyAsync(() -> {
      try {
        LaunchSpec spec = launch.get();
        return ReplProcess.start(spec.command(ReplProcess.SETSID), spec.workdir(), spec.env(), dialect.prelude(),
            dialect.ownsProcessGroup(), threadName, listener);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, blocking);
  }

  private static Map<String, String> environment(ReplConfig config) {
    Map<String, String> env = new HashMap<>();
    // live output from the code's own python children too, and no pager waiting for a key nobody will press
    env.put("PYTHONUNBUFFERED", "1");
    env.put("PYTHONIOENCODING", "utf-8");
    env.put("PAGER", "cat");
    env.put("GIT_PAGER", "cat");
    env.putAll(config.extraEnv());
    return env;
  }
}
