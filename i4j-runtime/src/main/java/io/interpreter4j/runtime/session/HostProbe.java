package io.interpreter4j.runtime.session;

import io.interpreter4j.core.prompt.HostInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Gathers the {@link HostInfo} for the system prompt once, at start. */
public final class HostProbe {

  private HostProbe() {}

  public static HostInfo probe(Path workdir, String python, List<String> languages, Map<String, String> env) {
    return new HostInfo(
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("os.arch"),
        System.getProperty("user.name"),
        workdir.toString(),
        env.getOrDefault("SHELL", "/bin/sh"),
        pythonVersion(python),
        languages);
  }

  /** {@code python --version} of the given interpreter, or "unknown" when it does not answer within 5 s. */
  static String pythonVersion(String python) {
    try {
      Process p = new ProcessBuilder(python, "--version").redirectErrorStream(true).start();
      p.getOutputStream().close();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "unknown";
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return out.startsWith("Python ") ? out.substring("Python ".length()) : out;
    } catch (IOException e) {
      return "not found (" + python + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
