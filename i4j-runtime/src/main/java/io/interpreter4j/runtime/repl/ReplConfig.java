package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.supervision.Faults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How one {@link ReplWorker} runs its interpreter.
 *
 * @param language         "python" or "bash" (aliases such as "sh", "shell", "zsh", "py" are accepted)
 * @param sessionDir       spool files go to {@code sessionDir/outputs/block-<n>.txt}, code to {@code sessionDir/code/}
 * @param workdir          the interpreter's starting working directory
 * @param idleTimeout      an idle interpreter is stopped after this long; the next block starts a fresh one
 * @param interruptGrace   how long a block may take to stop after SIGINT before its process tree is killed
 * @param maxOutput        characters of output the model gets per block (head + tail, with a marker between)
 * @param liveOutputLimit  UTF-8 bytes of live {@link ReplWorker.Output} per block; the rest is only spooled
 * @param extraEnv         added to (and overriding) the inherited environment
 * @param pythonExecutable the python interpreter to run; null = the real interpreter behind {@code python3}
 * @param sandbox          where the interpreter runs ({@link Sandbox#none()}: directly on the machine)
 * @param venv             where pip installs go when python is not in a virtual environment (see {@link ReplLauncher})
 * @param faults           test-only crash points ({@link Faults#NONE} outside the supervision tests)
 */
public record ReplConfig(String language, Path sessionDir, Path workdir, Duration idleTimeout, Duration interruptGrace,
    int maxOutput, long liveOutputLimit, Map<String, String> extraEnv, String pythonExecutable, Sandbox sandbox,
    VenvMode venv, Faults faults) {

  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);
  public static final Duration DEFAULT_INTERRUPT_GRACE = Duration.ofSeconds(2);
  public static final int DEFAULT_MAX_OUTPUT = 4000;
  public static final long DEFAULT_LIVE_OUTPUT_LIMIT = 1024 * 1024;

  public ReplConfig {
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(sessionDir, "sessionDir");
    Objects.requireNonNull(workdir, "workdir");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    Objects.requireNonNull(interruptGrace, "interruptGrace");
    if (maxOutput < 0 || liveOutputLimit < 0) {
      throw new IllegalArgumentException("maxOutput and liveOutputLimit must not be negative");
    }
    extraEnv = extraEnv == null ? Map.of() : Map.copyOf(extraEnv);
    sandbox = sandbox == null ? Sandbox.none() : sandbox;
    venv = venv == null ? VenvMode.AUTO : venv;
    faults = faults == null ? Faults.NONE : faults;
  }

  /** No sandbox, and isolated installs (reference.conf's defaults). */
  public ReplConfig(String language, Path sessionDir, Path workdir, Duration idleTimeout, Duration interruptGrace,
      int maxOutput, long liveOutputLimit, Map<String, String> extraEnv, String pythonExecutable) {
    this(language, sessionDir, workdir, idleTimeout, interruptGrace, maxOutput, liveOutputLimit, extraEnv,
        pythonExecutable, Sandbox.none(), VenvMode.AUTO, Faults.NONE);
  }

  public static ReplConfig defaults(String language, Path sessionDir, Path workdir) {
    return new ReplConfig(language, sessionDir, workdir, DEFAULT_IDLE_TIMEOUT, DEFAULT_INTERRUPT_GRACE,
        DEFAULT_MAX_OUTPUT, DEFAULT_LIVE_OUTPUT_LIMIT, Map.of(), null);
  }

  public ReplConfig withIdleTimeout(Duration value) {
    return new ReplConfig(language, sessionDir, workdir, value, interruptGrace, maxOutput, liveOutputLimit, extraEnv,
        pythonExecutable, sandbox, venv, faults);
  }

  public ReplConfig withInterruptGrace(Duration value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, value, maxOutput, liveOutputLimit, extraEnv,
        pythonExecutable, sandbox, venv, faults);
  }

  public ReplConfig withMaxOutput(int value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, interruptGrace, value, liveOutputLimit, extraEnv,
        pythonExecutable, sandbox, venv, faults);
  }

  public ReplConfig withLiveOutputLimit(long value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, interruptGrace, maxOutput, value, extraEnv,
        pythonExecutable, sandbox, venv, faults);
  }

  public ReplConfig withExtraEnv(Map<String, String> value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, interruptGrace, maxOutput, liveOutputLimit, value,
        pythonExecutable, sandbox, venv, faults);
  }

  public ReplConfig withPythonExecutable(String value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, interruptGrace, maxOutput, liveOutputLimit,
        extraEnv, value, sandbox, venv, faults);
  }

  public ReplConfig withSandbox(Sandbox value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, interruptGrace, maxOutput, liveOutputLimit,
        extraEnv, pythonExecutable, value, venv, faults);
  }

  public ReplConfig withVenv(VenvMode value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, interruptGrace, maxOutput, liveOutputLimit,
        extraEnv, pythonExecutable, sandbox, value, faults);
  }

  public ReplConfig withFaults(Faults value) {
    return new ReplConfig(language, sessionDir, workdir, idleTimeout, interruptGrace, maxOutput, liveOutputLimit,
        extraEnv, pythonExecutable, sandbox, venv, value);
  }
}
