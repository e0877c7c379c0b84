package io.interpreter4j.runtime.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A container per interpreter: {@code docker run --rm -i --init ...} with the working directory and the session
 * folder mounted at their own paths, no network unless allowed, and the image's python. Runs as the owner of the
 * working directory, so files the code writes there keep their owner.
 *
 * <p>Signals reach the code through the docker client's signal proxy and the container's init (tini), which is
 * told to signal the whole process group of the interpreter. Only the environment entries the worker sets go in
 * (not the host's whole environment, with its secrets).
 */
final class DockerSandbox extends ProbedSandbox {

  /** PATH in the official python images; a virtual environment's bin goes in front of it. */
  static final String IMAGE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private final String image;

  /** {@code executable}: the docker client to run, or null when there is none. */
  DockerSandbox(boolean network, String image, String executable) {
    this(network, image, executable, MaskedPaths.NONE);
  }

  /** {@code masked}: hidden where they lie inside a shared folder (the rest of the host is not in the container). */
  DockerSandbox(boolean network, String image, String executable, MaskedPaths masked) {
    super("docker", network, executable, masked);
    this.image = image;
  }

  @Override
  public List<String> wrap(List<String> argv, Path workdir, Path sessionDir) {
    return command(argv, workdir, sessionDir, Map.of());
  }

  @Override
  public LaunchSpec wrap(LaunchSpec launch, Path sessionDir) {
    return launch.withArgv(command(launch.argv(), launch.workdir(), sessionDir, launch.env()));
  }

  /** The image's python; one inside the working directory (a virtual environment there) by its relative path. */
  @Override
  public String python(String hostPython, Path workdir) {
    Path dir = workdir.toAbsolutePath().normalize();
    if (hostPython != null && Path.of(hostPython).isAbsolute()) {
      Path python = Path.of(hostPython).normalize();
      if (python.startsWith(dir)) {
        // relative: the host cannot check a link into the container's file system, the container resolves it in -w
        return "./" + dir.relativize(python);
      }
    }
    return "python3";
  }

  @Override
  public String promptSentence() {
    return "Your code runs in a Docker container (" + image + "): only the working directory is shared with the "
        + "machine, and files elsewhere are the container's" + (network ? "." : "; there is no network access.");
  }

  @Override
  public String toString() {
    return "Sandbox[docker, image=" + image + ", network=" + network + "]";
  }

  private List<String> command(List<String> argv, Path workdir, Path sessionDir, Map<String, String> env) {
    Path dir = workdir.toAbsolutePath().normalize();
    List<String> all = new ArrayList<>();
    all.add(executable != null ? executable : "docker");
    all.addAll(List.of("run", "--rm", "-i", "--init"));
    if (!network) {
      all.addAll(List.of("--network", "none"));
    }
    owner(dir).ifPresent(user -> all.addAll(List.of("--user", user)));
    TreeSet<String> mounts = new TreeSet<>();
    mounts.add(dir.toString());
    if (sessionDir != null) {
      mounts.add(sessionDir.toAbsolutePath().normalize().toString());
    }
    for (String mount : mounts) {
      all.addAll(List.of("-v", mount + ":" + mount));
    }
    // only what lies inside a shared folder is in the container at all (the working directory may be the home)
    for (Path path : masked.present()) {
      if (mounts.stream().anyMatch(m -> path.startsWith(m) && !path.equals(Path.of(m)))) {
        all.addAll(Files.isDirectory(path)
            ? List.of("--mount", "type=tmpfs,destination=" + path + ",readonly")
            : List.of("-v", "/dev/null:" + path + ":ro"));
      }
    }
    all.addAll(List.of("-w", dir.toString()));
    // tini signals the interpreter's whole process group, so an interrupt reaches the code's children
    all.addAll(List.of("-e", "TINI_KILL_PROCESS_GROUP=1", "-e", "HOME=/tmp"));
    for (String name : new TreeSet<>(env.keySet())) {
      if (!name.equals("PATH")) {
        all.addAll(List.of("-e", name)); // the value comes from the client's environment, set by the launcher
      }
    }
    String venv = env.get("VIRTUAL_ENV");
    if (venv != null) {
      all.addAll(List.of("-e", "PATH=" + venv + "/bin:" + IMAGE_PATH));
    }
    all.add(image);
    all.addAll(argv);
    return all;
  }

  /** "uid:gid" of the working directory, so files written there keep their owner; empty where unknown. */
  private static Optional<String> owner(Path dir) {
    try {
      Object uid = Files.getAttribute(dir, "unix:uid");
      Object gid = Files.getAttribute(dir, "unix:gid");
      return Optional.of(uid + ":" + gid);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  @Override
  Optional<String> probe() {
    if (executable == null) {
      return Optional.of("docker sandbox requested but the docker command was not found: install Docker or run "
          + "with --sandbox=none");
    }
    Subprocess.Result info = Subprocess.run(List.of(executable, "info", "--format", "{{.ServerVersion}}"), null,
        Map.of(), PROBE_TIMEOUT);
    if (info.ok()) {
      return Optional.empty();
    }
    String why = info.timedOut() ? "docker info did not answer within " + PROBE_TIMEOUT.toSeconds() + " s"
        : info.lastLine().isEmpty() ? "docker info exited with code " + info.exitCode() : info.lastLine();
    return Optional.of("docker sandbox requested but no Docker engine is running: " + why
        + "; start Docker or run with --sandbox=none");
  }
}
