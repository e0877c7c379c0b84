package io.interpreter4j.runtime.llm;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelRequest;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.Source;

/**
 * A model endpoint seen as a stream. {@link #stream} returns a cold {@code Source}: nothing is sent until
 * it is materialised, and cancelling it downstream must cancel the call (close the HTTP response).
 * A failed call fails the stream with a {@link io.interpreter4j.core.model.ModelException}.
 */
public interface ModelProvider {

  /** The model's display name, e.g. {@code replay:examples/hello.json} or {@code openai/gpt-4o}. */
  String name();

  Source<LlmChunk, NotUsed> stream(ModelRequest request);

  /**
   * As {@link #stream}, telling {@code onRetry} each time the provider itself retries the call before its first
   * chunk (so the session can show a {@code retry} event). Providers that do not retry keep this default.
   */
  default Source<LlmChunk, NotUsed> stream(ModelRequest request, RetryListener onRetry) {
    return stream(request);
  }

  /** Hears a provider's own retries: {@code attempt} is the number of the attempt about to start. */
  @FunctionalInterface
  interface RetryListener {
    void onRetry(int attempt, String reason, java.time.Duration delay);
  }
}
