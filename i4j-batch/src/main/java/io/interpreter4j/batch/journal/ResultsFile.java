package io.interpreter4j.batch.journal;

import io.interpreter4j.batch.TaskResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The results file: a line per finished task, appended and forced to disk as each task finishes. On start it is
 * reconciled with the journal (the source of truth): when it has a torn last line, an unreadable, duplicate,
 * unknown, changed or missing line, it is rewritten from the journal through a temporary file and an atomic move.
 */
public final class ResultsFile implements AutoCloseable {

  /** What reconciling did: {@code rewritten} and why. */
  public record Reconciliation(boolean rewritten, List<String> problems) {
    public Reconciliation {
      problems = List.copyOf(problems);
    }
  }

  private final Path file;
  private final FileChannel channel;

  private ResultsFile(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
  }

  /** Opens the file to append results to it (creating it). */
  public static ResultsFile openForAppend(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    return new ResultsFile(file, FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND));
  }

  public Path file() {
    return file;
  }

  /** Appends one result line and forces it to disk. */
  public void append(TaskResult result) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap((result.toJsonLine() + "\n").getBytes(StandardCharsets.UTF_8));
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    if (channel.isOpen()) {
      channel.close();
    }
  }

  /**
   * Makes the file hold exactly the {@code expected} results, one line each; leaves it alone when it already
   * does (in any order), else rewrites it atomically in the order given.
   */
  public static Reconciliation reconcile(Path file, List<TaskResult> expected) throws IOException {
    List<String> problems = check(file, expected);
    if (problems.isEmpty()) {
      return new Reconciliation(false, problems);
    }
    rewrite(file, expected);
    return new Reconciliation(true, problems);
  }

  /** What is wrong with the file compared with the expected results; empty when nothing. */
  static List<String> check(Path file, List<TaskResult> expected) throws IOException {
    List<String> problems = new ArrayList<>();
    if (!Files.exists(file)) {
      problems.add("the results file does not exist yet");
      return problems;
    }
    byte[] bytes = Files.readAllBytes(file);
    int complete = BatchJournal.completeLength(bytes);
    if (complete < bytes.length) {
      problems.add("its last line is torn (" + (bytes.length - complete) + " bytes)");
    }
    Map<String, String> wanted = new LinkedHashMap<>();
    for (TaskResult r : expected) {
      wanted.put(r.id(), r.toJsonLine());
    }
    Set<String> seen = new HashSet<>();
    Map<String, Integer> counts = new HashMap<>();
    List<String> lines = new String(bytes, 0, complete, StandardCharsets.UTF_8).lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String where = "line " + (i + 1);
      TaskResult r;
      try {
        r = TaskResult.fromJsonLine(line);
      } catch (RuntimeException e) {
        problems.add(where + " is not a result");
        continue;
      }
      String want = wanted.get(r.id());
      if (want == null) {
        problems.add(where + ": task " + r.id() + " is not finished in the journal");
      } else if (!want.equals(line)) {
        problems.add(where + ": task " + r.id() + " differs from the journal");
      }
      if (!seen.add(r.id())) {
        counts.merge(r.id(), 1, Integer::sum);
      }
    }
    counts.forEach((id, extra) -> problems.add("task " + id + " appears " + (extra + 1) + " times"));
    long missing = wanted.keySet().stream().filter(id -> !seen.contains(id)).count();
    if (missing > 0) {
      problems.add(missing + " finished task(s) missing");
    }
    return problems;
  }

  private static void rewrite(Path file, List<TaskResult> results) throws IOException {
    Path absolute = file.toAbsolutePath();
    Path dir = absolute.getParent();
    Files.createDirectories(dir);
    Path temp = dir.resolve("." + absolute.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      StringBuilder sb = new StringBuilder();
      for (TaskResult r : results) {
        sb.append(r.toJsonLine()).append('\n');
      }
      ByteBuffer buffer = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
      out.force(true);
    }
    try {
      Files.move(temp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING);
    }
    forceDirectory(dir);
  }

  /** Makes the rename durable; not every platform can open a folder, and then there is nothing more to do. */
  private static void forceDirectory(Path dir) {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // best effort
    }
  }
}
