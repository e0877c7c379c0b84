package io.interpreter4j.server.http;

import java.time.Duration;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.FlowShape;
import org.apache.pekko.stream.Inlet;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.stage.AbstractInHandler;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.GraphStage;
import org.apache.pekko.stream.stage.GraphStageLogic;
import org.apache.pekko.stream.stage.TimerGraphStageLogic;

/**
 * Passes elements on and, after a whole {@code period} in which none went out, a {@code comment}: an idle stream
 * gets one every {@code period} (the first after between one and two periods of silence). One periodic timer per
 * stream and a flag per element, where the built-in {@code keepAlive} cancels and schedules a timer for every
 * element: an event stream followed by a hundred clients paid two scheduler operations per client and event.
 * Holds at most one element (pulled ahead, so that an element waiting goes before a comment).
 *
 * @param <T> what the stream carries
 */
final class IdleKeepAlive<T> extends GraphStage<FlowShape<T, T>> {
  private static final String TIMER = "idle-keep-alive";

  private final Inlet<T> in = Inlet.create("IdleKeepAlive.in");
  private final Outlet<T> out = Outlet.create("IdleKeepAlive.out");
  private final FlowShape<T, T> shape = FlowShape.of(in, out);
  private final Duration period;
  private final T comment;

  IdleKeepAlive(Duration period, T comment) {
    if (period.isZero() || period.isNegative()) {
      throw new IllegalArgumentException("the keep-alive period must be positive, not " + period);
    }
    this.period = period;
    this.comment = comment;
  }

  @Override
  public FlowShape<T, T> shape() {
    return shape;
  }

  @Override
  public GraphStageLogic createLogic(Attributes inheritedAttributes) {
    return new TimerGraphStageLogic(shape) {
      /** Whether an element went out since the last tick. */
      private boolean sent;

      {
        setHandler(in, new AbstractInHandler() {
          @Override
          public void onPush() {
            if (isAvailable(out)) {
              push(out, grab(in));
              sent = true;
              pull(in);
            }
            // else it waits in the inlet until downstream pulls
          }

          @Override
          public void onUpstreamFinish() {
            if (!isAvailable(in)) {
              completeStage();
            }
            // else the element waiting goes out first (onPull)
          }
        });
        setHandler(out, new AbstractOutHandler() {
          @Override
          public void onPull() {
            if (isAvailable(in)) {
              push(out, grab(in));
              sent = true;
              if (isClosed(in)) {
                completeStage();
              } else {
                pull(in);
              }
            }
          }
        });
      }

      @Override
      public void preStart() {
        pull(in);
        scheduleWithFixedDelay(TIMER, period, period);
      }

      @Override
      public void onTimer(Object key) {
        if (!sent && isAvailable(out) && !isAvailable(in)) {
          push(out, comment);
        }
        sent = false;
      }
    };
  }
}
