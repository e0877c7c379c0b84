package io.interpreter4j.runtime.sandbox;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A sandbox that runs an external command (bwrap, docker) and learns whether it works here by a probe, run once on
 * the first {@link #availability()} and remembered. Subclasses build the command line and say how to probe.
 */
abstract class ProbedSandbox implements Sandbox {

  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(20);

  private final String name;
  final boolean network;
  /** The command to run, or null when there is none. */
  final String executable;
  /** What the code must not see. */
  final MaskedPaths masked;
  private volatile Optional<String> availability;

  ProbedSandbox(String name, boolean network, String executable) {
    this(name, network, executable, MaskedPaths.NONE);
  }

  ProbedSandbox(String name, boolean network, String executable, MaskedPaths masked) {
    this.name = name;
    this.network = network;
    this.executable = executable;
    this.masked = masked;
  }

  /** The path of {@code command} on the PATH, or null when there is none. */
  static String onPath(String command) {
    return Subprocess.executable(command).map(Path::toString).orElse(null);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final boolean network() {
    return network;
  }

  @Override
  public final MaskedPaths masked() {
    return masked;
  }

  @Override
  public final Optional<String> availability() {
    Optional<String> known = availability;
    if (known == null) {
      synchronized (this) {
        if (availability == null) {
          availability = probe();
        }
        known = availability;
      }
    }
    return known;
  }

  /** Empty when this sandbox can run here; otherwise why not and what to do about it. May block for a while. */
  abstract Optional<String> probe();
}
