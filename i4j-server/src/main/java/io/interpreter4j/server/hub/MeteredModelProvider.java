package io.interpreter4j.server.hub;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.util.function.BiConsumer;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.Source;

/**
 * A session's model, with the token usage it reports also counted for the dashboard: no event carries token
 * counts, so the server reads them off the model's stream as they pass.
 */
final class MeteredModelProvider implements ModelProvider {
  private final ModelProvider inner;
  private final BiConsumer<Long, Long> usage;

  MeteredModelProvider(ModelProvider inner, BiConsumer<Long, Long> usage) {
    this.inner = inner;
    this.usage = usage;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    return inner.stream(request).wireTap(chunk -> {
      if (chunk instanceof LlmChunk.Usage u) {
        usage.accept(u.inputTokens(), u.outputTokens());
      }
    });
  }
}
