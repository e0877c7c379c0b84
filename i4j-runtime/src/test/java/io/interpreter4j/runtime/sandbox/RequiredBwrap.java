package io.interpreter4j.runtime.sandbox;

import io.interpreter4j.core.testing.RequiredTool;

/**
 * The bubblewrap sandbox for a test that runs code in it, through {@link RequiredTool}: skipped where bwrap is missing
 * or cannot create a sandbox, failed under {@code I4J_REQUIRE_ALL=true} (CI installs bubblewrap).
 */
public final class RequiredBwrap {

  private RequiredBwrap() {}

  /** A working bwrap sandbox, with or without the network. */
  public static Sandbox sandbox(boolean network) {
    RequiredTool.assume(Subprocess.executable("bwrap").isPresent(), "bwrap", "apt-get install bubblewrap");
    Sandbox sandbox = Sandbox.of(SandboxSettings.NONE.withKind(SandboxSettings.Kind.BWRAP).withNetwork(network));
    RequiredTool.assume(sandbox.availability().isEmpty(), "a bwrap that can create a sandbox",
        sandbox.availability().orElse(""));
    return sandbox;
  }
}
