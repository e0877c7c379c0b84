package io.interpreter4j.providers.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.providers.http.WireDecoder;
import io.interpreter4j.providers.sse.SseEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The Chat Completions wire format (OpenAI, and the servers that copy it: Ollama, vLLM, llama.cpp, LM Studio,
 * OpenRouter, Groq): the streamed request body, and the decoding of its {@code data:} chunks.
 */
public final class OpenAiWire {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> RETRYABLE_ERRORS = Set.of("server_error", "rate_limit_exceeded",
      "rate_limit_error", "overloaded_error", "overloaded", "timeout", "service_unavailable");

  private OpenAiWire() {}

  /** {@code {"model", "messages", "stream": true, "stream_options": {"include_usage": true}}}. */
  public static String requestBody(String model, List<ChatMessage> messages) {
    ObjectNode root = JSON.createObjectNode();
    root.put("model", model);
    ArrayNode list = root.putArray("messages");
    for (ChatMessage m : messages) {
      list.addObject().put("role", m.role().name().toLowerCase(Locale.ROOT)).put("content", m.content());
    }
    root.put("stream", true);
    root.putObject("stream_options").put("include_usage", true);
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings always serialises", e);
    }
  }

  /** Decodes one response's chunks; {@code source} (the base URL) is named in errors. */
  public static final class Decoder implements WireDecoder {
    private final String source;
    private boolean done;
    private boolean finishReasonSeen;
    private String finishReason = "";

    public Decoder(String source) {
      this.source = source;
    }

    @Override
    public List<LlmChunk> decode(SseEvent event) {
      String data = event.data().strip();
      if (data.isEmpty()) {
        return List.of();
      }
      if (data.equals("[DONE]")) {
        done = true;
        return List.of();
      }
      JsonNode root;
      try {
        root = JSON.readTree(data);
      } catch (JsonProcessingException e) {
        throw new ModelException("malformed chunk from " + source + " (not JSON): " + clip(data), false);
      }
      if (!root.isObject()) {
        throw new ModelException("malformed chunk from " + source + " (not a JSON object): " + clip(data), false);
      }
      JsonNode error = root.get("error");
      if (error != null && !error.isNull()) {
        throw streamError(error);
      }
      List<LlmChunk> chunks = new ArrayList<>(2);
      for (JsonNode choice : root.path("choices")) {
        JsonNode content = choice.path("delta").path("content");
        if (content.isTextual() && !content.asText().isEmpty()) {
          chunks.add(new LlmChunk.TextDelta(content.asText()));
        }
        JsonNode reason = choice.get("finish_reason");
        if (reason != null && !reason.isNull()) {
          finishReasonSeen = true;
          finishReason = reason.asText();
        }
      }
      JsonNode usage = root.get("usage");
      if (usage != null && usage.isObject()) {
        chunks.add(new LlmChunk.Usage(usage.path("prompt_tokens").asLong(0),
            usage.path("completion_tokens").asLong(0)));
      }
      return chunks;
    }

    @Override
    public boolean finished() {
      return done;
    }

    @Override
    public boolean complete() {
      return done || finishReasonSeen;
    }

    @Override
    public String expectedEnd() {
      return "finish_reason or [DONE]";
    }

    /** The last {@code finish_reason} ("stop", "length", ...), "" before one arrives. */
    public String finishReason() {
      return finishReason;
    }

    private ModelException streamError(JsonNode error) {
      String message = error.isTextual() ? error.asText() : error.path("message").asText("unknown error");
      String type = error.path("type").asText("");
      String code = error.path("code").asText("");
      boolean retryable = RETRYABLE_ERRORS.contains(type) || RETRYABLE_ERRORS.contains(code);
      String kind = type.isEmpty() ? code : type;
      return new ModelException(source + " reported an error" + (kind.isEmpty() ? "" : " (" + kind + ")") + ": "
          + message, retryable);
    }

    private static String clip(String s) {
      return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
  }
}
