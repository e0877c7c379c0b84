package io.interpreter4j.core.safety.code;

import java.util.function.Supplier;

/**
 * How deep an evaluator has followed names and nested expressions of one program: past {@link #MAX} levels it gives
 * up (the value stays unknown), so chains of assignments and cycles end.
 */
public final class EvalDepth {

  /** The levels an evaluator may follow. */
  public static final int MAX = 12;

  private int level;

  /** Whether the evaluation has gone past the limit. */
  public boolean exceeded() {
    return level > MAX;
  }

  /** Whether the evaluation is still short of the limit. */
  public boolean belowLimit() {
    return level < MAX;
  }

  /** {@code step}'s answer, computed one level deeper. */
  public <T> T deeper(Supplier<T> step) {
    level++;
    try {
      return step.get();
    } finally {
      level--;
    }
  }
}
