package io.interpreter4j.runtime.intercept;

import io.interpreter4j.core.intercept.WrappedCodeRepair;
import io.interpreter4j.core.model.LlmChunk;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.NotUsed;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Source;

/** Stream stages that repair what weak models write, before the block interceptor reads it. */
public final class WeakModelRepairs {

  private WeakModelRepairs() {}

  /**
   * Code wrapped as JSON or as a tool call written out as text becomes a fenced block ({@link WrappedCodeRepair},
   * a fresh one per materialisation). Text that cannot be such a wrapper passes at once; usage passes untouched.
   * What is held back when upstream completes comes out then, repaired or as it was; when it fails, nothing does.
   */
  public static Flow<LlmChunk, LlmChunk, NotUsed> wrappedCode() {
    return Flow.<LlmChunk>create()
        .map(Optional::of)
        // The end marker follows a completed upstream only: a failure overtakes it.
        .concat(Source.single(Optional.<LlmChunk>empty()))
        .<WrappedCodeRepair, List<LlmChunk>>statefulMap(
            WrappedCodeRepair::new,
            (repair, chunk) -> Pair.create(repair,
                chunk.isPresent() ? repaired(repair, chunk.get()) : text(repair.finish())),
            // statefulMap emits this on upstream failure too (Pekko 1.x), before failing: so nothing here.
            repair -> Optional.empty())
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
