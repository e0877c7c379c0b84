package io.interpreter4j.runtime.repl;

/** The real python interpreter behind {@code python3} on the PATH, resolved once per process. */
public final class PythonLocator {

  private PythonLocator() {}

  public static String resolve() {
    return ReplDialect.PythonExecutable.resolve();
  }
}
