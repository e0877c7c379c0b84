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
}
