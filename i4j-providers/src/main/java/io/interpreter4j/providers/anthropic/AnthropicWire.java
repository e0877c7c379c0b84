package io.interpreter4j.providers.anthropic;

import static io.interpreter4j.providers.http.WireDecoder.textChunks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ChatMessage.Role;
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
    return requestBody(model, maxTokens, ToolHistory.plain(messages), false);
  }

  /**
   * As {@link #requestBody(String, int, List)}, with tool calls given back as {@code tool_use} blocks and their
   * results as {@code tool_result} blocks (first in their user message, as the API requires), and, when
   * {@code tools}, the {@code execute} tool offered.
   */
  public static String requestBody(String model, int maxTokens, List<ToolHistory.Turn> conversation, boolean tools) {
    StringBuilder system = new StringBuilder();
    List<Turn> turns = new ArrayList<>();
    for (ToolHistory.Turn t : conversation) {
      Turn turn;
      if (t instanceof ToolHistory.Plain p) {
        ChatMessage m = p.message();
        if (m.content() == null || m.content().isBlank()) {
          continue;
        }
        if (m.role() == Role.SYSTEM) {
          system.append(system.length() == 0 ? "" : "\n\n").append(m.content());
          continue;
        }
        if (m.images().isEmpty()) {
          turn = new Turn(m.role(), m.content(), null);
        } else {
          ArrayNode blocks = JSON.createArrayNode();
          blocks.addObject().put("type", "text").put("text", m.content());
          addImages(blocks, m.images());
          turn = new Turn(m.role(), null, blocks);
        }
      } else if (t instanceof ToolHistory.Calls c) {
        ArrayNode blocks = JSON.createArrayNode();
        if (!c.text().isBlank()) {
          blocks.addObject().put("type", "text").put("text", c.text());
        }
        for (ExecuteCall call : c.calls()) {
          ObjectNode use = blocks.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name());
          use.set("input", input(call.arguments()));
        }
        turn = new Turn(Role.ASSISTANT, null, blocks);
      } else {
        ToolHistory.Results r = (ToolHistory.Results) t;
        ArrayNode blocks = JSON.createArrayNode();
        for (ToolHistory.Result result : r.results()) {
          blocks.addObject().put("type", "tool_result").put("tool_use_id", result.callId())
              .put("content", result.content());
        }
        if (!r.text().isBlank()) {
          blocks.addObject().put("type", "text").put("text", r.text());
        }
        addImages(blocks, r.images());
        turn = new Turn(Role.USER, null, blocks);
      }
      if (!turns.isEmpty() && turns.get(turns.size() - 1).role() == turn.role()) {
        turns.add(turns.remove(turns.size() - 1).merge(turn));
      } else {
        turns.add(turn);
      }
    }
    if (turns.isEmpty()) {
      throw new ModelException("nothing to send to the model: the conversation has no user message", false);
    }
    if (turns.get(0).role() != Role.USER) {
      turns.add(0, new Turn(Role.USER, "(The conversation continues.)", null));
    }
    Turn last = turns.get(turns.size() - 1);
    if (last.role() == Role.ASSISTANT && last.text() != null) {
      // The API rejects a final (prefilled) assistant turn that ends with whitespace.
      turns.set(turns.size() - 1, new Turn(Role.ASSISTANT, last.text().stripTrailing(), null));
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("model", model);
    root.put("max_tokens", maxTokens);
    root.put("stream", true);
    if (system.length() > 0) {
      root.put("system", system.toString());
    }
    ArrayNode list = root.putArray("messages");
    for (Turn turn : turns) {
      ObjectNode message = list.addObject().put("role", turn.role().name().toLowerCase(Locale.ROOT));
      if (turn.text() != null) {
        message.put("content", turn.text());
      } else {
        message.set("content", turn.blocks());
      }
    }
    if (tools) {
      ArrayNode offered = root.putArray("tools").add(ExecuteTool.anthropic());
      if (ComputerTool.active()) {
        ComputerTool.anthropic().forEach(offered::add);
      }
    }
    return WireJson.write(root);
  }

  /**
   * Per image an {@code image} block with a base64 {@code source}, or a text block saying why it was not sent.
   */
  private static void addImages(ArrayNode blocks, List<ImageRef> images) {
    for (ImageRef image : images) {
      Attachment attachment = ImageAttachments.load(image);
      if (attachment instanceof Attachment.Encoded encoded) {
        blocks.addObject().put("type", "image").putObject("source").put("type", "base64")
            .put("media_type", encoded.mime()).put("data", encoded.base64());
      } else {
        blocks.addObject().put("type", "text").put("text", ((Attachment.Unavailable) attachment).note());
      }
    }
  }

  /** One message of the request: plain {@code text}, or content {@code blocks}. */
  private record Turn(Role role, String text, ArrayNode blocks) {

    /** Two messages of the same role as one: texts joined, or blocks concatenated. */
    Turn merge(Turn next) {
      if (text != null && next.text() != null) {
        return new Turn(role, text + "\n\n" + next.text(), null);
      }
      ArrayNode merged = asBlocks();
      merged.addAll(next.asBlocks());
      return new Turn(role, null, merged);
    }

    ArrayNode asBlocks() {
      if (blocks != null) {
        return blocks.deepCopy();
      }
      ArrayNode one = JSON.createArrayNode();
      one.addObject().put("type", "text").put("text", text);
      return one;
    }
  }

  /** A call's arguments as the {@code input} object; arguments that are not an object become {}. */
  private static JsonNode input(String arguments) {
    try {
      JsonNode node = JSON.readTree(arguments);
      return node != null && node.isObject() ? node : JSON.createObjectNode();
    } catch (JsonProcessingException e) {
      return JSON.createObjectNode();
    }
  }

  /** Decodes one response's events; {@code source} (the base URL) is named in errors. */
  public static final class Decoder extends StreamDecoder {
    private long inputTokens;
    private long outputTokens;
    private boolean stopped;
    private String stopReason = "";
    private final Map<Integer, StringBuilder> toolInputs = new TreeMap<>();

    /** A decoder that keeps tool inputs aside (markdown mode). */
    public Decoder(String source) {
      this(source, null);
    }

    /** A decoder that turns tool_use blocks into fenced code through {@code fences} (tool mode; null = keep aside). */
    public Decoder(String source, ToolCallFences fences) {
      super(source, fences);
    }

    @Override
    public List<LlmChunk> decode(SseEvent event) {
      JsonNode root = jsonObject(event.data(), event.event() + " event");
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
            return text(block.path("text").asText());
          }
          if (blockType.equals("tool_use")) {
            int index = root.path("index").asInt();
            toolInputs.put(index, new StringBuilder());
            if (fences != null) {
              // The input streams as input_json_delta; a server that sends it whole here is taken at its word.
              JsonNode input = block.path("input");
              String whole = input.isObject() && input.size() > 0 ? input.toString() : null;
              return textChunks(fences.call(index, block.path("id").asText(""), block.path("name").asText(""), whole));
            }
          }
          return List.of();
        }
        case "content_block_delta" -> {
          JsonNode delta = root.path("delta");
          String deltaType = delta.path("type").asText("");
          if (deltaType.equals("text_delta")) {
            return text(delta.path("text").asText(""));
          }
          if (deltaType.equals("input_json_delta")) {
            int index = root.path("index").asInt();
            StringBuilder input = toolInputs.computeIfAbsent(index, i -> new StringBuilder());
            String piece = delta.path("partial_json").asText("");
            input.append(piece);
            if (input.length() > MAX_TOOL_INPUT) {
              throw new ModelException("a tool call's input from " + source + " exceeds " + MAX_TOOL_INPUT
                  + " characters", false);
            }
            if (fences != null) {
              return textChunks(fences.call(index, null, null, piece));
            }
          }
          return List.of();
        }
        case "content_block_stop" -> {
          return fences == null ? List.of() : textChunks(fences.end(root.path("index").asInt()));
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
          return finishFences();
        }
        case "error" -> throw streamError(root.path("error"));
        default -> {
          // ping, and event types added after this code was written, carry no text.
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
  }
}
