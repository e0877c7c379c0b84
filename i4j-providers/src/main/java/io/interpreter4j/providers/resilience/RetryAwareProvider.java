package io.interpreter4j.providers.resilience;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.util.function.Consumer;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.Source;

/** A provider that retries failed calls itself and can tell its caller each time it does (to show a retry event). */
public interface RetryAwareProvider extends ModelProvider {

  /**
   * As {@link #stream}, calling {@code onRetry} before each retry's delay. Retries happen only before the first
   * chunk; a retryable failure after it fails the stream with a retryable ModelException whose message starts
   * with "stream interrupted after partial output", so the caller can discard the partial text and call again.
   */
  Source<LlmChunk, NotUsed> streamWithRetries(ModelRequest request, Consumer<RetryInfo> onRetry);

  @Override
  default Source<LlmChunk, NotUsed> stream(ModelRequest request, RetryListener onRetry) {
    return streamWithRetries(request, info -> onRetry.onRetry(info.attempt(), info.reason(), info.delay()));
  }

  /** {@code provider.streamWithRetries} when it can retry, else its plain stream (onRetry is then never called). */
  static Source<LlmChunk, NotUsed> streamWithRetries(ModelProvider provider, ModelRequest request,
                                                     Consumer<RetryInfo> onRetry) {
    return provider instanceof RetryAwareProvider r ? r.streamWithRetries(request, onRetry) : provider.stream(request);
  }
}
