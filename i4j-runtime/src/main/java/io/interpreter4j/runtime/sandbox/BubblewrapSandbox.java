package io.interpreter4j.runtime.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Linux: bubblewrap. The root file system is read-only, the working directory and session folder are writable,
 * {@code /tmp} is private, {@code /dev} and {@code /proc} are the sandbox's own, the code gets its own PID (and IPC)
 * namespace and, unless the network is allowed, a network namespace with nothing but its own loopback. What the
 * driver needs from the hidden folders (interpreter4j's jar or classes folder, a JVM, a python or virtual environment
 * under {@code /tmp}) is bound back read-only at the same place: see {@link HiddenReads}.
 *
 * <p>Signals: {@code --new-session} is not used, because it would put the code in a process group of its own that
 * the worker cannot signal. The launcher's {@code setsid} is applied outside bwrap instead, which also leaves the
 * code without a controlling terminal (what --new-session protects against); bwrap itself runs with SIGINT ignored,
 * so an interrupt of the group reaches only the code. {@code --die-with-parent} and the PID namespace make a kill of
 * bwrap end every process inside, even ones that left the group. A parent that starts bwrap in a new session with
 * SIGINT ignored itself, and outlives it (the python fork server), drops the shell: {@link #withoutSigintShell}.
 */
final class BubblewrapSandbox extends ProbedSandbox {

  /**
   * Runs the rest of the command line as a child, with SIGINT ignored (inherited through exec). A child and not an
   * exec: {@code --die-with-parent} ties bwrap to its parent <em>thread</em>, and the JVM thread that started the
   * process returns to its pool and may end at any time; this shell lives exactly as long as bwrap.
   */
  static final List<String> IGNORING_SIGINT = List.of("/bin/sh", "-c", "trap '' INT; \"$0\" \"$@\"; exit $?");

  /** Sockets of local daemons that would let code out of the sandbox (a read-only mount does not stop connect()). */
  static final List<String> DAEMON_SOCKETS = List.of("/run/docker.sock", "/var/run/docker.sock",
      "/run/containerd/containerd.sock", "/run/podman/podman.sock", "/run/dbus/system_bus_socket");

  /** Paths every launch may read wherever they are: interpreter4j's jar or classes folder, and its JVM. */
  private final List<Path> alwaysReadable;

  /** The bwrap on the PATH, binding back interpreter4j's own code and JVM. */
  static BubblewrapSandbox onPath(boolean network, MaskedPaths masked) {
    return new BubblewrapSandbox(network, onPath("bwrap"), ownCode(), masked);
  }

  /** {@code executable}: the bwrap to run, or null when there is none. */
  BubblewrapSandbox(boolean network, String executable) {
    this(network, executable, ownCode(), MaskedPaths.NONE);
  }

  /** {@code alwaysReadable}: paths bound read-only into every launch when the sandbox would hide them. */
  BubblewrapSandbox(boolean network, String executable, List<Path> alwaysReadable) {
    this(network, executable, alwaysReadable, MaskedPaths.NONE);
  }

  /** {@code masked}: paths hidden from the code (an empty read-only folder, a file that cannot be opened). */
  BubblewrapSandbox(boolean network, String executable, List<Path> alwaysReadable, MaskedPaths masked) {
    super("bwrap", network, executable, masked);
    this.alwaysReadable = List.copyOf(alwaysReadable);
  }

  @Override
  public List<String> wrap(List<String> argv, Path workdir, Path sessionDir) {
    return command(argv, System.getenv(), workdir, sessionDir);
  }

  @Override
  public LaunchSpec wrap(LaunchSpec launch, Path sessionDir) {
    // the driver runs below bwrap, not as the group leader; it must stay in the launcher's group
    LaunchSpec inner = launch.newSession() ? launch.withEnv(Map.of(SHARED_GROUP_ENV, "1")) : launch;
    Map<String, String> env = new HashMap<>(System.getenv());
    env.putAll(launch.env());
    return inner.withArgv(command(launch.argv(), env, launch.workdir(), sessionDir));
  }

  /**
   * bwrap and what follows it, without {@link #IGNORING_SIGINT}: for a parent that starts bwrap with SIGINT ignored
   * itself, leading a new session, and outlives it (so {@code --die-with-parent} watches a parent that stays).
   */
  @Override
  public Optional<List<String>> withoutSigintShell(List<String> wrappedArgv) {
    int shell = IGNORING_SIGINT.size();
    if (wrappedArgv.size() <= shell || !wrappedArgv.subList(0, shell).equals(IGNORING_SIGINT)
        || !wrappedArgv.get(shell).equals(executable) || !Path.of(executable).isAbsolute()) {
      return Optional.empty();
    }
    return Optional.of(List.copyOf(wrappedArgv.subList(shell, wrappedArgv.size())));
  }

  /** The bwrap command line for {@code argv} run with {@code env} (the whole environment the code will have). */
  private List<String> command(List<String> argv, Map<String, String> env, Path workdir, Path sessionDir) {
    if (executable == null) {
      throw new IllegalStateException(notFound());
    }
    List<String> all = new ArrayList<>(IGNORING_SIGINT);
    all.add(executable);
    all.addAll(List.of("--die-with-parent", "--unshare-pid", "--unshare-ipc"));
    if (!network) {
      all.add("--unshare-net");
    }
    all.addAll(List.of("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"));
    for (String socket : DAEMON_SOCKETS) {
      if (Files.exists(Path.of(socket))) {
        all.addAll(List.of("--ro-bind", "/dev/null", socket));
      }
    }
    List<Path> hidden = new ArrayList<>(List.of(Path.of("/tmp")));
    if (Files.isDirectory(Path.of("/run/user"))) {
      all.addAll(List.of("--tmpfs", "/run/user")); // session buses (systemd-run --user) are a way out
      hidden.add(Path.of("/run/user"));
    }
    Set<Path> writable = new TreeSet<>(HiddenReads.PARENTS_FIRST);
    writable.add(absolute(workdir));
    if (sessionDir != null) {
      writable.add(absolute(sessionDir));
    }
    // what the driver reads from a hidden folder comes back read-only; masked paths are covered; parents before
    // children, so a session folder inside the working directory or inside a masked data folder, a working directory
    // inside a bound checkout, or a masked ~/.ssh inside a working directory that is the home folder, stays as meant
    Map<Path, List<String>> mounts = new TreeMap<>(HiddenReads.PARENTS_FIRST);
    List<Path> readable = HiddenReads.of(hidden, writable, alwaysReadable, argv, env);
    readable.forEach(p -> mounts.put(p, List.of("--ro-bind", p.toString(), p.toString())));
    List<Path> maskedFolders = new ArrayList<>();
    for (Path path : masked.present()) {
      if (writable.contains(path) || !visible(path, hidden, writable, readable)) {
        continue; // the working directory itself is never hidden; what the sandbox hides already needs no mask
      }
      if (Files.isDirectory(path)) {
        mounts.put(path, List.of("--tmpfs", path.toString()));
        maskedFolders.add(path);
      } else {
        mounts.put(path, List.of("--ro-bind", "/dev/null", path.toString()));
      }
    }
    writable.forEach(p -> mounts.put(p, List.of("--bind", p.toString(), p.toString())));
    mounts.values().forEach(all::addAll);
    // read-only once everything inside them is mounted: a writable session folder inside stays writable
    maskedFolders.forEach(p -> all.addAll(List.of("--remount-ro", p.toString())));
    sessionSockets(env).forEach(socket -> all.addAll(List.of("--bind", socket.toString(), socket.toString())));
    // the home folder is read-only: caches (pip's among them, and npm's ~/.npm) go to the private /tmp
    all.addAll(List.of("--setenv", "XDG_CACHE_HOME", "/tmp/.cache", "--setenv", "npm_config_cache", "/tmp/.npm"));
    all.addAll(List.of("--chdir", absolute(workdir).toString(), "--"));
    all.addAll(argv);
    return all;
  }

  /**
   * The sockets of the session's computer use that its environment names, when they exist: the X server of a local
   * {@code DISPLAY} ({@code :N} -> {@code /tmp/.X11-unix/XN}) and the computer channel ({@code I4J_COMPUTER_SOCKET}).
   * Only these are bound into the private {@code /tmp}; nothing else of it is.
   */
  static List<Path> sessionSockets(Map<String, String> env) {
    List<Path> sockets = new ArrayList<>();
    String display = env.get("DISPLAY");
    if (display != null && display.matches(":\\d+(\\.\\d+)?")) {
      String number = display.substring(1).split("\\.")[0];
      Path x = Path.of("/tmp/.X11-unix/X" + number);
      // a computer session's private Xvfb is started with the session, and its first interpreter may come first:
      // wait a little for its socket, since bwrap can only bind what exists when it starts
      if (env.containsKey("I4J_COMPUTER_SOCKET")) {
        awaitFile(x, X_SOCKET_WAIT);
      }
      if (Files.exists(x)) {
        sockets.add(x);
      }
    }
    String channel = env.get("I4J_COMPUTER_SOCKET");
    if (channel != null && !channel.isBlank() && Files.exists(Path.of(channel))) {
      sockets.add(Path.of(channel).toAbsolutePath().normalize());
    }
    return sockets;
  }

  /** How long an interpreter of a computer session waits for its private X server's socket at most. */
  static final java.time.Duration X_SOCKET_WAIT = java.time.Duration.ofSeconds(10);

  /** Waits until {@code path} exists or {@code limit} passed (called where a process is started, off actor threads). */
  private static void awaitFile(Path path, java.time.Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!Files.exists(path) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Whether {@code path} can be seen in the sandbox: outside the hidden folders, or inside something bound. */
  private static boolean visible(Path path, List<Path> hidden, Set<Path> writable, List<Path> readable) {
    return hidden.stream().noneMatch(path::startsWith) || writable.stream().anyMatch(path::startsWith)
        || readable.stream().anyMatch(path::startsWith);
  }

  @Override
  public String promptSentence() {
    return "Your code runs in a bubblewrap sandbox: it can write only in the working directory and in /tmp (private "
        + "to this sandbox); the rest of the file system is read-only"
        + (masked.paths().isEmpty() ? "" : ", and credentials (~/.ssh, ~/.aws, ...) are hidden")
        + (network ? "." : "; there is no network access (pip can install only from local files).");
  }

  @Override
  public String toString() {
    return "Sandbox[bwrap, network=" + network + ", masked=" + masked.paths().size() + "]";
  }

  @Override
  Optional<String> probe() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.contains("linux")) {
      return Optional.of("the bwrap sandbox needs Linux (this is " + System.getProperty("os.name")
          + "): use --sandbox=seatbelt on macOS or --sandbox=docker, or run with --sandbox=none");
    }
    if (executable == null) {
      return Optional.of(notFound());
    }
    Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    Subprocess.Result result = Subprocess.run(wrap(List.of("true"), tmp, null), tmp, Map.of(), PROBE_TIMEOUT);
    if (result.ok()) {
      return Optional.empty();
    }
    String why = result.timedOut() ? "it did not finish within " + PROBE_TIMEOUT.toSeconds() + " s" : result.lastLine();
    return Optional.of("bwrap cannot create a sandbox here (" + why + "): unprivileged user namespaces may be "
        + "disabled (sysctl kernel.unprivileged_userns_clone=1, or AppArmor's userns restriction on Ubuntu); "
        + "fix that or run with --sandbox=none");
  }

  /** interpreter4j's own jar or classes folder (the JShell driver and the html renderer run from it) and its JVM. */
  private static List<Path> ownCode() {
    List<Path> own = new ArrayList<>();
    Path code = HiddenReads.codeOf(BubblewrapSandbox.class);
    if (code != null) {
      own.add(code);
    }
    own.add(absolute(Path.of(System.getProperty("java.home"))));
    return own;
  }

  private static String notFound() {
    return "bwrap not found: install bubblewrap (apt-get install bubblewrap) or run with --sandbox=none";
  }

  private static Path absolute(Path path) {
    return path.toAbsolutePath().normalize();
  }
}
