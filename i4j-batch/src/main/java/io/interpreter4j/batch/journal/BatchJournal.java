package io.interpreter4j.batch.journal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.batch.TaskResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The batch's record of what happened, {@code journal.jsonl} in the journal folder: one JSON object a line
 * ({@code batch_started}, {@code task_started}, {@code task_finished} with the result, {@code task_requeued},
 * {@code task_interrupted}, {@code batch_ended}). It is the source of truth for resuming: a task's completion is
 * forced to disk ({@link FileChannel#force}) before its result line is written anywhere else. Opening repairs a
 * torn last line (the process was killed in the middle of a write) by cutting it off. One writer at a time.
 */
public final class BatchJournal implements AutoCloseable {

  public static final String FILE_NAME = "journal.jsonl";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final FileChannel channel;
  private final JournalState state;
  private final Clock clock;

  private BatchJournal(Path file, FileChannel channel, JournalState state, Clock clock) {
    this.file = file;
    this.channel = channel;
    this.state = state;
    this.clock = clock;
  }

  /** Opens (or creates) the journal in {@code dir}, repairs a torn last line and reads its state. */
  public static BatchJournal open(Path dir, Clock clock) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE_NAME);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      lock(channel, file);
      byte[] bytes = readAll(channel);
      int end = completeLength(bytes);
      JournalState state = JournalState.replay(
          new String(bytes, 0, end, StandardCharsets.UTF_8).lines().toList());
      if (end < bytes.length) {
        channel.truncate(end);
        channel.force(true);
        state.warn("the journal's last line was torn (" + (bytes.length - end)
            + " bytes, the batch was killed while writing it) and was cut off");
      }
      channel.position(channel.size());
      return new BatchJournal(file, channel, state, clock);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** One process at a time: a second batch on the same journal would interleave and rerun tasks. */
  private static void lock(FileChannel channel, Path file) throws IOException {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      throw new IOException("the journal " + file + " is in use by another batch; wait for it to end, or give "
          + "this one another --journal or --out");
    }
  }

  /**
   * The length of the part of {@code bytes} made of complete lines: up to and including the last newline.
   * Whatever follows it is a torn line.
   */
  static int completeLength(byte[] bytes) {
    for (int i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }

  public Path file() {
    return file;
  }

  /** The state as read when the journal was opened. */
  public JournalState state() {
    return state;
  }

  public void batchStarted(Path tasksFile, Path out, int tasks, int toRun, boolean retryFailed) throws IOException {
    ObjectNode r = record("batch_started");
    r.put("tasks_file", tasksFile.toString());
    r.put("out", out.toString());
    r.put("tasks", tasks);
    r.put("to_run", toRun);
    r.put("retry_failed", retryFailed);
    write(r, true);
  }

  public void taskStarted(String id, String fingerprint, String session) throws IOException {
    ObjectNode r = record("task_started");
    r.put("id", id);
    r.put("fp", fingerprint);
    r.put("session", session);
    write(r, false);
  }

  /** Records a finished task and forces it to disk before returning. */
  public void taskFinished(TaskResult result, String fingerprint) throws IOException {
    ObjectNode r = record("task_finished");
    r.put("id", result.id());
    r.put("fp", fingerprint);
    r.set("result", result.toJson());
    write(r, true);
  }

  /** A finished task will run again ({@code --retry-failed}, or its definition changed). */
  public void taskRequeued(List<String> ids, String reason) throws IOException {
    for (String id : ids) {
      ObjectNode r = record("task_requeued");
      r.put("id", id);
      r.put("reason", reason);
      write(r, false);
    }
    channel.force(false);
  }

  /** A running task was stopped because the batch was stopped; it runs again on resume. */
  public void taskInterrupted(String id) throws IOException {
    ObjectNode r = record("task_interrupted");
    r.put("id", id);
    write(r, false);
  }

  public void batchEnded(boolean stopped, Map<String, Long> counts) throws IOException {
    ObjectNode r = record("batch_ended");
    r.put("stopped", stopped);
    ObjectNode c = r.putObject("counts");
    counts.forEach(c::put);
    write(r, true);
  }

  private ObjectNode record(String type) {
    ObjectNode r = JSON.createObjectNode();
    r.put("type", type);
    r.put("ts", clock.instant().toString());
    return r;
  }

  private void write(ObjectNode record, boolean force) throws IOException {
    byte[] line = (record.toString() + "\n").getBytes(StandardCharsets.UTF_8);
    ByteBuffer buffer = ByteBuffer.wrap(line);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    if (force) {
      channel.force(false);
    }
  }

  @Override
  public void close() throws IOException {
    if (channel.isOpen()) {
      channel.force(false);
      channel.close();
    }
  }

  private static byte[] readAll(FileChannel channel) throws IOException {
    long size = channel.size();
    if (size > Integer.MAX_VALUE - 16) {
      throw new IOException("the journal is too large to read (" + size + " bytes)");
    }
    ByteBuffer buffer = ByteBuffer.allocate((int) size);
    channel.position(0);
    while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
      // keep reading
    }
    return Arrays.copyOf(buffer.array(), buffer.position());
  }
}
