package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.sandbox.Subprocess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BashInstallsTest {

  @TempDir
  Path workdir;

  @Test
  void spotsPipInstallsByName() {
    assertTrue(BashInstalls.installs("pip install requests"));
    assertTrue(BashInstalls.installs("cd app && pip3 install -r requirements.txt"));
    assertTrue(BashInstalls.installs("python3 -m pip install ."));
    assertTrue(BashInstalls.installs("python3.12 -m pip  install x"));
    assertTrue(BashInstalls.installs("uv pip install x"));
    assertTrue(BashInstalls.installs("x=$(pip install y)"));
    assertFalse(BashInstalls.installs("pip list"));
    assertFalse(BashInstalls.installs("pipx install black"));
    assertFalse(BashInstalls.installs("/opt/tool/bin/pip install x"), "a pip named by path is the user's choice");
    assertFalse(BashInstalls.installs("echo pipinstall"));
  }

  @Test
  void theActivationLineIsOneLineOfValidBashWithQuotedPaths() {
    Path odd = workdir.resolve("it's here");
    String line = BashInstalls.activationLine(new WorkdirVenv(odd), "python3");
    assertFalse(line.contains("\n"));
    assertTrue(line.contains("'" + odd.toString().replace("'", "'\\''") + "/.venv'"), line);
    Subprocess.Result syntax = Subprocess.run(List.of("bash", "-n", "-c", line + "echo ok"), workdir, Map.of(),
        Duration.ofSeconds(10));
    assertEquals(0, syntax.exitCode(), syntax.output());
  }

  @Test
  void anActiveEnvironmentIsLeftAsItIs() {
    String line = BashInstalls.activationLine(new WorkdirVenv(workdir), "python3");
    Subprocess.Result kept = Subprocess.run(List.of("bash", "-c", "f() { " + line + "echo \"$VIRTUAL_ENV\"; }; f"),
        workdir, Map.of("VIRTUAL_ENV", "/elsewhere"), Duration.ofSeconds(10));
    assertEquals("/elsewhere\n", kept.output());
  }
}
