package io.interpreter4j.core.safety.code;

import java.util.ArrayList;
import java.util.List;

/** Bracket look-ups over a program's tokens, shared by the python and the script analyzers. */
public final class Brackets {

  private Brackets() {}

  /** Index of the bracket closing the one at {@code open}, or the last token when it is never closed. */
  public static int matching(List<? extends CodeToken> toks, int open) {
    int d = 0;
    for (int j = open; j < toks.size(); j++) {
      CodeToken t = toks.get(j);
      if (t.opens()) {
        d++;
      } else if (t.closes()) {
        d--;
        if (d == 0) {
          return j;
        }
      }
    }
    return toks.size() - 1;
  }

  /** Index of the bracket opening the one at {@code close}, or 0 when it is never opened. */
  public static int matchingBack(List<? extends CodeToken> toks, int close) {
    int d = 0;
    for (int j = close; j >= 0; j--) {
      CodeToken t = toks.get(j);
      if (t.closes()) {
        d++;
      } else if (t.opens()) {
        d--;
        if (d == 0) {
          return j;
        }
      }
    }
    return 0;
  }

  /** The non-empty comma-separated pieces of tokens [from, to) that sit outside any bracket, as [start, end) ranges. */
  public static List<int[]> pieces(List<? extends CodeToken> toks, int from, int to) {
    List<int[]> out = new ArrayList<>();
    int start = from;
    int d = 0;
    for (int j = from; j <= to; j++) {
      CodeToken t = j < to ? toks.get(j) : null;
      if (t != null && t.opens()) {
        d++;
      } else if (t != null && t.closes()) {
        d--;
      }
      if (j == to || (d == 0 && t.is(","))) {
        if (j > start) {
          out.add(new int[] {start, j});
        }
        start = j + 1;
      }
    }
    return out;
  }
}
