package io.interpreter4j.runtime.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * macOS: {@code sandbox-exec} with a Seatbelt profile. Everything may be read; writes are allowed only in the
 * working directory, the session folder, the temporary folders and a few devices; IP networking is denied unless
 * allowed (local Unix sockets stay usable). sandbox-exec applies the profile and execs the command in place, so
 * process groups and signals work as without it. The paths are passed as profile parameters ({@code -D}), never
 * spliced into the profile text.
 */
final class SeatbeltSandbox implements Sandbox {

  static final String SANDBOX_EXEC = "/usr/bin/sandbox-exec";

  private final boolean network;
  private final MaskedPaths masked;

  SeatbeltSandbox(boolean network) {
    this(network, MaskedPaths.NONE);
  }

  SeatbeltSandbox(boolean network, MaskedPaths masked) {
    this.network = network;
    this.masked = masked;
  }

  /** The profile text; {@code WORKDIR}, {@code SESSION_DIR} and {@code TMPDIR} are parameters given with -D. */
  static String profile(boolean network) {
    return profile(network, 0, List.of());
  }

  /**
   * The profile hiding {@code masks} paths ({@code MASK_0}, ... given with -D): neither their content nor their
   * listing can be read, nor can they be written. {@code reallowed} names the parameters of writable folders that lie
   * inside a masked one (a session folder inside the data folder): the later rule wins, so they stay usable.
   */
  static String profile(boolean network, int masks, List<String> reallowed) {
    StringBuilder p = new StringBuilder();
    p.append("(version 1)\n");
    p.append("(allow default)\n");
    p.append("(deny file-write*)\n");
    p.append("(allow file-write*\n");
    p.append("  (subpath (param \"WORKDIR\"))\n");
    p.append("  (subpath (param \"SESSION_DIR\"))\n");
    p.append("  (subpath (param \"TMPDIR\"))\n");
    p.append("  (subpath \"/private/tmp\")\n");
    p.append("  (subpath \"/private/var/folders\")\n");
    p.append("  (literal \"/dev/null\")\n");
    p.append("  (literal \"/dev/zero\")\n");
    p.append("  (literal \"/dev/dtracehelper\")\n");
    p.append("  (regex #\"^/dev/tty\")\n");
    p.append("  (regex #\"^/dev/fd/\"))\n");
    if (!network) {
      p.append("(deny network*)\n");
      p.append("(allow network* (local unix-socket) (remote unix-socket))\n");
    }
    for (int i = 0; i < masks; i++) {
      p.append("(deny file-read-data file-write* (subpath (param \"MASK_").append(i).append("\")))\n");
    }
    for (String param : reallowed) {
      p.append("(allow file-read-data file-write* (subpath (param \"").append(param).append("\")))\n");
    }
    return p.toString();
  }

  @Override
  public String name() {
    return "seatbelt";
  }

  @Override
  public Optional<String> availability() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.contains("mac") && !os.contains("darwin")) {
      return Optional.of("the seatbelt sandbox (sandbox-exec) needs macOS (this is " + System.getProperty("os.name")
          + "): use --sandbox=bwrap on Linux or --sandbox=docker, or run with --sandbox=none");
    }
    if (!Files.isExecutable(Path.of(SANDBOX_EXEC))) {
      return Optional.of("sandbox-exec not found at " + SANDBOX_EXEC + ": run with --sandbox=none or use --sandbox=docker");
    }
    return Optional.empty();
  }

  @Override
  public List<String> wrap(List<String> argv, Path workdir, Path sessionDir) {
    String work = real(workdir);
    String session = real(sessionDir != null ? sessionDir : workdir);
    List<String> masks = new ArrayList<>();
    for (Path path : masked.present()) {
      String real = real(path);
      if (!real.equals(work) && !masks.contains(real)) {
        masks.add(real);
      }
    }
    List<String> reallowed = new ArrayList<>();
    if (masks.stream().anyMatch(m -> Path.of(work).startsWith(m))) {
      reallowed.add("WORKDIR");
    }
    if (masks.stream().anyMatch(m -> Path.of(session).startsWith(m))) {
      reallowed.add("SESSION_DIR");
    }
    List<String> all = new ArrayList<>();
    all.addAll(List.of(SANDBOX_EXEC, "-p", profile(network, masks.size(), reallowed)));
    all.addAll(List.of("-D", "WORKDIR=" + work));
    all.addAll(List.of("-D", "SESSION_DIR=" + session));
    all.addAll(List.of("-D", "TMPDIR=" + real(Path.of(System.getProperty("java.io.tmpdir")))));
    for (int i = 0; i < masks.size(); i++) {
      all.addAll(List.of("-D", "MASK_" + i + "=" + masks.get(i)));
    }
    all.addAll(argv);
    return all;
  }

  @Override
  public boolean network() {
    return network;
  }

  @Override
  public MaskedPaths masked() {
    return masked;
  }

  @Override
  public String promptSentence() {
    return "Your code runs in a macOS sandbox (sandbox-exec): it can write only in the working directory and in "
        + "temporary folders" + (masked.paths().isEmpty() ? "" : ", and credentials (~/.ssh, ~/.aws, ...) are hidden")
        + (network ? "." : "; there is no network access (pip can install only from local files).");
  }

  @Override
  public String toString() {
    return "Sandbox[seatbelt, network=" + network + "]";
  }

  /** Seatbelt matches real paths: /tmp is /private/tmp, /var is /private/var. */
  private static String real(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath().toString();
    } catch (IOException e) {
      return absolute.toString();
    }
  }
}
