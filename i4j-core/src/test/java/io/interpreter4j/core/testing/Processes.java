package io.interpreter4j.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Finds live processes the way a person would with ps: by an argument, or by their working folder (Linux /proc). */
public final class Processes {

  private Processes() {}

  /** Live processes with {@code marker} among their arguments, as "pid command" lines. */
  public static List<String> withArgument(String marker) {
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(p -> p.info().arguments().map(args -> Stream.of(args).anyMatch(a -> a.contains(marker))).orElse(false))
        .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
        .toList();
  }

  /** Live processes whose working folder is {@code folder} or below it, as "pid command" lines. */
  public static List<String> workingIn(Path folder) {
    Path real;
    try {
      real = folder.toRealPath();
    } catch (IOException e) {
      return List.of();
    }
    return ProcessHandle.allProcesses()
        .filter(ProcessHandle::isAlive)
        .filter(p -> {
          try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd")).startsWith(real);
          } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false; // gone meanwhile, or not ours to look at
          }
        })
        .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
        .toList();
  }
}
