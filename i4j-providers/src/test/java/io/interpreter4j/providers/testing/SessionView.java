package io.interpreter4j.providers.testing;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.LlmChunk;
import io.interpreter4j.runtime.intercept.BlockInterceptor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/** A reply seen as the session sees it: through the block interceptor, and kept as the session keeps it. */
public final class SessionView {

  private SessionView() {}

  public static List<Segment> segments(List<LlmChunk> chunks, ActorSystem<?> system) throws Exception {
    return Source.from(chunks).via(BlockInterceptor.codeBlocks("python", 1))
        .runWith(Sink.seq(), system).toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  public static List<CodeBlock> blocks(List<Segment> segments) {
    return segments.stream().filter(s -> s instanceof Segment.BlockClosed)
        .map(s -> ((Segment.BlockClosed) s).block()).toList();
  }

  /** The reply's markdown as the session keeps it in the conversation (its MarkdownReply). */
  public static String kept(List<Segment> segments) {
    List<Object> parts = new java.util.ArrayList<>();
    for (Segment segment : segments) {
      if (segment instanceof Segment.Text t) {
        parts.add(t.text());
      } else if (segment instanceof Segment.BlockClosed closed) {
        parts.add(closed.block());
      }
    }
    return io.interpreter4j.core.intercept.MarkdownReply.render(parts);
  }
}
