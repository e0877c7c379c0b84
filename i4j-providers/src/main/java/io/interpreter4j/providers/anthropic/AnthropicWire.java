package io.interpreter4j.providers.anthropic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ChatMessage.Role;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.providers.http.WireDecoder;
import io.interpreter4j.providers.sse.SseEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Anthropic's Messages API wire format: the streamed request body (system prompt in the top-level {@code system}
 * field, roles alternating) and the decoding of its named events ({@code message_start}, {@code content_block_*},
 * {@code message_delta}, {@code message_stop}, {@code ping}, {@code error}).
 */
public final class AnthropicWire {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> RETRYABLE_ERRORS = Set.of("overloaded_error", "api_error", "rate_limit_error",
      "timeout_error");
  /** Bound of a tool call's accumulated input, in characters. */
  private static final int MAX_TOOL_INPUT = 4 * 1024 * 1024;

  private AnthropicWire() {}

  /**
   * {@code {"model", "max_tokens", "stream": true, "system", "messages"}}. System messages are joined into
   * {@code system}; empty messages are dropped and consecutive ones of the same role merged, as the API wants
   * non-empty, alternating turns that open with the user.
   *
   * @throws ModelException (not retryable) when nothing is left to send
   */
  public static String requestBody(String model, int maxTokens, List<ChatMessage> messages) {
    StringBuilder system = new StringBuilder();
    List<ChatMessage> turns = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (m.content() == null || m.content().isBlank()) {
        continue;
      }
      if (m.role() == Role.SYSTEM) {
        system.append(system.length() == 0 ? "" : "\n\n").append(m.content());
      } else if (!turns.isEmpty() && turns.get(turns.size() - 1).role() == m.role()) {
        ChatMessage last = turns.remove(turns.size() - 1);
        turns.add(new ChatMessage(m.role(), last.content() + "\n\n" + m.content()));
      } else {
        turns.add(m);
      }
    }
    if (turns.isEmpty()) {
      throw new ModelException("nothing to send to the model: the conversation has no user message", false);
    }
    if (turns.get(0).role() != Role.USER) {
      turns.add(0, ChatMessage.user("(The conversation continues.)"));
    }
    ChatMessage last = turns.get(turns.size() - 1);
    if (last.role() == Role.ASSISTANT) {
      // The API rejects a final (prefilled) assistant turn that ends with whitespace.
      turns.set(turns.size() - 1, ChatMessage.assistant(last.content().stripTrailing()));
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("model", model);
    root.put("max_tokens", maxTokens);
    root.put("stream", true);
    if (system.length() > 0) {
      root.put("system", system.toString());
    }
    ArrayNode list = root.putArray("messages");
    for (ChatMessage m : turns) {
      list.addObject().put("role", m.role().name().toLowerCase(Locale.ROOT)).put("content", m.content());
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings always serialises", e);
    }
  }

  /** Decodes one response's events; {@code source} (the base URL) is named in errors. */
  public static final class Decoder implements WireDecoder {
    private final String source;
    private long inputTokens;
    private long outputTokens;
    private boolean stopped;
    private String stopReason = "";
    private final Map<Integer, StringBuilder> toolInputs = new TreeMap<>();

    public Decoder(String source) {
      this.source = source;
    }

    @Override
    public List<LlmChunk> decode(SseEvent event) {
      JsonNode root;
      try {
        root = JSON.readTree(event.data());
      } catch (JsonProcessingException e) {
        throw new ModelException("malformed " + event.event() + " event from " + source + " (not JSON): "
            + clip(event.data()), false);
      }
      if (root == null || !root.isObject()) {
        throw new ModelException("malformed " + event.event() + " event from " + source + ": " + clip(event.data()),
            false);
      }
      String type = root.path("type").asText(event.event());
      switch (type) {
        case "message_start" -> {
          JsonNode usage = root.path("message").path("usage");
          inputTokens = usage.path("input_tokens").asLong(0) + usage.path("cache_creation_input_tokens").asLong(0)
              + usage.path("cache_read_input_tokens").asLong(0);
          outputTokens = usage.path("output_tokens").asLong(0);
          return List.of();
        }
        case "content_block_start" -> {
          JsonNode block = root.path("content_block");
          String blockType = block.path("type").asText("");
          if (blockType.equals("text") && !block.path("text").asText("").isEmpty()) {
            return List.of(new LlmChunk.TextDelta(block.path("text").asText()));
          }
          if (blockType.equals("tool_use")) {
            toolInputs.put(root.path("index").asInt(), new StringBuilder());
          }
          return List.of();
        }
        case "content_block_delta" -> {
          JsonNode delta = root.path("delta");
          String deltaType = delta.path("type").asText("");
          if (deltaType.equals("text_delta")) {
            String text = delta.path("text").asText("");
            return text.isEmpty() ? List.of() : List.of(new LlmChunk.TextDelta(text));
          }
          if (deltaType.equals("input_json_delta")) {
            StringBuilder input = toolInputs.computeIfAbsent(root.path("index").asInt(), i -> new StringBuilder());
            input.append(delta.path("partial_json").asText(""));
            if (input.length() > MAX_TOOL_INPUT) {
              throw new ModelException("a tool call's input from " + source + " exceeds " + MAX_TOOL_INPUT
                  + " characters", false);
            }
          }
          return List.of();
        }
        case "message_delta" -> {
          JsonNode reason = root.path("delta").path("stop_reason");
          if (reason.isTextual()) {
            stopReason = reason.asText();
          }
          JsonNode usage = root.path("usage");
          if (usage.isObject()) {
            outputTokens = usage.path("output_tokens").asLong(outputTokens);
            if (usage.path("input_tokens").asLong(0) > 0) {
              inputTokens = usage.path("input_tokens").asLong() + usage.path("cache_creation_input_tokens").asLong(0)
                  + usage.path("cache_read_input_tokens").asLong(0);
            }
            return List.of(new LlmChunk.Usage(inputTokens, outputTokens));
          }
          return List.of();
        }
        case "message_stop" -> {
          stopped = true;
          return List.of();
        }
        case "error" -> throw streamError(root.path("error"));
        default -> {
          // content_block_stop, ping, and event types added after this code was written carry no text.
          return List.of();
        }
      }
    }

    @Override
    public boolean finished() {
      return stopped;
    }

    @Override
    public boolean complete() {
      return stopped;
    }

    @Override
    public String expectedEnd() {
      return "message_stop";
    }

    /** {@code end_turn}, {@code max_tokens}, {@code stop_sequence}, ...; "" before message_delta. */
    public String stopReason() {
      return stopReason;
    }

    /** The raw JSON input of each tool_use block seen so far, by content block index. */
    public Map<Integer, String> toolInputs() {
      Map<Integer, String> copy = new TreeMap<>();
      toolInputs.forEach((i, sb) -> copy.put(i, sb.toString()));
      return copy;
    }

    private ModelException streamError(JsonNode error) {
      String type = error.path("type").asText("error");
      String message = error.path("message").asText("unknown error");
      return new ModelException(source + " reported " + type + ": " + message, RETRYABLE_ERRORS.contains(type));
    }

    private static String clip(String s) {
      return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
  }
}
