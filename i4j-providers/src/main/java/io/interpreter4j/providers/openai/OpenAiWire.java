package io.interpreter4j.providers.openai;

import static io.interpreter4j.providers.http.WireDecoder.textChunks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.providers.http.StreamDecoder;
import io.interpreter4j.providers.http.WireJson;
import io.interpreter4j.providers.sse.SseEvent;
import io.interpreter4j.providers.tools.ExecuteCall;
import io.interpreter4j.providers.tools.ComputerTool;
import io.interpreter4j.providers.tools.ExecuteTool;
import io.interpreter4j.providers.tools.ToolCallFences;
import io.interpreter4j.providers.tools.ToolHistory;
import io.interpreter4j.providers.vision.ImageAttachments;
import io.interpreter4j.providers.vision.ImageAttachments.Attachment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;

/**
 * The Chat Completions wire format (OpenAI, and the servers that copy it: Ollama, vLLM, llama.cpp, LM Studio,
 * OpenRouter, Groq): the streamed request body, and the decoding of its {@code data:} chunks. A message's images go
 * as {@code image_url} content parts with {@code data:} URLs (Ollama's {@code /v1} takes them too).
 */
public final class OpenAiWire {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> RETRYABLE_ERRORS = Set.of("server_error", "rate_limit_exceeded",
      "rate_limit_error", "overloaded_error", "overloaded", "timeout", "service_unavailable");

  private OpenAiWire() {}

  /** {@code {"model", "messages", "stream": true, "stream_options": {"include_usage": true}}}. */
  public static String requestBody(String model, List<ChatMessage> messages) {
    return requestBody(model, ToolHistory.plain(messages), false);
  }

  /**
   * As {@link #requestBody(String, List)}, with tool calls given back as assistant {@code tool_calls} and
   * {@code tool} messages, and, when {@code tools}, the {@code execute} function offered.
   */
  public static String requestBody(String model, List<ToolHistory.Turn> turns, boolean tools) {
    ObjectNode root = JSON.createObjectNode();
    root.put("model", model);
    ArrayNode list = root.putArray("messages");
    for (ToolHistory.Turn turn : turns) {
      if (turn instanceof ToolHistory.Plain p) {
        ObjectNode message = list.addObject().put("role", p.message().role().name().toLowerCase(Locale.ROOT));
        if (p.message().images().isEmpty()) {
          message.put("content", p.message().content());
        } else {
          message.set("content", withImages(p.message().content(), p.message().images()));
        }
      } else if (turn instanceof ToolHistory.Calls c) {
        ObjectNode message = list.addObject().put("role", "assistant");
        if (c.text().isBlank()) {
          message.putNull("content");
        } else {
          message.put("content", c.text());
        }
        ArrayNode calls = message.putArray("tool_calls");
        for (ExecuteCall call : c.calls()) {
          calls.addObject().put("id", call.id()).put("type", "function")
              .putObject("function").put("name", call.name()).put("arguments", call.arguments());
        }
      } else if (turn instanceof ToolHistory.Results r) {
        for (ToolHistory.Result result : r.results()) {
          list.addObject().put("role", "tool").put("tool_call_id", result.callId()).put("content", result.content());
        }
        if (!r.images().isEmpty()) {
          // A tool message holds text only: the blocks' images follow in a user message.
          list.addObject().put("role", "user").set("content", withImages(r.text(), r.images()));
        } else if (!r.text().isBlank()) {
          list.addObject().put("role", "user").put("content", r.text());
        }
      }
    }
    root.put("stream", true);
    root.putObject("stream_options").put("include_usage", true);
    if (tools) {
      com.fasterxml.jackson.databind.node.ArrayNode offered = root.putArray("tools").add(ExecuteTool.openAi());
      if (ComputerTool.active()) {
        ComputerTool.openAi().forEach(offered::add);
      }
    }
    return WireJson.write(root);
  }

  /**
   * Content parts: the text (when there is some), then per image an {@code image_url} part with a {@code data:} URL,
   * or a text part saying why it was not sent.
   */
  private static ArrayNode withImages(String text, List<ImageRef> images) {
    ArrayNode parts = JSON.createArrayNode();
    if (text != null && !text.isBlank()) {
      parts.addObject().put("type", "text").put("text", text);
    }
    for (ImageRef image : images) {
      Attachment attachment = ImageAttachments.load(image);
      if (attachment instanceof Attachment.Encoded encoded) {
        parts.addObject().put("type", "image_url").putObject("image_url").put("url", encoded.dataUrl());
      } else {
        parts.addObject().put("type", "text").put("text", ((Attachment.Unavailable) attachment).note());
      }
    }
    return parts;
  }

  /** Decodes one response's chunks; {@code source} (the base URL) is named in errors. */
  public static final class Decoder extends StreamDecoder {
    private final Map<String, Integer> keysById = new HashMap<>();
    private int lastKey;
    private boolean done;
    private boolean finishReasonSeen;
    private String finishReason = "";

    /** A decoder that ignores tool calls (markdown mode). */
    public Decoder(String source) {
      this(source, null);
    }

    /** A decoder that turns tool calls into fenced code through {@code fences} (tool mode; null = ignore them). */
    public Decoder(String source, ToolCallFences fences) {
      super(source, fences);
    }

    @Override
    public List<LlmChunk> decode(SseEvent event) {
      String data = event.data().strip();
      if (data.isEmpty()) {
        return List.of();
      }
      if (data.equals("[DONE]")) {
        done = true;
        return finishFences();
      }
      JsonNode root = jsonObject(data, "chunk");
      JsonNode error = root.get("error");
      if (error != null && !error.isNull()) {
        throw streamError(error);
      }
      List<LlmChunk> chunks = new ArrayList<>(2);
      for (JsonNode choice : root.path("choices")) {
        JsonNode content = choice.path("delta").path("content");
        if (content.isTextual() && !content.asText().isEmpty()) {
          chunks.addAll(text(content.asText()));
        }
        if (fences != null) {
          JsonNode toolCalls = choice.path("delta").path("tool_calls");
          for (int i = 0; i < toolCalls.size(); i++) {
            chunks.addAll(textChunks(toolCall(toolCalls.get(i), i)));
          }
        }
        JsonNode reason = choice.get("finish_reason");
        if (reason != null && !reason.isNull()) {
          finishReasonSeen = true;
          finishReason = reason.asText();
          chunks.addAll(finishFences());
        }
      }
      JsonNode usage = root.get("usage");
      if (usage != null && usage.isObject()) {
        chunks.add(new LlmChunk.Usage(usage.path("prompt_tokens").asLong(0),
            usage.path("completion_tokens").asLong(0)));
      }
      return chunks;
    }

    /**
     * One element of {@code delta.tool_calls}. Its {@code index} says which call it continues; servers that send
     * none are followed by id, or else by position.
     */
    private String toolCall(JsonNode call, int position) {
      String id = call.path("id").isTextual() ? call.path("id").asText() : null;
      int key;
      if (call.path("index").isInt()) {
        key = call.path("index").asInt();
      } else if (id != null && !id.isEmpty()) {
        key = keysById.computeIfAbsent(id, i -> keysById.size());
      } else {
        key = position == 0 ? lastKey : position;
      }
      lastKey = key;
      JsonNode function = call.path("function");
      String name = function.path("name").isTextual() ? function.path("name").asText() : null;
      JsonNode arguments = function.path("arguments");
      String piece = arguments.isTextual() ? arguments.asText()
          : arguments.isObject() ? arguments.toString() : null;
      return fences.call(key, id, name, piece);
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
  }
}
