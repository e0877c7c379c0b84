package io.interpreter4j.runtime.session;

import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Sandbox;

/**
 * Where this process's sessions run their code unless a {@link SessionSpec} says otherwise: the sandbox and the
 * pip-install mode chosen once at start from the configuration ({@code --sandbox}, {@code interpreter4j.python.venv}),
 * so that sessions made by the terminal, the server and batches all honour them.
 */
public final class ProcessDefaults {
  private static volatile Sandbox sandbox = Sandbox.none();
  private static volatile VenvMode venv = VenvMode.AUTO;

  private ProcessDefaults() {}

  /** Sets both; call once at start, before any session is created. */
  public static void set(Sandbox newSandbox, VenvMode newVenv) {
    sandbox = newSandbox;
    venv = newVenv;
  }

  public static Sandbox sandbox() {
    return sandbox;
  }

  public static VenvMode venv() {
    return venv;
  }
}
