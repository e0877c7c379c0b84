package io.interpreter4j.batch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.core.replay.CassetteException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and validates a task file before anything runs. JSONL (one object a line) when the first non-blank line
 * starts with <code>{</code>, else plain text with one prompt a line (ids are line numbers). Blank lines are
 * skipped. Every problem is reported with its line number; relative {@code workdir} and {@code cassette} paths
 * are resolved against the task file's folder and must exist.
 */
public final class TaskFileParser {

  /** Fields a JSONL task may have. */
  public static final List<String> FIELDS =
      List.of("id", "prompt", "model", "workdir", "timeout_s", "max_iterations", "cassette");

  private static final Set<String> FIELD_SET = Set.copyOf(FIELDS);
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** The file's format, as detected from its first non-blank line. */
  public enum Format { JSONL, TEXT }

  /** One problem on one line (1-based). */
  public record ParseError(int line, String message) {
    @Override
    public String toString() {
      return "line " + line + ": " + message;
    }
  }

  /** The valid tasks in file order and the problems found; {@code tasks} never holds a task of a bad line. */
  public record ParseResult(Format format, List<BatchTask> tasks, List<ParseError> errors) {
    public ParseResult {
      tasks = List.copyOf(tasks);
      errors = List.copyOf(errors);
    }

    public boolean valid() {
      return errors.isEmpty();
    }

    /** How many lines had at least one problem. */
    public long invalidLines() {
      return errors.stream().mapToInt(ParseError::line).distinct().count();
    }
  }

  private TaskFileParser() {}

  /** Reads a UTF-8 task file. */
  public static ParseResult parse(Path file) throws IOException {
    Path absolute = file.toAbsolutePath().normalize();
    String text = Files.readString(absolute, StandardCharsets.UTF_8);
    return parse(text, absolute.getParent());
  }

  /** Parses task-file text; {@code baseDir} resolves relative paths. */
  public static ParseResult parse(String text, Path baseDir) {
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    List<String> lines = text.lines().toList();
    Format format = lines.stream().filter(l -> !l.isBlank()).findFirst()
        .map(l -> l.stripLeading().startsWith("{") ? Format.JSONL : Format.TEXT).orElse(Format.TEXT);
    List<BatchTask> tasks = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    Map<String, Integer> firstLineOfId = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int number = i + 1;
      if (line.isBlank()) {
        continue;
      }
      List<String> problems = new ArrayList<>();
      BatchTask task = format == Format.JSONL
          ? jsonTask(line, number, baseDir, problems)
          : BatchTask.ofPrompt(Integer.toString(number), number, line.strip());
      if (task != null) {
        Integer first = firstLineOfId.putIfAbsent(task.id(), number);
        if (first != null) {
          problems.add("duplicate id \"" + task.id() + "\" (first used on line " + first + "); ids must be unique");
        }
      }
      problems.forEach(p -> errors.add(new ParseError(number, p)));
      if (task != null && problems.isEmpty()) {
        tasks.add(task);
      }
    }
    return new ParseResult(format, tasks, errors);
  }

  private static BatchTask jsonTask(String line, int number, Path baseDir, List<String> problems) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      int column = e.getLocation() == null ? -1 : e.getLocation().getColumnNr();
      problems.add("not valid JSON" + (column > 0 ? " at column " + column : "") + ": "
          + e.getOriginalMessage().replaceAll("\\s*\\n.*", "")
          + "; write one object per line, like {\"id\": \"t1\", \"prompt\": \"...\"}");
      return null;
    }
    if (node == null || !node.isObject()) {
      problems.add("must be a JSON object like {\"id\": \"t1\", \"prompt\": \"...\"}, found "
          + (node == null ? "nothing" : describe(node)));
      return null;
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELD_SET.contains(name)) {
        problems.add("unknown field \"" + name + "\"; the fields are " + String.join(", ", FIELDS));
      }
    }
    String id = text(node, "id", problems);
    if (id == null && !node.hasNonNull("id")) {
      id = Integer.toString(number);
    }
    String prompt = text(node, "prompt", problems);
    if (prompt == null && !node.hasNonNull("prompt")) {
      problems.add("missing \"prompt\": say what the task should do");
    }
    String model = text(node, "model", problems);
    Path workdir = null;
    String workdirText = text(node, "workdir", problems);
    if (workdirText != null) {
      workdir = baseDir.resolve(workdirText).toAbsolutePath().normalize();
      if (!Files.isDirectory(workdir)) {
        problems.add("workdir " + workdir + " does not exist or is not a folder");
      }
    }
    Duration timeout = null;
    JsonNode timeoutNode = node.get("timeout_s");
    if (timeoutNode != null && !timeoutNode.isNull()) {
      if (!timeoutNode.isNumber()) {
        problems.add("\"timeout_s\" must be a number of seconds, found " + describe(timeoutNode));
      } else if (timeoutNode.asDouble() <= 0 || Double.isNaN(timeoutNode.asDouble())) {
        problems.add("\"timeout_s\" must be more than 0 seconds, found " + describe(timeoutNode));
      } else {
        timeout = Duration.ofMillis(Math.max(1, Math.round(Math.min(timeoutNode.asDouble(), 1e12) * 1000)));
      }
    }
    Integer maxIterations = null;
    JsonNode iterationsNode = node.get("max_iterations");
    if (iterationsNode != null && !iterationsNode.isNull()) {
      if (!iterationsNode.isIntegralNumber() || !iterationsNode.canConvertToInt()) {
        problems.add("\"max_iterations\" must be a whole number, found " + describe(iterationsNode));
      } else if (iterationsNode.asInt() < 1) {
        problems.add("\"max_iterations\" must be at least 1, found " + iterationsNode.asInt());
      } else {
        maxIterations = iterationsNode.asInt();
      }
    }
    Path cassette = null;
    String cassetteText = text(node, "cassette", problems);
    if (cassetteText != null) {
      cassette = baseDir.resolve(cassetteText).toAbsolutePath().normalize();
      if (!Files.isRegularFile(cassette)) {
        problems.add("cassette file " + cassette + " not found");
      } else {
        try {
          Cassette.load(cassette);
        } catch (CassetteException e) {
          problems.add(e.getMessage());
        }
      }
      if (model != null) {
        problems.add("give either \"model\" or \"cassette\" (a cassette means model replay:<path>), not both");
      }
    }
    if (id == null || prompt == null) {
      return null;
    }
    return new BatchTask(id, number, prompt, model, workdir, timeout, maxIterations, cassette);
  }

  /** A non-blank string field, or null when absent or wrong (wrong adds a problem). */
  private static String text(JsonNode node, String field, List<String> problems) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      problems.add("\"" + field + "\" must be a string, found " + describe(value));
      return null;
    }
    if (value.asText().isBlank()) {
      problems.add("\"" + field + "\" is blank");
      return null;
    }
    return value.asText();
  }

  private static String describe(JsonNode node) {
    String text = node.toString();
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }
}
