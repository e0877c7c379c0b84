package io.interpreter4j.runtime.supervision;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Crash points for the supervision tests: each actor calls {@link #hit} at the phases of a turn, and a plan made
 * by a test throws {@link InjectedFault} there, once per armed point. Production wiring (the CLI, the server, the
 * batch runner) always passes {@link #NONE}; no flag, setting or endpoint can arm a point.
 */
public final class Faults {

  /** Where an actor may be made to crash: the actor, then the step of the turn it is handling. */
  public enum Point {
    /** Session: a segment of the model's answer arrives (streaming). */
    SESSION_STREAMING,
    /** Session: the approval gate's decision arrives (awaiting approval). */
    SESSION_AWAITING_APPROVAL,
    /** Session: output of the running block arrives (executing). */
    SESSION_EXECUTING,
    /** LlmStreamer: a segment of the model's stream arrives. */
    STREAMER_STREAMING,
    /** ApprovalGate: a block arrives for review. */
    GATE_REVIEW,
    /** ApprovalGate: the person's answer arrives. */
    GATE_ANSWER,
    /** RetryController: a block's result arrives. */
    RETRY_BLOCK_FINISHED,
    /** RetryController: asked before a model call. */
    RETRY_BEFORE_CALL,
    /** ReplWorker: output of the running block arrives. */
    WORKER_EXECUTING,
    /** ReplWorker: a block arrives to run. */
    WORKER_EXECUTE,
  }

  /** The exception a crash point throws; its message names the point. */
  public static final class InjectedFault extends RuntimeException {
    public InjectedFault(Point point) {
      super("injected fault at " + point.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  /** Never throws. */
  public static final Faults NONE = new Faults(Set.of(), false);

  private final Set<Point> armed;
  private final boolean always;
  /** Hits of an armed point still to let pass before it throws. */
  private final AtomicInteger passes = new AtomicInteger();

  private Faults(Set<Point> armed, boolean always) {
    this.armed = armed;
    this.always = always;
  }

  /** Each of these points throws the first time it is hit, then never again. */
  public static Faults once(Point... points) {
    Set<Point> set = ConcurrentHashMap.newKeySet();
    set.addAll(points.length == 0 ? Set.of() : EnumSet.of(points[0], points));
    return new Faults(set, false);
  }

  /** {@code point} lets {@code n - 1} hits pass, throws at the n-th, then never again (a crash at a later step). */
  public static Faults onHit(Point point, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n counts hits from 1, got " + n);
    }
    Faults faults = once(point);
    faults.passes.set(n - 1);
    return faults;
  }

  /** These points throw every time they are hit (for restart limits). */
  public static Faults always(Point... points) {
    return new Faults(points.length == 0 ? Set.of() : EnumSet.of(points[0], points), true);
  }

  /** Throws {@link InjectedFault} if {@code point} is armed. */
  public void hit(Point point) {
    if (armed.isEmpty()) {
      return;
    }
    if (!armed.contains(point) || passes.getAndUpdate(p -> Math.max(0, p - 1)) > 0) {
      return;
    }
    if (always || armed.remove(point)) {
      throw new InjectedFault(point);
    }
  }

  /** Whether any point is still armed. */
  public boolean armed() {
    return !armed.isEmpty();
  }
}
