package io.interpreter4j.bench.intercept;

import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.core.model.ModelRequest;
import io.interpreter4j.runtime.llm.ModelProvider;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.javadsl.Source;

/** A model whose every call is a queue the harness offers chunks to, so it knows when each chunk enters the stream. */
final class ControlledModel implements ModelProvider {

  /** One queue per model call, in call order. */
  final LinkedBlockingQueue<BoundedSourceQueue<LlmChunk>> calls = new LinkedBlockingQueue<>();

  @Override
  public String name() {
    return "bench:controlled";
  }

  @Override
  public Source<LlmChunk, NotUsed> stream(ModelRequest request) {
    return Source.<LlmChunk>queue(64).mapMaterializedValue(queue -> {
      calls.add(queue);
      return NotUsed.getInstance();
    });
  }
}
