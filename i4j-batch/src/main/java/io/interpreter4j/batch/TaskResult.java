package io.interpreter4j.batch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The outcome of one task: a line of the results file and the payload of its journal record.
 *
 * @param session      session id (its events are in {@code <data-dir>/sessions/<session>/events.jsonl}), or null
 *                     when no session started
 * @param iterations   model calls in the task's turn
 * @param blocks       code blocks run
 * @param failedBlocks blocks that exited non-zero or timed out
 * @param finalMessage the model's last answer (see {@link #cut}), or null
 * @param error        why the task did not end {@code done}, or null
 */
public record TaskResult(String id, TaskStatus status, String session, int iterations, int blocks, int failedBlocks,
                         long durationMs, long inputTokens, long outputTokens, String finalMessage, String error) {

  /** Characters of the final message kept in a result line. */
  public static final int MAX_MESSAGE = 10_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A final message as kept in a result: at most {@link #MAX_MESSAGE} characters and a note that it was cut. */
  public static String cut(String message) {
    if (message == null || message.length() <= MAX_MESSAGE) {
      return message;
    }
    return message.substring(0, MAX_MESSAGE) + "\n[... cut: the whole answer is in the session's events]";
  }

  /** A task that never got a working session. */
  public static TaskResult error(String id, String session, long durationMs, String error) {
    return new TaskResult(id, TaskStatus.ERROR, session, 0, 0, 0, durationMs, 0, 0, null, error);
  }

  public boolean done() {
    return status == TaskStatus.DONE;
  }

  public ObjectNode toJson() {
    ObjectNode node = JSON.createObjectNode();
    node.put("id", id);
    node.put("status", status.wireName());
    node.put("session", session);
    node.put("iterations", iterations);
    node.put("blocks", blocks);
    node.put("failed_blocks", failedBlocks);
    node.put("duration_ms", durationMs);
    ObjectNode tokens = node.putObject("tokens");
    tokens.put("input", inputTokens);
    tokens.put("output", outputTokens);
    node.put("final_message", finalMessage);
    node.put("error", error);
    return node;
  }

  /** One line of JSON, without the newline. */
  public String toJsonLine() {
    return toJson().toString();
  }

  /** Reads what {@link #toJson} wrote. */
  public static TaskResult fromJson(JsonNode node) {
    if (node == null || !node.isObject() || !node.path("id").isTextual() || !node.path("status").isTextual()) {
      throw new IllegalArgumentException("not a task result: " + node);
    }
    JsonNode tokens = node.path("tokens");
    return new TaskResult(node.get("id").asText(), TaskStatus.fromWire(node.get("status").asText()),
        textOrNull(node, "session"), node.path("iterations").asInt(), node.path("blocks").asInt(),
        node.path("failed_blocks").asInt(), node.path("duration_ms").asLong(), tokens.path("input").asLong(),
        tokens.path("output").asLong(), textOrNull(node, "final_message"), textOrNull(node, "error"));
  }

  public static TaskResult fromJsonLine(String line) {
    try {
      return fromJson(JSON.readTree(line));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static String textOrNull(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
