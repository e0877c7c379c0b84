package io.interpreter4j.server.http;

import com.typesafe.config.Config;
import io.interpreter4j.core.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where the paths an API request names may point. A session's {@code workdir} is never {@code /} nor a system
 * folder (the danger analysis judges paths against the working folder, so code in {@code /etc} would look like it
 * works on its own project), and lies inside {@code interpreter4j.server.workdir-roots} when that is set. A
 * {@code replay:PATH} model is read only from {@code interpreter4j.server.replay-roots} (by default the data folder
 * and the working folder), so the API cannot be made to read any file the server can. Paths are judged after
 * symlinks and {@code ..} are resolved. The checks throw {@link IllegalArgumentException} with the reason.
 */
public final class ApiPaths {
  static final String WORKDIR_ROOTS = "interpreter4j.server.workdir-roots";
  static final String REPLAY_ROOTS = "interpreter4j.server.replay-roots";
  static final String REPLAY = "replay:";

  /** Folders that belong to the system, with everything in them. */
  private static final Set<String> SYSTEM = Set.of("bin", "boot", "dev", "etc", "proc", "sbin", "sys");
  /** /lib, /lib32, /lib64, /libx32. */
  private static final Pattern LIB = Pattern.compile("lib(32|64|x32)?");
  /** Folders that belong to the system but for the places in them where people keep their own files. */
  private static final Set<String> MOSTLY_SYSTEM = Set.of("usr", "var");
  private static final List<String> USER_PLACES = List.of(
      "/usr/src", "/usr/local/src", "/usr/home", "/var/home", "/var/www", "/var/tmp", "/var/folders");

  private final Path base;
  private final List<Path> workdirRoots;
  private final List<Path> replayRoots;

  /**
   * @param base         the server's working folder: relative paths are resolved against it
   * @param workdirRoots the folders a session's working folder must lie in; empty: no limit beyond the system folders
   * @param replayRoots  the folders replay models must lie in
   */
  ApiPaths(Path base, List<Path> workdirRoots, List<Path> replayRoots) {
    this.base = base.toAbsolutePath().normalize();
    this.workdirRoots = workdirRoots.stream().map(ApiPaths::real).toList();
    this.replayRoots = replayRoots.stream().map(ApiPaths::real).toList();
  }

  /** The limits configured under {@code interpreter4j.server}, for sessions based on {@code settings}. */
  public static ApiPaths from(Config root, Settings settings) {
    Path base = settings.workdir();
    List<Path> workdirRoots = paths(root, WORKDIR_ROOTS, base);
    List<Path> replayRoots = paths(root, REPLAY_ROOTS, base);
    if (replayRoots.isEmpty()) {
      replayRoots = List.of(settings.dataDir(), base);
    }
    return new ApiPaths(base, workdirRoots, replayRoots);
  }

  /**
   * The working folder a request asks for, symlinks and {@code ..} resolved.
   *
   * @throws IllegalArgumentException when it is not an existing folder, is {@code /} or a system folder, or lies
   *     outside the configured roots
   */
  public Path workdir(String given) {
    Path dir;
    try {
      dir = base.resolve(given);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("\"workdir\" is not a valid path: " + e.getMessage(), e);
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("\"workdir\" must be an existing directory: " + dir.normalize()
          + " is not one");
    }
    Path real = real(dir);
    String system = systemFolder(real);
    if (system != null) {
      throw new IllegalArgumentException("\"workdir\" must not be " + (system.equals("/") ? "the root folder /"
          : "a system folder: " + real + (real.toString().equals(system) ? "" : " is in " + system))
          + "; code run there would work on the system as if it were its project. Use a project folder");
    }
    if (!workdirRoots.isEmpty() && workdirRoots.stream().noneMatch(real::startsWith)) {
      throw new IllegalArgumentException("\"workdir\" must lie inside " + describe(workdirRoots) + " ("
          + WORKDIR_ROOTS + "); " + real + " does not");
    }
    return real;
  }

  /**
   * The file of a {@code replay:PATH} model asked for over the API, symlinks and {@code ..} resolved; its content is
   * never judged here, so nothing of it can appear in an error.
   *
   * @throws IllegalArgumentException when it lies outside the replay roots
   */
  public Path replayFile(String path) {
    Path file;
    try {
      file = base.resolve(path);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("not a valid path: " + e.getMessage(), e);
    }
    Path real = Files.exists(file) ? real(file) : file.normalize();
    if (replayRoots.stream().noneMatch(real::startsWith)) {
      throw new IllegalArgumentException("replay models over the API are read only from " + describe(replayRoots)
          + " (" + REPLAY_ROOTS + "); " + real + " is not inside");
    }
    return real;
  }

  /**
   * {@code "/"}, the system folder {@code dir} is or is in ({@code "/etc"}), or null for a folder people keep their
   * own files in. macOS's {@code /private/etc}, {@code /private/var} are judged as {@code /etc}, {@code /var}.
   */
  static String systemFolder(Path dir) {
    String s = dir.toAbsolutePath().normalize().toString();
    if (s.startsWith("/private/")) {
      s = s.substring("/private".length());
    }
    if (s.equals("/")) {
      return "/";
    }
    int slash = s.indexOf('/', 1);
    String first = slash < 0 ? s.substring(1) : s.substring(1, slash);
    if (SYSTEM.contains(first) || LIB.matcher(first).matches()) {
      return "/" + first;
    }
    if (MOSTLY_SYSTEM.contains(first)) {
      for (String place : USER_PLACES) {
        if (s.equals(place) || s.startsWith(place + "/")) {
          return null;
        }
      }
      return "/" + first;
    }
    return null;
  }

  private static List<Path> paths(Config root, String key, Path base) {
    if (!root.hasPath(key)) {
      return List.of();
    }
    List<Path> out = new ArrayList<>();
    for (String p : root.getStringList(key)) {
      if (p.isBlank()) {
        throw new IllegalArgumentException(key + " must not hold an empty path");
      }
      out.add(base.resolve(p.startsWith("~/") ? System.getProperty("user.home") + p.substring(1) : p));
    }
    return out;
  }

  /** The path with symlinks resolved when it exists (a root that does not exist yet is taken as written). */
  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }

  private static String describe(List<Path> roots) {
    return roots.size() == 1 ? roots.get(0).toString() : roots.toString();
  }
}
