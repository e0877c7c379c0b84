package io.interpreter4j.runtime.repl;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Finds programs the way a shell would, without starting one: on the PATH, or at an absolute path. */
final class Executables {

  private Executables() {}

  /** {@code name} if it is an executable path, else the first executable {@code PATH} entry of that name. */
  static Optional<Path> find(String name) {
    try {
      if (name.contains("/")) {
        Path path = Path.of(name);
        return Files.isRegularFile(path) && Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
      }
      String pathVariable = System.getenv("PATH");
      if (pathVariable == null) {
        return Optional.empty();
      }
      for (String dir : pathVariable.split(File.pathSeparator)) {
        if (dir.isEmpty()) {
          continue;
        }
        Path candidate = Path.of(dir, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** The first of {@code names} that {@link #find} finds. */
  static Optional<Path> first(List<String> names) {
    for (String name : names) {
      Optional<Path> found = find(name);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }
}
