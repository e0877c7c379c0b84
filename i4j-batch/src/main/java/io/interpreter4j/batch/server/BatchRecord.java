package io.interpreter4j.batch.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.server.batch.BatchService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * What a server batch was asked to do, kept in its folder ({@code <data-dir>/batches/<id>/}) so that it can be
 * resumed after a restart: {@code batch.json} (the options), {@code tasks.txt} (the task file's text),
 * {@code journal.jsonl} and {@code results.jsonl} (written by the batch), and {@code summary.json} once it ended.
 */
record BatchRecord(String id, String name, int parallel, boolean autoApprove, boolean allowAll,
                   boolean skipInvalid, Duration taskTimeout, String model, String baseDir) {

  static final String OPTIONS = "batch.json";
  static final String TASKS = "tasks.txt";
  static final String RESULTS = "results.jsonl";
  static final String SUMMARY = "summary.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  static BatchRecord of(String id, BatchService.Submission s) {
    return new BatchRecord(id, s.name(), s.parallel(), s.autoApprove(), s.allowAll(), s.skipInvalid(),
        s.taskTimeout(), s.model(), s.baseDir());
  }

  /** Writes {@code batch.json} and {@code tasks.txt} into {@code dir} (atomically each). */
  void write(Path dir, String tasks) throws IOException {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", id);
    n.put("name", name);
    n.put("parallel", parallel);
    n.put("yes", autoApprove);
    n.put("dangerously_allow_all", allowAll);
    n.put("skip_invalid", skipInvalid);
    n.put("task_timeout_ms", taskTimeout.toMillis());
    n.put("model", model);
    n.put("base_dir", baseDir);
    writeAtomically(dir.resolve(TASKS), tasks);
    writeAtomically(dir.resolve(OPTIONS), n.toString() + "\n");
  }

  /** Reads {@code batch.json} of {@code dir}. */
  static BatchRecord read(Path dir) throws IOException {
    JsonNode n = JSON.readTree(Files.readString(dir.resolve(OPTIONS), StandardCharsets.UTF_8));
    if (n == null || !n.hasNonNull("id") || !n.hasNonNull("parallel") || !n.hasNonNull("task_timeout_ms")) {
      throw new IOException(dir.resolve(OPTIONS) + " lacks id, parallel or task_timeout_ms");
    }
    return new BatchRecord(n.get("id").asText(), n.path("name").asText("batch"), n.get("parallel").asInt(),
        n.path("yes").asBoolean(), n.path("dangerously_allow_all").asBoolean(), n.path("skip_invalid").asBoolean(),
        Duration.ofMillis(n.get("task_timeout_ms").asLong()), text(n, "model"), text(n, "base_dir"));
  }

  static String tasks(Path dir) throws IOException {
    return Files.readString(dir.resolve(TASKS), StandardCharsets.UTF_8);
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  static void writeAtomically(Path file, String text) throws IOException {
    Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
    Files.writeString(temp, text, StandardCharsets.UTF_8);
    try {
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
