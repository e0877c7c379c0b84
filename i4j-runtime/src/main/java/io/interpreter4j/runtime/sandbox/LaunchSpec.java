package io.interpreter4j.runtime.sandbox;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A process to start, as a value: its command line, working directory, the environment entries set on top of the
 * inherited environment, and whether it is to lead a new session ({@code setsid}), so that one signal to its process
 * group reaches everything it starts. A {@link Sandbox} turns one launch into another.
 */
public record LaunchSpec(List<String> argv, Path workdir, Map<String, String> env, boolean newSession) {

  public LaunchSpec {
    argv = List.copyOf(argv);
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("empty command line");
    }
    Objects.requireNonNull(workdir, "workdir");
    env = env == null ? Map.of() : Map.copyOf(env);
  }

  public LaunchSpec withArgv(List<String> value) {
    return new LaunchSpec(value, workdir, env, newSession);
  }

  /** This launch with {@code entries} added to (and overriding) its environment entries. */
  public LaunchSpec withEnv(Map<String, String> entries) {
    Map<String, String> all = new HashMap<>(env);
    all.putAll(entries);
    return new LaunchSpec(argv, workdir, all, newSession);
  }

  /** The full command line: {@code setsid} first when this launch leads a new session and setsid is known. */
  public List<String> command(String setsid) {
    if (!newSession || setsid == null) {
      return argv;
    }
    List<String> all = new java.util.ArrayList<>(argv.size() + 1);
    all.add(setsid);
    all.addAll(argv);
    return all;
  }
}
