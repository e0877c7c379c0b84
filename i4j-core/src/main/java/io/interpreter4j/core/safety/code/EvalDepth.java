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

  /** An evaluation of the tokens [from, to) of a program. */
  @FunctionalInterface
  public interface RangeEvaluation<T> {
    T of(int from, int to);
  }

  /** The evaluation of tokens [from, to) one level deeper; null for an empty range or past the limit. */
  public <T> T deeperIn(int from, int to, RangeEvaluation<T> evaluation) {
    if (from >= to || exceeded()) {
      return null;
    }
    return deeper(() -> evaluation.of(from, to));
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
