package io.interpreter4j.core.model;

/** One piece of a streamed model reply. */
public sealed interface LlmChunk {

  /** Text of the answer, as the model streams it. */
  record TextDelta(String text) implements LlmChunk {}

  /** Token usage reported by the provider for this call. */
  record Usage(long inputTokens, long outputTokens) implements LlmChunk {}
}
