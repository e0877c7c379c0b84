package io.interpreter4j.runtime.intercept;

import io.interpreter4j.core.intercept.WrappedCodeRepair;
import io.interpreter4j.core.model.LlmChunk;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.NotUsed;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.javadsl.Flow;

/** Stream stages that repair what weak models write, before the block interceptor reads it. */
public final class WeakModelRepairs {

  private WeakModelRepairs() {}

  /**
   * Code wrapped as JSON or as a tool call written out as text becomes a fenced block ({@link WrappedCodeRepair},
   * a fresh one per materialisation). Text that cannot be such a wrapper passes at once; usage passes untouched.
   * What is held back when upstream completes comes out then, repaired or as it was.
   */
  public static Flow<LlmChunk, LlmChunk, NotUsed> wrappedCode() {
    return Flow.<LlmChunk>create()
        .<WrappedCodeRepair, List<LlmChunk>>statefulMap(
            WrappedCodeRepair::new,
            (repair, chunk) -> Pair.create(repair, repaired(repair, chunk)),
            // Also called on cancel and failure, where the result is discarded.
            repair -> Optional.of(text(repair.finish())))
        .mapConcat(chunks -> chunks)
        .named("repair-wrapped-code");
  }

  private static List<LlmChunk> repaired(WrappedCodeRepair repair, LlmChunk chunk) {
    if (chunk instanceof LlmChunk.TextDelta delta) {
      return text(repair.feed(delta.text()));
    }
    return List.of(chunk);
  }

  private static List<LlmChunk> text(String text) {
    return text.isEmpty() ? List.of() : List.of(new LlmChunk.TextDelta(text));
  }
}
