package io.interpreter4j.runtime.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** A sandbox that was asked for but cannot exist here: every check and every launch fails with the reason. */
final class UnavailableSandbox implements Sandbox {

  private final String name;
  private final String reason;

  UnavailableSandbox(String name, String reason) {
    this.name = name;
    this.reason = reason;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Optional<String> availability() {
    return Optional.of(reason);
  }

  @Override
  public List<String> wrap(List<String> argv, Path workdir, Path sessionDir) {
    throw new IllegalStateException(reason);
  }

  @Override
  public String promptSentence() {
    return "";
  }

  @Override
  public String toString() {
    return "Sandbox[" + name + ", unavailable]";
  }
}
