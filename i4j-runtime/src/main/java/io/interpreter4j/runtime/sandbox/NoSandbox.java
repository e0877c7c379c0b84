package io.interpreter4j.runtime.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** No sandbox: the command line runs as it is. */
final class NoSandbox implements Sandbox {

  static final NoSandbox INSTANCE = new NoSandbox();

  private NoSandbox() {}

  @Override
  public String name() {
    return "none";
  }

  @Override
  public Optional<String> availability() {
    return Optional.empty();
  }

  @Override
  public List<String> wrap(List<String> argv, Path workdir, Path sessionDir) {
    return List.copyOf(argv);
  }

  @Override
  public LaunchSpec wrap(LaunchSpec launch, Path sessionDir) {
    return launch;
  }

  @Override
  public String promptSentence() {
    return "";
  }

  @Override
  public String toString() {
    return "Sandbox[none]";
  }
}
