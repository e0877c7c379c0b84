package io.interpreter4j.runtime.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host paths a sandbox hides from the code: credentials and tokens in the home folder ({@code ~/.ssh},
 * {@code ~/.aws}, ...), browser profiles, interpreter4j's own configuration and data folders (the session's own folder
 * is bound back by the sandbox), and whatever {@code interpreter4j.sandbox.masked-paths} adds. A masked folder looks
 * empty and read-only inside the sandbox, a masked file cannot be opened. Pure: which of them exist is asked when a
 * launch is wrapped ({@link #present()}).
 *
 * <p>Never masked: the root and any folder that is or holds a home folder (that would hide the user's whole home).
 */
public record MaskedPaths(List<Path> paths) {

  /** Secrets and browser profiles under a home folder, as paths relative to it. */
  public static final List<String> HOME_SECRETS = List.of(
      ".ssh", ".aws", ".config/gcloud", ".azure", ".kube", ".gnupg", ".netrc", ".docker", ".git-credentials",
      ".config/gh", ".password-store",
      ".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
      "snap/firefox", "snap/chromium",
      "Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
      "Library/Application Support/BraveSoftware", "Library/Safari");

  public static final MaskedPaths NONE = new MaskedPaths(List.of());

  public MaskedPaths {
    paths = List.copyOf(paths);
  }

  /**
   * The standard list for this process: the secrets under the home folder ({@code HOME} and the JVM's
   * {@code user.home}, when they differ both), interpreter4j's configuration folder ({@code $XDG_CONFIG_HOME} or
   * {@code ~/.config}, {@code /interpreter4j}) and data folder, and the configured extra paths.
   *
   * @param env     the process environment (HOME, XDG_CONFIG_HOME)
   * @param dataDir interpreter4j's data folder (sessions' journals and outputs), or null
   * @param extra   {@code interpreter4j.sandbox.masked-paths}: absolute, or {@code ~/...} (under each home)
   * @throws IllegalArgumentException for an extra path that is neither absolute nor under {@code ~/}
   */
  public static MaskedPaths standard(Map<String, String> env, Path dataDir, List<String> extra) {
    List<Path> homes = homes(env);
    List<Path> all = new ArrayList<>();
    for (Path home : homes) {
      HOME_SECRETS.forEach(relative -> all.add(home.resolve(relative)));
    }
    String xdgConfig = env.get("XDG_CONFIG_HOME");
    if (xdgConfig != null && xdgConfig.startsWith("/")) {
      all.add(Path.of(xdgConfig, "interpreter4j"));
    }
    homes.forEach(home -> all.add(home.resolve(".config/interpreter4j")));
    if (dataDir != null) {
      all.add(dataDir);
    }
    for (String value : extra) {
      all.addAll(expand(value, homes));
    }
    return of(all, homes);
  }

  /** These paths (normalised, without duplicates), less the root and any that is or holds one of {@code homes}. */
  public static MaskedPaths of(Collection<Path> paths, Collection<Path> homes) {
    Set<Path> kept = new LinkedHashSet<>();
    for (Path path : paths) {
      Path p = path.toAbsolutePath().normalize();
      if (p.getParent() != null && homes.stream().noneMatch(home -> home.startsWith(p))) {
        kept.add(p);
      }
    }
    return new MaskedPaths(List.copyOf(kept));
  }

  /** The home folders the code may know: {@code $HOME} and the JVM's {@code user.home}, absolute, each once. */
  static List<Path> homes(Map<String, String> env) {
    Set<Path> homes = new LinkedHashSet<>();
    String home = env.get("HOME");
    if (home != null && home.startsWith("/")) {
      homes.add(Path.of(home).normalize());
    }
    String userHome = System.getProperty("user.home", "");
    if (userHome.startsWith("/")) {
      homes.add(Path.of(userHome).normalize());
    }
    return List.copyOf(homes);
  }

  private static List<Path> expand(String value, List<Path> homes) {
    String v = value == null ? "" : value.strip();
    try {
      if (v.equals("~") || v.startsWith("~/")) {
        String rest = v.length() > 2 ? v.substring(2) : "";
        return homes.stream().map(home -> home.resolve(rest)).toList();
      }
      if (v.startsWith("/")) {
        return List.of(Path.of(v));
      }
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("interpreter4j.sandbox.masked-paths: '" + value + "' is not a path: "
          + e.getMessage(), e);
    }
    throw new IllegalArgumentException("interpreter4j.sandbox.masked-paths: '" + value + "' is neither absolute "
        + "nor under ~/; write /abs/path or ~/relative/path");
  }

  /**
   * The masked paths that exist now, each with where its links lead (a masked link to a folder elsewhere hides that
   * folder too); a link that leads nowhere is left out.
   */
  public List<Path> present() {
    Set<Path> present = new LinkedHashSet<>();
    for (Path path : paths) {
      if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      try {
        Path real = path.toRealPath();
        present.add(path);
        present.add(real);
      } catch (IOException e) {
        // a dangling link: nothing behind it to hide
      }
    }
    return List.copyOf(present);
  }

  /** The paths as a person reads them: {@code ~/.ssh} for one under the first home folder. */
  public List<String> display(Map<String, String> env) {
    List<Path> homes = homes(env);
    Path home = homes.isEmpty() ? null : homes.get(0);
    List<String> shown = new ArrayList<>();
    for (Path path : paths) {
      shown.add(home != null && path.startsWith(home) && !path.equals(home)
          ? "~/" + home.relativize(path) : path.toString());
    }
    return shown.stream().distinct().toList();
  }
}
