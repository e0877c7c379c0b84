package io.interpreter4j.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the runtime's events, live or read back from a journal line, into the API's {@link Event} records. Both go
 * through the JSON form of docs/events.md, so a live event and its journal line map alike, and a type not known here
 * becomes {@link Event.Other}.
 */
final class EventMapping {

  private static final ObjectMapper MAPPER = EventCodec.mapper();

  private EventMapping() {}

  /** A live event of the runtime. */
  static Event of(io.interpreter4j.core.event.Event event) {
    return fromJson(EventCodec.toNode(event));
  }

  /** One line of a journal ({@code events.jsonl}). */
  static Event fromLine(String line) {
    try {
      return fromJson(MAPPER.readTree(line));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not an event: " + e.getOriginalMessage(), e);
    }
  }

  static Event fromJson(JsonNode n) {
    String s = n.path("session").asText();
    long seq = n.path("seq").asLong();
    Instant ts = Instant.parse(n.path("ts").asText());
    String type = n.path("type").asText();
    return switch (type) {
      case "session_started" -> new Event.SessionStarted(s, seq, ts, text(n, "model"), text(n, "cwd"));
      case "user_message" -> new Event.UserMessage(s, seq, ts, text(n, "text"));
      case "assistant_delta" -> new Event.AssistantDelta(s, seq, ts, text(n, "text"));
      case "assistant_message" -> new Event.AssistantMessage(s, seq, ts, text(n, "text"));
      case "code_block" -> new Event.CodeBlock(s, seq, ts, n.path("block").asInt(), text(n, "language"),
          text(n, "code"), n.path("unterminated").asBoolean());
      case "approval_requested" -> new Event.ApprovalRequested(s, seq, ts, n.path("block").asInt(),
          text(n, "language"), text(n, "code"), text(n, "risk"), flags(n));
      case "approval" -> new Event.Approval(s, seq, ts, n.path("block").asInt(),
          Decision.Kind.valueOf(upper(n, "decision")), Decision.DecidedBy.valueOf(upper(n, "by")),
          text(n, "reason"), text(n, "risk"), flags(n), text(n, "code"));
      case "exec_started" -> new Event.ExecStarted(s, seq, ts, n.path("block").asInt(), text(n, "language"));
      case "output" -> new Event.Output(s, seq, ts, n.path("block").asInt(), text(n, "stream"), text(n, "text"));
      case "exec_finished" -> new Event.ExecFinished(s, seq, ts, n.path("block").asInt(),
          n.path("exit_code").asInt(), n.path("timed_out").asBoolean(), n.path("interrupted").asBoolean(),
          n.path("duration_ms").asLong(), n.path("truncated").asBoolean(), text(n, "output_file"));
      case "usage" -> new Event.Usage(s, seq, ts, n.path("input_tokens").asLong(), n.path("output_tokens").asLong());
      case "retry" -> new Event.Retry(s, seq, ts, n.path("attempt").asInt(), text(n, "reason"));
      case "turn_finished" -> new Event.TurnFinished(s, seq, ts, TurnStatus.valueOf(upper(n, "status")),
          n.path("iterations").asInt(), text(n, "reason"));
      case "error" -> new Event.Error(s, seq, ts, text(n, "message"));
      case "conversation" -> new Event.Conversation(s, seq, ts, text(n, "reason"), text(n, "source"), messages(n));
      default -> new Event.Other(s, seq, ts, type, fields(n));
    };
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static String upper(JsonNode n, String field) {
    return n.path(field).asText().toUpperCase(Locale.ROOT);
  }

  private static List<Event.RiskFlag> flags(JsonNode n) {
    List<Event.RiskFlag> flags = new ArrayList<>();
    n.path("flags").forEach(f -> flags.add(new Event.RiskFlag(text(f, "level"), text(f, "rule"), text(f, "reason"))));
    return List.copyOf(flags);
  }

  private static List<Event.Message> messages(JsonNode n) {
    List<Event.Message> messages = new ArrayList<>();
    n.path("messages").forEach(m -> messages.add(new Event.Message(text(m, "role"), text(m, "content"))));
    return List.copyOf(messages);
  }

  /** The fields of an unknown type, without the envelope, as plain Java values. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> fields(JsonNode n) {
    ObjectNode body = ((ObjectNode) n).deepCopy();
    body.remove(List.of("session", "seq", "ts", "type"));
    return java.util.Collections.unmodifiableMap(MAPPER.convertValue(body, LinkedHashMap.class));
  }
}
