package io.interpreter4j.runtime.sandbox;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The host paths a sandboxed launch reads that the sandbox's own mounts (a private {@code /tmp}, an empty
 * {@code /run/user}) would hide, to be bound back read-only at the same place. Without them a checkout, a JDK, a
 * python or a virtual environment under {@code /tmp} works outside the sandbox and not inside it.
 *
 * <p>What a launch reads: the jar or classes folder interpreter4j runs from (the JShell driver and the html renderer
 * start a JVM on it) and that JVM, named by the caller; every absolute path in the command line (also inside a class
 * path {@code a:b} or an option {@code --x=/p}); every folder on the {@code PATH} the code will have, and its
 * {@code VIRTUAL_ENV}. A file or folder in a {@code bin} folder brings its whole install prefix ({@code X/bin/python}
 * binds {@code X}): an interpreter reads its {@code lib} folder and a virtual environment its {@code pyvenv.cfg}.
 * Symbolic links are followed, and where they lead is bound too. A hidden folder itself is never bound (that would
 * undo it), nor anything already writable inside the sandbox.
 */
final class HiddenReads {

  /** Mount order: a folder before what lies inside it, so a later mount is not covered by an earlier one. */
  static final Comparator<Path> PARENTS_FIRST = Comparator.comparingInt(Path::getNameCount)
      .thenComparing(Path::toString);

  /** Words longer than this (scripts passed with -c) are no paths. */
  private static final int LONGEST_PATH = 4096;

  private HiddenReads() {}

  /**
   * The paths to bind read-only, without one inside another, parents first.
   *
   * @param hidden   folders the sandbox replaces with empty ones
   * @param writable folders bound writable (already visible)
   * @param always   paths every launch may read (interpreter4j's own code, its JVM)
   * @param argv     the command line
   * @param env      the environment the code runs with: the launch's entries over the inherited ones
   */
  static List<Path> of(Collection<Path> hidden, Collection<Path> writable, Collection<Path> always, List<String> argv,
                       Map<String, String> env) {
    Set<Path> named = new LinkedHashSet<>(always);
    for (String word : argv) {
      named.addAll(pathsIn(word));
    }
    for (String variable : List.of("PATH", "VIRTUAL_ENV")) {
      String value = env.get(variable);
      if (value != null) {
        named.addAll(pathsIn(value));
      }
    }
    Set<Path> binds = new LinkedHashSet<>();
    for (Path path : named) {
      for (Path seen : withLinkTargets(path)) {
        Path root = hiddenRootOf(seen, hidden);
        if (root != null && !under(seen, writable)) {
          binds.add(prefixOf(seen, root));
        }
      }
    }
    List<Path> outermost = new ArrayList<>();
    binds.stream().sorted(PARENTS_FIRST)
        .filter(p -> outermost.stream().noneMatch(p::startsWith))
        .forEach(outermost::add);
    return List.copyOf(outermost);
  }

  /** The jar or classes folder {@code type} was loaded from, or null when it cannot be told. */
  static Path codeOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath().normalize();
    } catch (URISyntaxException | RuntimeException e) {
      return null; // a class from a JDK image or an unusual loader: nothing on the host file system to bind
    }
  }

  /** The existing absolute paths a word names: itself, the entries of a path list, the value of an option. */
  static List<Path> pathsIn(String word) {
    if (word.length() > LONGEST_PATH || word.indexOf('\n') >= 0 || word.indexOf('/') < 0) {
      return List.of();
    }
    List<Path> paths = new ArrayList<>();
    for (String entry : word.split(File.pathSeparator)) {
      String candidate = entry.substring(entry.indexOf('=') + 1);
      if (!candidate.startsWith("/")) {
        continue;
      }
      try {
        Path path = Path.of(candidate).normalize();
        if (Files.exists(path)) {
          paths.add(path);
        }
      } catch (InvalidPathException e) {
        // not a path after all
      }
    }
    return paths;
  }

  /** The path as named, with its folder's links resolved, and with every link resolved. */
  private static Set<Path> withLinkTargets(Path path) {
    Set<Path> all = new LinkedHashSet<>();
    all.add(path);
    try {
      Path parent = path.getParent();
      if (parent != null && path.getFileName() != null) {
        all.add(parent.toRealPath().resolve(path.getFileName()));
      }
      all.add(path.toRealPath());
    } catch (IOException e) {
      // a dangling link: it leads nowhere that could be bound
    }
    return all;
  }

  /** The hidden folder {@code path} lies strictly inside, or null. */
  private static Path hiddenRootOf(Path path, Collection<Path> hidden) {
    for (Path root : hidden) {
      if (path.startsWith(root) && !path.equals(root)) {
        return root;
      }
    }
    return null;
  }

  private static boolean under(Path path, Collection<Path> folders) {
    return folders.stream().anyMatch(path::startsWith);
  }

  /** {@code X} for {@code X/bin} or a file in it (an install prefix, a virtual environment); else the path itself. */
  private static Path prefixOf(Path path, Path hiddenRoot) {
    Path bin = path.getFileName() != null && path.getFileName().toString().equals("bin") && Files.isDirectory(path)
        ? path : path.getParent();
    if (bin != null && bin.getFileName() != null && bin.getFileName().toString().equals("bin")) {
      Path prefix = bin.getParent();
      if (prefix != null && !prefix.equals(hiddenRoot) && prefix.startsWith(hiddenRoot)) {
        return prefix;
      }
    }
    return path;
  }
}
