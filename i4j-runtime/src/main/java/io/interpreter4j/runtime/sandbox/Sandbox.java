package io.interpreter4j.runtime.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where the REPL workers' interpreters run: a wrapper around their command line that confines what the code may
 * write and reach. The working directory and the session folder stay writable; the network is off unless the
 * settings allow it. A sandbox that cannot run here says why in {@link #availability()}, and is never skipped.
 *
 * <p>Process groups: a wrapped launch that leads a new session keeps one process group for everything inside, led
 * by the process the JVM starts, so one SIGINT to the group interrupts the code and one SIGKILL ends it all.
 */
public interface Sandbox {

  /** Set in a driver's environment when its launcher already leads the group: the driver must not leave it. */
  String SHARED_GROUP_ENV = "I4J_SHARED_PROCESS_GROUP";

  /** The sandbox the settings name, hiding nothing: see {@link #of(SandboxSettings, MaskedPaths)}. */
  static Sandbox of(SandboxSettings settings) {
    return of(settings, MaskedPaths.NONE);
  }

  /**
   * The sandbox the settings name, hiding {@code masked} from the code; AUTO and AUTO_RUN are this platform's (which
   * sessions get it is {@link Containment}'s choice). Nothing is probed here: see {@link #check()}.
   */
  static Sandbox of(SandboxSettings settings, MaskedPaths masked) {
    return switch (settings.resolvedKind()) {
      case NONE -> settings.kind() == SandboxSettings.Kind.NONE ? none()
          : new UnavailableSandbox(settings.kind().configName(), "no sandbox is known for "
              + System.getProperty("os.name") + " (bwrap runs on Linux, seatbelt on macOS): use --sandbox=docker or "
              + "run with --sandbox=none");
      case BWRAP -> BubblewrapSandbox.onPath(settings.network(), masked);
      case DOCKER -> new DockerSandbox(settings.network(), settings.dockerImage(),
          ProbedSandbox.onPath("docker"), masked);
      case SEATBELT -> new SeatbeltSandbox(settings.network(), masked);
      case AUTO, AUTO_RUN -> throw new IllegalStateException("resolved by SandboxSettings.resolvedKind()");
    };
  }

  /** Code runs directly on the machine. */
  static Sandbox none() {
    return NoSandbox.INSTANCE;
  }

  /** "none", "bwrap", "docker", "seatbelt". */
  String name();

  /**
   * Empty when this sandbox can run here; otherwise why not and what to do about it. May run a short probe the
   * first time (blocking); the answer is remembered.
   */
  Optional<String> availability();

  /** Throws {@link IllegalStateException} with {@link #availability()}'s message when the sandbox cannot run. */
  default void check() {
    Optional<String> problem = availability();
    if (problem.isPresent()) {
      throw new IllegalStateException(problem.get());
    }
  }

  /** The command line that runs {@code argv} inside the sandbox, with {@code workdir} and {@code sessionDir} writable. */
  List<String> wrap(List<String> argv, Path workdir, Path sessionDir);

  /** A whole launch inside the sandbox: command line, and the environment and session it needs there. */
  default LaunchSpec wrap(LaunchSpec launch, Path sessionDir) {
    return launch.withArgv(wrap(launch.argv(), launch.workdir(), sessionDir));
  }

  /**
   * The command line of a launch {@link #wrap(LaunchSpec, Path) wrapped} by this sandbox, for a parent that starts
   * it itself leading a new session with SIGINT ignored and that lives as long as it runs (the python fork server's
   * {@code posix_spawn}): without the shell this sandbox puts in front for a JVM parent. Empty when this sandbox
   * puts no such shell in front (the launch is then started as it is).
   */
  default java.util.Optional<List<String>> withoutSigintShell(List<String> wrappedArgv) {
    return java.util.Optional.empty();
  }

  /**
   * The python to run inside the sandbox for {@code hostPython}, the one chosen on the host (an absolute path or a
   * command name). Only a sandbox with its own file system (docker) changes it.
   */
  default String python(String hostPython, Path workdir) {
    return hostPython;
  }

  /** One sentence for the system prompt about what the code may do, or "" when nothing is confined. */
  String promptSentence();

  /** Whether the code may use the network (true without a sandbox). */
  default boolean network() {
    return true;
  }

  /** The paths hidden from the code. */
  default MaskedPaths masked() {
    return MaskedPaths.NONE;
  }
}
