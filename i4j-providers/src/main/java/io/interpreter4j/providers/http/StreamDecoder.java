package io.interpreter4j.providers.http;

import static io.interpreter4j.providers.http.WireDecoder.clip;
import static io.interpreter4j.providers.http.WireDecoder.textChunks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.providers.tools.ToolCallFences;
import java.util.List;

/**
 * What the providers' decoders share: the server they read (named in their errors), the tool mode's
 * {@link ToolCallFences} (null in markdown mode, where text passes as it is), and the parsing of an event's JSON
 * with a clear error for one that is not a JSON object.
 */
public abstract class StreamDecoder implements WireDecoder {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The base URL, named in errors. */
  protected final String source;
  /** Turns tool calls into fenced code in tool mode; null in markdown mode. */
  protected final ToolCallFences fences;

  protected StreamDecoder(String source, ToolCallFences fences) {
    this.source = source;
    this.fences = fences;
  }

  /** Reply text as chunks: through the fences in tool mode (they may hold a fence open), as it is otherwise. */
  protected final List<LlmChunk> text(String text) {
    return textChunks(fences == null ? text : fences.text(text));
  }

  /** The reply ended: in tool mode, whatever the fences still hold. */
  protected final List<LlmChunk> finishFences() {
    return fences == null ? List.of() : textChunks(fences.finish());
  }

  /**
   * {@code data} as a JSON object; {@code what} names it in the error ("chunk", "message_start event").
   *
   * @throws ModelException (not retryable) when it is not JSON, or JSON but not an object
   */
  protected final JsonNode jsonObject(String data, String what) {
    JsonNode root;
    try {
      root = JSON.readTree(data);
    } catch (JsonProcessingException e) {
      throw new ModelException("malformed " + what + " from " + source + " (not JSON): " + clip(data), false);
    }
    if (root == null || !root.isObject()) {
      throw new ModelException("malformed " + what + " from " + source + " (not a JSON object): " + clip(data),
          false);
    }
    return root;
  }
}
