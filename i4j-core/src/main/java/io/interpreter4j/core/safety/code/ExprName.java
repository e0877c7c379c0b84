package io.interpreter4j.core.safety.code;

import java.util.List;

/** A short name for an expression whose value is unknown, built of its names: {@code os.path.join(a, b)} reads "os_path_join_a_b". */
public final class ExprName {

  private ExprName() {}

  /**
   * The names of tokens [from, to) joined by "_", about 24 characters at most, or "expr" when there are none. With
   * {@code wordCharsOnly}, only ASCII letters, digits and "_" of each name are kept (names of some languages hold
   * {@code $}, {@code ?} or {@code .}).
   */
  public static String of(List<? extends CodeToken> toks, int from, int to, boolean wordCharsOnly) {
    StringBuilder sb = new StringBuilder();
    for (int j = from; j < to && j < toks.size() && sb.length() < 24; j++) {
      CodeToken t = toks.get(j);
      if (t.isName()) {
        sb.append(sb.length() == 0 ? "" : "_").append(wordCharsOnly ? t.text().replaceAll("[^A-Za-z0-9_]", "") : t.text());
      }
    }
    return sb.length() == 0 ? "expr" : sb.toString();
  }
}
