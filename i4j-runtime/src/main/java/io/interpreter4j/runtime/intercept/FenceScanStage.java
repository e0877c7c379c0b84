package io.interpreter4j.runtime.intercept;

import io.interpreter4j.core.intercept.FenceScanner;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.model.LlmChunk;
import java.util.ArrayDeque;
import java.util.List;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.FlowShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.GraphStageLogic;

/**
 * The stage behind {@link BlockInterceptor#codeBlocks}: a fresh {@link FenceScanner} per materialisation fed with
 * the answer's text. On completion the scanner's held-back text and any unterminated block follow; on failure
 * nothing more does (half a block must not reach the approval gate as a block). With {@code firstBlockOnly} it
 * completes right after the first runnable block closes and cancels upstream, which cancels the model call.
 *
 * <p>One stage rather than a chain of built-in ones (an end marker concatenated, a stateful map, a flattening, a
 * take-while): a model call materialises this afresh each time, and in a loop of small blocks building and
 * starting those stages was the largest share of the runtime's CPU per block. Holds at most the segments of one
 * chunk: upstream is pulled only when they are all out.
 */
final class FenceScanStage extends GraphStage<FlowShape<LlmChunk, Segment>> {

  private final Inlet<LlmChunk> in = Inlet.create("FenceScanStage.in");
  private final Outlet<Segment> out = Outlet.create("FenceScanStage.out");
  private final FlowShape<LlmChunk, Segment> shape = FlowShape.of(in, out);
  private final String defaultLanguage;
  private final int firstBlockIndex;
  private final boolean firstBlockOnly;

  FenceScanStage(String defaultLanguage, int firstBlockIndex, boolean firstBlockOnly) {
    this.defaultLanguage = defaultLanguage;
    this.firstBlockIndex = firstBlockIndex;
    this.firstBlockOnly = firstBlockOnly;
  }

  @Override
  public FlowShape<LlmChunk, Segment> shape() {
    return shape;
  }

  @Override
  public GraphStageLogic createLogic(Attributes inheritedAttributes) {
    return new GraphStageLogic(shape) {
      private final FenceScanner scanner = new FenceScanner(defaultLanguage, firstBlockIndex);
      private final ArrayDeque<Segment> ready = new ArrayDeque<>();
      /** Nothing more comes in: upstream completed (the scanner is flushed) or was cancelled after the first block. */
      private boolean inputDone;

      {
        setHandler(in, new AbstractInHandler() {
          @Override
          public void onPush() {
            if (grab(in) instanceof LlmChunk.TextDelta delta) { // usage is tapped before this stage
              take(scanner.feed(delta.text()));
            }
            deliver();
          }

          @Override
          public void onUpstreamFinish() {
            if (!inputDone) {
              inputDone = true;
              take(scanner.finish());
            }
            deliver();
          }
          // onUpstreamFailure: the default fails the stage at once, flushing nothing
        });
        setHandler(out, new AbstractOutHandler() {
          @Override
          public void onPull() {
            deliver();
          }
        });
      }

      private void take(List<Segment> segments) {
        for (Segment segment : segments) {
          ready.add(segment);
          if (firstBlockOnly && BlockInterceptor.isRunnableBlockClosed(segment)) {
            if (!inputDone) {
              inputDone = true;
              cancel(in);
            }
            return; // what follows the first block is not wanted
          }
        }
      }

      private void deliver() {
        if (!ready.isEmpty() && isAvailable(out)) {
          push(out, ready.poll());
        }
        if (ready.isEmpty()) {
          if (inputDone) {
            completeStage();
          } else if (!hasBeenPulled(in)) {
            pull(in);
          }
        }
      }
    };
  }
}
