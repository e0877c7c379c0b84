package io.interpreter4j.providers.ollama;

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
import io.interpreter4j.providers.tools.ToolHistory;
import io.interpreter4j.providers.vision.ImageAttachments;
import io.interpreter4j.providers.vision.ImageAttachments.Attachment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Ollama's native chat API ({@code POST /api/chat}): the streamed request body, with a message's images as raw
 * base64 strings in its {@code images} field, and the decoding of the reply's JSON lines
 * ({@code {"message": {"content": ...}, "done": false}} ... a last line with {@code "done": true} and the token
 * counts, or {@code {"error": ...}}). Markdown mode only: tool calls go through Ollama's {@code /v1}.
 */
public final class OllamaWire {

  private static final ObjectMapper JSON = new ObjectMapper();

  private OllamaWire() {}

  /**
   * {@code {"model", "messages", "stream": true}}, and {@code "options": {"num_ctx": N}} when {@code contextWindow}
   * is set (&gt; 0), so that Ollama keeps as much of the prompt as interpreter4j fitted to that window.
   *
   * @throws IllegalArgumentException for a tool-mode turn (a call or its results): those go through {@code /v1}
   */
  public static String requestBody(String model, List<ToolHistory.Turn> turns, int contextWindow) {
    ObjectNode root = JSON.createObjectNode();
    root.put("model", model);
    ArrayNode list = root.putArray("messages");
    for (ToolHistory.Turn turn : turns) {
      if (!(turn instanceof ToolHistory.Plain plain)) {
        throw new IllegalArgumentException("Ollama's /api/chat is spoken in markdown mode only; a "
            + turn.getClass().getSimpleName() + " turn belongs to tool mode, which goes through /v1");
      }
      message(list.addObject(), plain.message());
    }
    root.put("stream", true);
    if (contextWindow > 0) {
      root.putObject("options").put("num_ctx", contextWindow);
    }
    return WireJson.write(root);
  }

  /** Role, content and, when the message carries images, their base64 (a note in the text for one not sent). */
  private static void message(ObjectNode out, ChatMessage message) {
    StringBuilder content = new StringBuilder(message.content());
    List<String> images = new ArrayList<>(message.images().size());
    for (ImageRef image : message.images()) {
      Attachment attachment = ImageAttachments.load(image);
      if (attachment instanceof Attachment.Encoded encoded) {
        images.add(encoded.base64());
      } else {
        content.append(content.length() == 0 ? "" : "\n").append(((Attachment.Unavailable) attachment).note());
      }
    }
    out.put("role", message.role().name().toLowerCase(Locale.ROOT)).put("content", content.toString());
    if (!images.isEmpty()) {
      ArrayNode array = out.putArray("images");
      images.forEach(array::add);
    }
  }

  /** Decodes one reply's JSON lines; {@code source} (the base URL) is named in errors. */
  public static final class Decoder extends StreamDecoder {
    private boolean done;
    private String doneReason = "";

    public Decoder(String source) {
      super(source, null);
    }

    @Override
    public List<LlmChunk> decode(SseEvent event) {
      String data = event.data().strip();
      if (data.isEmpty()) {
        return List.of();
      }
      JsonNode root = jsonObject(data, "line");
      JsonNode error = root.get("error");
      if (error != null && !error.isNull()) {
        String message = error.isTextual() ? error.asText() : error.path("message").asText(error.toString());
        throw new ModelException(source + " reported an error: " + message, false);
      }
      List<LlmChunk> chunks = new ArrayList<>(2);
      JsonNode content = root.path("message").path("content");
      if (content.isTextual() && !content.asText().isEmpty()) {
        chunks.addAll(text(content.asText()));
      }
      if (root.path("done").asBoolean(false)) {
        done = true;
        doneReason = root.path("done_reason").asText("");
        if (root.has("prompt_eval_count") || root.has("eval_count")) {
          chunks.add(new LlmChunk.Usage(root.path("prompt_eval_count").asLong(0), root.path("eval_count").asLong(0)));
        }
      }
      return chunks;
    }

    @Override
    public boolean finished() {
      return done;
    }

    @Override
    public boolean complete() {
      return done;
    }

    @Override
    public String expectedEnd() {
      return "line with \"done\": true";
    }

    /** The last line's {@code done_reason} ("stop", "length", ...), "" before it or when it had none. */
    public String doneReason() {
      return doneReason;
    }
  }
}
