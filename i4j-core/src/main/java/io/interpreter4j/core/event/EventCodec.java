package io.interpreter4j.core.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Map;

/**
 * Writes and reads events as flat JSON objects: {@code {"session","seq","ts","type", ...payload fields}},
 * one object per line. This is the {@code --json} protocol, the journal format and the SSE data.
 */
public final class EventCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<String, Class<? extends EventPayload>> TYPES = Map.ofEntries(
      Map.entry("session_started", EventPayload.SessionStarted.class),
      Map.entry("user_message", EventPayload.UserMessage.class),
      Map.entry("assistant_delta", EventPayload.AssistantDelta.class),
      Map.entry("assistant_message", EventPayload.AssistantMessage.class),
      Map.entry("code_block", EventPayload.CodeBlockEvent.class),
      Map.entry("approval_requested", EventPayload.ApprovalRequested.class),
      Map.entry("approval", EventPayload.Approval.class),
      Map.entry("exec_started", EventPayload.ExecStarted.class),
      Map.entry("output", EventPayload.Output.class),
      Map.entry("exec_finished", EventPayload.ExecFinished.class),
      Map.entry("image", EventPayload.Image.class),
      Map.entry("html", EventPayload.Html.class),
      Map.entry("computer_action", EventPayload.ComputerAction.class),
      Map.entry("usage", EventPayload.Usage.class),
      Map.entry("retry", EventPayload.Retry.class),
      Map.entry("turn_finished", EventPayload.TurnFinished.class),
      Map.entry("error", EventPayload.Error.class),
      Map.entry("conversation", EventPayload.Conversation.class));

  private EventCodec() {}

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  public static ObjectNode toNode(Event event) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("session", event.session());
    node.put("seq", event.seq());
    node.put("ts", event.ts().toString());
    node.put("type", event.type());
    ObjectNode body = MAPPER.valueToTree(event.payload());
    body.remove("type");
    node.setAll(body);
    return node;
  }

  /** One line of JSON, without the newline. */
  public static String toJson(Event event) {
    try {
      return MAPPER.writeValueAsString(toNode(event));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("event not serialisable: " + event, e);
    }
  }

  /** Parses one line written by {@link #toJson}. */
  public static Event fromJson(String line) {
    try {
      ObjectNode node = (ObjectNode) MAPPER.readTree(line);
      String type = node.path("type").asText();
      Class<? extends EventPayload> cls = TYPES.get(type);
      if (cls == null) {
        throw new IllegalArgumentException("unknown event type '" + type + "'");
      }
      ObjectNode body = MAPPER.createObjectNode();
      for (Map.Entry<String, JsonNode> f : node.properties()) {
        switch (f.getKey()) {
          case "session", "seq", "ts", "type" -> { }
          default -> body.set(f.getKey(), f.getValue());
        }
      }
      EventPayload payload = MAPPER.treeToValue(body, cls);
      return new Event(node.path("session").asText(), node.path("seq").asLong(),
          Instant.parse(node.path("ts").asText()), payload);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not an event: " + e.getOriginalMessage(), e);
    }
  }
}
