package io.interpreter4j.runtime.intercept;

import io.interpreter4j.core.intercept.FenceScanner;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.LlmChunk;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.Flow;

/** Stream stages that turn the model's streamed answer into prose and code-block segments. */
public final class BlockInterceptor {

  private BlockInterceptor() {}

  /**
   * Scans the answer's text for fenced code blocks with a fresh {@link FenceScanner} per materialisation.
   * When upstream completes, the scanner's held-back text and any unterminated block are emitted; when it fails
   * (a cut model stream), nothing more is: half a block must not reach the approval gate as a block.
   * {@link LlmChunk.Usage} is dropped: the streamer taps it before this stage.
   */
  public static Flow<LlmChunk, Segment, NotUsed> codeBlocks(String defaultLanguage, int firstBlockIndex) {
    return codeBlocks(defaultLanguage, firstBlockIndex, false);
  }

  /**
   * As {@link #codeBlocks(String, int)}; with {@code firstBlockOnly} (first-block mode) the stream also completes
   * right after the first runnable block closes, as {@link #untilFirstBlock()} after it would, in one stage.
   */
  public static Flow<LlmChunk, Segment, NotUsed> codeBlocks(String defaultLanguage, int firstBlockIndex,
                                                           boolean firstBlockOnly) {
    return Flow.fromGraph(new FenceScanStage(defaultLanguage, firstBlockIndex, firstBlockOnly))
        .named(firstBlockOnly ? "code-blocks-until-first" : "code-blocks");
  }

  /**
   * First-block mode: passes segments through and completes right after the first runnable block closes.
   * Completing cancels upstream, which cancels the model call, so the model cannot run ahead of the code.
   */
  public static Flow<Segment, Segment, NotUsed> untilFirstBlock() {
    return Flow.<Segment>create()
        .takeWhile(segment -> !isRunnableBlockClosed(segment), true)
        .named("until-first-block");
  }

  /** Whether {@code segment} ends a first-block answer: {@link #untilFirstBlock()} completes right after it. */
  public static boolean isRunnableBlockClosed(Segment segment) {
    return segment instanceof Segment.BlockClosed closed && closed.block().runnable();
  }
}
