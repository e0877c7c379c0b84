package io.interpreter4j.cli.mcp;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelException;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.runtime.llm.ModelProvider;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The model of an {@code i4j mcp} session when none is configured: {@code execute} needs none, and
 * {@code run_task} fails at once with what to configure (every call fails, not retryable).
 */
public record NoModel(String why) implements ModelProvider {

  @Override
  public String name() {
    return "none";
  }

  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    return Source.failed(new ModelException("no model: " + why, false));
  }
}
