package io.interpreter4j.providers.http;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.providers.sse.SseEvent;
import java.util.List;

/**
 * Turns one provider's SSE events into chunks. One instance per response: decoders keep state (usage halves,
 * whether the reply reached its end). Pure, so each provider's wire format is tested without a server.
 */
public interface WireDecoder {

  /**
   * The chunks an event carries (often none).
   *
   * @throws io.interpreter4j.core.model.ModelException for an error event or a malformed chunk
   */
  List<LlmChunk> decode(SseEvent event);

  /** The server has said its last word ({@code [DONE]}, {@code message_stop}): stop reading. */
  boolean finished();

  /** The reply reached its natural end; a stream that closes before this was cut and is a retryable failure. */
  boolean complete();

  /** Names the end marker that was missing, for the error of a cut stream. */
  String expectedEnd();

  /** {@code text} as the chunks of an event: one text delta, or none for "". */
  static List<LlmChunk> textChunks(String text) {
    return text.isEmpty() ? List.of() : List.of(new LlmChunk.TextDelta(text));
  }

  /** A payload quoted in an error message: its first 200 characters, then "..." when there were more. */
  static String clip(String payload) {
    return payload.length() <= 200 ? payload : payload.substring(0, 200) + "...";
  }
}
