package io.interpreter4j.runtime.repl;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The descendants of one process, found from the process down rather than from every process up.
 *
 * <p>{@link ProcessHandle#descendants()} reads the parent of every process on the machine (on Linux, one
 * {@code /proc/N/stat} per process) for each call: with a thousand sessions, each with two interpreters under a
 * sandbox, that is several thousand files read per interpreter stopped, and stopping them all reads millions. On
 * Linux each thread's {@code /proc/PID/task/TID/children} lists its children, so a walk down reads a few files per
 * process of the tree. Where that file is missing (another system, or a kernel without it) the JDK's walk is used.
 */
final class ProcessTree {

  private static final Path PROC = Path.of("/proc");
  /** Whether this system lists a thread's children under /proc (Linux 3.5+ with CONFIG_PROC_CHILDREN). */
  static final boolean LISTS_CHILDREN = Files.isReadable(
      PROC.resolve("self/task").resolve(Long.toString(ProcessHandle.current().pid())).resolve("children"));

  private ProcessTree() {}

  /** The descendants of {@code root} as they are now, parents before their children; not {@code root} itself. */
  static List<ProcessHandle> descendants(ProcessHandle root) {
    if (!LISTS_CHILDREN) {
      return root.descendants().toList();
    }
    List<ProcessHandle> found = new ArrayList<>();
    Deque<Long> toVisit = new ArrayDeque<>();
    toVisit.add(root.pid());
    while (!toVisit.isEmpty()) {
      long pid = toVisit.poll();
      for (long child : children(pid)) {
        Optional<ProcessHandle> handle = ProcessHandle.of(child);
        if (handle.isPresent()) {
          found.add(handle.get());
          toVisit.add(child);
        }
      }
    }
    return found;
  }

  /** The children of every thread of {@code pid}; none when it is gone. */
  static List<Long> children(long pid) {
    List<Long> children = new ArrayList<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("task"))) {
      for (Path task : tasks) {
        String listed;
        try {
          listed = Files.readString(task.resolve("children"));
        } catch (IOException e) {
          continue; // the thread ended meanwhile
        }
        for (String child : listed.trim().split(" ")) {
          if (!child.isEmpty()) {
            children.add(Long.parseLong(child));
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the process ended meanwhile: no children of it to find
    }
    return children;
  }
}
