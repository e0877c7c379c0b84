package io.interpreter4j.runtime.repl;

import io.interpreter4j.runtime.sandbox.LaunchSpec;
import io.interpreter4j.runtime.sandbox.Sandbox;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How one {@link ReplWorker} launches its interpreter and prepares its blocks: the sandbox around the process, and
 * isolated installs ({@link VenvMode#AUTO}).
 *
 * <p>Isolated installs. When the session's python is not in a virtual environment, pip installs go to
 * {@code WORKDIR/.venv}:
 * <ul>
 *   <li>python: the first block that installs (a {@code !pip}/{@code %pip}/bare pip line, or pip next to install in
 *   its text) makes the worker create the environment (or reuse the one there), stop the python process that runs
 *   outside it (its state is reset, once, and the block's notice says so) and run that block, and every later one,
 *   in a python started from the environment. A python started while {@code .venv} exists starts inside it. Shell
 *   lines are translated by {@link PythonShellLines}, so {@code !pip install x} is pip of the running interpreter.
 *   </li>
 *   <li>bash: a shell started while {@code .venv} exists starts with it activated ({@code VIRTUAL_ENV}, its bin first
 *   on {@code PATH}); a block that installs while none is active gets one line in front that creates the environment
 *   if needed and activates it, so the shell keeps its state.</li>
 * </ul>
 * {@link #prepare} and {@link #needsRestart} run on the actor's thread; {@link #launch} on the blocking dispatcher.
 */
final class ReplLauncher {

  private final ReplConfig config;
  private final ReplDialect dialect;
  private final WorkdirVenv venv;
  private final Path sessionDir;

  /** Whether the block just prepared installs packages (actor thread). */
  private boolean blockInstalls;
  /** The next launch replaces a python with state that runs outside the environment (actor thread). */
  private boolean switching;
  /** Told once per worker, when bash blocks start to activate the environment (actor thread). */
  private boolean bashNoticeGiven;

  // written by launch() on the blocking dispatcher, read on the actor's thread after the Started message
  private volatile Boolean baseIsVirtual;
  private volatile boolean onVenv;
  private volatile String notice;

  ReplLauncher(ReplConfig config, ReplDialect dialect) {
    this.config = config;
    this.dialect = dialect;
    this.venv = new WorkdirVenv(config.workdir());
    this.sessionDir = config.sessionDir().toAbsolutePath();
  }

  /** The block as it will run: python shell lines translated; in bash, the environment activated before an install. */
  ReplWorker.Execute prepare(ReplWorker.Execute execute) {
    String code = execute.code();
    if (code == null) {
      blockInstalls = false;
      return execute;
    }
    String prepared = code;
    if (dialect == ReplDialect.PYTHON) {
      blockInstalls = PythonShellLines.installs(code);
      prepared = PythonShellLines.translate(code);
    } else if (dialect == ReplDialect.BASH) {
      blockInstalls = BashInstalls.installs(code);
      if (blockInstalls && config.venv() == VenvMode.AUTO && !onVenv) {
        prepared = BashInstalls.activationLine(venv, bashPython()) + code;
        if (!bashNoticeGiven) {
          bashNoticeGiven = true;
          addNotice("pip installs in this shell go to the virtual environment " + venv.dir() + " (created if missing "
              + "and activated: VIRTUAL_ENV and PATH point to it), unless another one is active.");
        }
      }
    }
    return prepared.equals(code) ? execute
        : new ReplWorker.Execute(execute.block(), prepared, execute.timeout(), execute.replyTo());
  }

  /**
   * Python: whether the block just prepared installs while the running python is outside the environment, so the
   * worker must stop it and launch again (the launch then creates the environment and starts inside it).
   */
  boolean needsRestart() {
    boolean restart = dialect == ReplDialect.PYTHON && config.venv() == VenvMode.AUTO && blockInstalls && !onVenv
        && !Boolean.TRUE.equals(baseIsVirtual);
    switching = restart;
    return restart;
  }

  /**
   * The launch of a new interpreter for the block just prepared, as a step to run on the blocking dispatcher: the
   * sandbox checked, python chosen (the environment's or the configured one, creating the environment when the block
   * installs), the environment variables set, the command line wrapped. The step throws with a message for the model
   * and user when the sandbox or the environment cannot be had. Call on the actor's thread; it captures the block's
   * needs.
   */
  Supplier<LaunchSpec> launch(Map<String, String> env) {
    boolean installs = blockInstalls;
    boolean replacing = switching;
    switching = false;
    return () -> launch(env, installs, replacing);
  }

  /** The sentence about the environment for the block that ends next, or null; cleared by reading it. */
  String takeNotice() {
    String taken = notice;
    notice = null;
    return taken;
  }

  private LaunchSpec launch(Map<String, String> env, boolean installs, boolean replacing) {
    Sandbox sandbox = config.sandbox();
    sandbox.check();
    Map<String, String> all = new HashMap<>(env);
    ReplConfig launchConfig = config;
    boolean wasOnVenv = onVenv;
    boolean inVenv = false;
    if (dialect == ReplDialect.PYTHON) {
      String python = sandbox.python(hostPython(), config.workdir());
      if (config.venv() == VenvMode.AUTO && baseIsVirtual == null) {
        // known before the first install, so that install never restarts a python that needs no environment
        baseIsVirtual = WorkdirVenv.isVirtual(sandbox, python, config.workdir(), sessionDir);
      }
      // a broken .venv matters only to a block that installs: then it is an error, never a global install
      if (config.venv() == VenvMode.AUTO && !baseIsVirtual && (installs || venv.isValid())) {
        try {
          venv.ensure(sandbox, python, config.workdir(), sessionDir);
        } catch (IllegalStateException e) {
          throw replacing ? new IllegalStateException(e.getMessage() + "; the python process outside it was already "
              + "stopped, so its state was reset", e) : e;
        }
        python = sandbox.python(venv.python().toString(), config.workdir());
        inVenv = true;
      }
      launchConfig = config.withPythonExecutable(python);
    } else if (dialect == ReplDialect.BASH) {
      inVenv = config.venv() == VenvMode.AUTO && venv.isValid() && !activeElsewhere(env);
    }
    if (inVenv) {
      all.put("VIRTUAL_ENV", venv.dir().toString());
      String path = env.getOrDefault("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
      all.put("PATH", venv.bin() + File.pathSeparator + path);
    }
    onVenv = inVenv;
    if (dialect == ReplDialect.PYTHON && inVenv && !wasOnVenv) {
      addNotice(replacing
          ? "pip installs go to the virtual environment " + venv.dir() + "; python now runs inside it (state was reset)."
          : installs
              ? "pip installs go to the virtual environment " + venv.dir() + "; python runs inside it from now on."
              : "python runs inside the virtual environment " + venv.dir() + " found in the working directory; pip "
                  + "installs go there.");
    }
    return sandbox.wrap(fromArgv(dialect.argv(launchConfig), all), sessionDir);
  }

  /** The dialect's command line as a launch: a leading setsid becomes the launch's new session. */
  private LaunchSpec fromArgv(List<String> argv, Map<String, String> env) {
    boolean newSession = ReplProcess.SETSID != null && !argv.isEmpty() && argv.get(0).equals(ReplProcess.SETSID);
    List<String> rest = newSession ? new ArrayList<>(argv.subList(1, argv.size())) : argv;
    return new LaunchSpec(rest, config.workdir(), env, newSession);
  }

  private String hostPython() {
    return config.pythonExecutable() != null ? config.pythonExecutable() : ReplDialect.PythonExecutable.resolve();
  }

  /** The python a bash block finds as python3, as the sandbox sees it. */
  private String bashPython() {
    return config.sandbox().python(config.pythonExecutable() != null ? config.pythonExecutable() : "python3",
        config.workdir());
  }

  /** A virtual environment or a named conda environment is active already: the shell's pip is local. */
  private static boolean activeElsewhere(Map<String, String> env) {
    if (env.containsKey("VIRTUAL_ENV") || System.getenv("VIRTUAL_ENV") != null) {
      return true;
    }
    String conda = System.getenv("CONDA_DEFAULT_ENV");
    return System.getenv("CONDA_PREFIX") != null && conda != null && !conda.equals("base");
  }

  private void addNotice(String sentence) {
    notice = Notices.join(notice, sentence);
  }
}
