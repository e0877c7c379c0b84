package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.testing.RequiredTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The docker command line; no engine runs on the test machine, so only availability runs for real. */
class DockerSandboxTest {

  @TempDir
  Path workdir;

  static void assertHas(List<String> argv, String... sequence) {
    assertTrue(Collections.indexOfSubList(argv, List.of(sequence)) >= 0, "missing " + List.of(sequence) + " in " + argv);
  }

  @Test
  void runsTheInterpreterInAThrowawayContainerWithTheWorkdirMounted() throws IOException {
    Path s = workdir.resolve("session");
    List<String> argv = new DockerSandbox(false, "python:3.12-slim", "/usr/bin/docker")
        .wrap(List.of("python3", "-u", "-c", "pass"), workdir, s);
    assertEquals(List.of("/usr/bin/docker", "run", "--rm", "-i", "--init"), argv.subList(0, 5));
    assertHas(argv, "--network", "none");
    assertHas(argv, "-v", workdir + ":" + workdir);
    assertHas(argv, "-v", s + ":" + s);
    assertHas(argv, "-w", workdir.toString());
    assertHas(argv, "-e", "TINI_KILL_PROCESS_GROUP=1");
    Object uid = Files.getAttribute(workdir, "unix:uid");
    Object gid = Files.getAttribute(workdir, "unix:gid");
    assertHas(argv, "--user", uid + ":" + gid);
    assertEquals(List.of("python:3.12-slim", "python3", "-u", "-c", "pass"), argv.subList(argv.size() - 5, argv.size()));
  }

  @Test
  void maskedPathsInsideASharedFolderAreCoveredAndTheRestOfTheHostIsNotInTheContainerAnyway() throws IOException {
    Path ssh = Files.createDirectories(workdir.resolve(".ssh"));
    Path netrc = Files.writeString(workdir.resolve(".netrc"), "x");
    Path elsewhere = Files.createDirectories(workdir.getParent().resolve("i4j-not-shared-" + ProcessHandle.current()
        .pid()));
    try {
      MaskedPaths masked = MaskedPaths.of(List.of(ssh, netrc, elsewhere), List.of());
      List<String> argv = new DockerSandbox(false, "img", "docker", masked).wrap(List.of("true"), workdir, workdir);
      assertHas(argv, "--mount", "type=tmpfs,destination=" + ssh + ",readonly");
      assertHas(argv, "-v", "/dev/null:" + netrc + ":ro");
      assertFalse(String.join(" ", argv).contains(elsewhere.toString()), argv.toString());
    } finally {
      Files.delete(elsewhere);
    }
  }

  @Test
  void networkAllowedUsesTheDefaultNetwork() {
    List<String> argv = new DockerSandbox(true, "img", "docker").wrap(List.of("true"), workdir, workdir);
    assertFalse(argv.contains("--network"));
    assertEquals(1, Collections.frequency(argv, "-v"), "one mount when the session folder is the workdir");
  }

  @Test
  void passesOnlyTheWorkersEnvironmentEntriesAndThePathOfAnActiveVenv() {
    Path venv = workdir.resolve(".venv");
    LaunchSpec launch = new LaunchSpec(List.of("./.venv/bin/python", "-u"), workdir,
        Map.of("PYTHONUNBUFFERED", "1", "VIRTUAL_ENV", venv.toString(), "PATH", venv + "/bin:/root/.pyenv/shims"), true);
    LaunchSpec wrapped = new DockerSandbox(false, "img", "docker").wrap(launch, workdir);
    List<String> argv = wrapped.argv();
    assertHas(argv, "-e", "PYTHONUNBUFFERED");
    assertHas(argv, "-e", "VIRTUAL_ENV");
    assertHas(argv, "-e", "PATH=" + venv + "/bin:" + DockerSandbox.IMAGE_PATH);
    assertFalse(argv.contains("PATH"), "the host's PATH means nothing in the image");
    assertTrue(wrapped.newSession(), "setsid goes on the docker client; tini leads the group inside");
    assertEquals("docker", wrapped.command("/usr/bin/setsid").get(1));
  }

  @Test
  void pythonIsTheImagesOrTheWorkdirVenvsByRelativePath() {
    DockerSandbox docker = new DockerSandbox(false, "img", "docker");
    assertEquals("python3", docker.python("/root/.pyenv/versions/3.11.7/bin/python3.11", workdir));
    assertEquals("./.venv/bin/python", docker.python(workdir.resolve(".venv/bin/python").toString(), workdir));
  }

  @Test
  void withoutAnEngineItSaysSo() throws IOException {
    Path fake = workdir.resolve("docker");
    Files.writeString(fake, "#!/bin/sh\necho 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. "
        + "Is the docker daemon running?' >&2\nexit 1\n");
    Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    DockerSandbox docker = new DockerSandbox(false, "img", fake.toString());
    IllegalStateException e = assertThrows(IllegalStateException.class, docker::check);
    assertEquals("docker sandbox requested but no Docker engine is running: Cannot connect to the Docker daemon at "
        + "unix:///var/run/docker.sock. Is the docker daemon running?; start Docker or run with --sandbox=none",
        e.getMessage());
  }

  @Test
  void withoutTheDockerCommandItSaysSo() {
    assertEquals(Optional.of("docker sandbox requested but the docker command was not found: install Docker or run "
        + "with --sandbox=none"), new DockerSandbox(false, "img", null).availability());
  }

  @Test
  void theRealDockerOfThisMachineIsCheckedTheSameWay() {
    Optional<Path> docker = Subprocess.executable("docker");
    // exempt: CI machines have no Docker engine (the client alone checks nothing more than the test above)
    RequiredTool.exempt(docker.isPresent(), "the docker command", "CI machines run no Docker engine");
    Optional<String> problem = Sandbox.of(SandboxSettings.NONE.withKind(SandboxSettings.Kind.DOCKER)).availability();
    // an engine may or may not run here: either it is usable or the reason names the missing engine
    problem.ifPresent(p -> assertTrue(p.startsWith("docker sandbox requested but no Docker engine is running: "), p));
  }
}
