package io.interpreter4j.core.safety.code;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Answers of the recursive look-ups through a program's assignments (was this fetched, does this come from a
 * client), per key. A look-up that reaches itself again while it runs answers false, so cycles end.
 */
public final class Memo {

  private final Map<Long, Boolean> answers = new HashMap<>();

  /** The answer for {@code key}, computed once. */
  public boolean answer(long key, BooleanSupplier compute) {
    Boolean known = answers.get(key);
    if (known != null) {
      return known;
    }
    answers.put(key, false);
    boolean result = compute.getAsBoolean();
    answers.put(key, result);
    return result;
  }
}
