package io.interpreter4j.runtime.session;

import io.interpreter4j.core.config.Settings;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where this process's sessions run their code unless a {@link SessionSpec} says otherwise: the containment (which
 * sandbox for auto-run and for ask sessions, what it hides) and the pip-install mode, chosen once at start from the
 * configuration ({@code --sandbox}, {@code interpreter4j.sandbox}, {@code interpreter4j.python.venv}), so that
 * sessions made by the terminal, the server and batches all honour them. Unset, they are reference.conf's: auto-run
 * code in the platform's sandbox, hiding the standard secrets ({@link MaskedPaths#standard}), and isolated installs.
 */
public final class ProcessDefaults {
  private static volatile Containment containment;
  private static volatile VenvMode venv = VenvMode.AUTO;
  private static volatile ComputerSpec computer = ComputerSpec.OFF;

  private ProcessDefaults() {}

  /** Sets both; call once at start, before any session is created. */
  public static void set(Containment newContainment, VenvMode newVenv) {
    containment = newContainment;
    venv = newVenv;
  }

  public static Containment containment() {
    Containment known = containment;
    if (known == null) {
      synchronized (ProcessDefaults.class) {
        if (containment == null) {
          containment = reference();
        }
        known = containment;
      }
    }
    return known;
  }

  public static VenvMode venv() {
    return venv;
  }

  /** Computer use for this process's sessions ({@code --computer}, {@code interpreter4j.computer}); call at start. */
  public static void setComputer(ComputerSpec value) {
    computer = value == null ? ComputerSpec.OFF : value;
  }

  public static ComputerSpec computer() {
    return computer;
  }

  /** reference.conf's containment, with this process's home, configuration and data folders hidden. */
  private static Containment reference() {
    Map<String, String> env = System.getenv();
    Path dataDir;
    try {
      dataDir = Settings.defaults().dataDir();
    } catch (RuntimeException e) {
      dataDir = null; // a broken configuration is reported where it is read; the secrets of the home stay masked
    }
    return Containment.of(SandboxSettings.DEFAULT, MaskedPaths.standard(env, dataDir, List.of()));
  }
}
