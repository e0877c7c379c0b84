package io.interpreter4j.core.intercept;

/** Writing fenced blocks: an info string a fence can hold, and a fence that no line of the text can close. */
public final class Fences {

  private Fences() {}

  /** The language's first run of characters a fence's tag may hold (letters, digits, {@code + # . _ -}). */
  public static String infoTag(String language) {
    StringBuilder tag = new StringBuilder();
    for (char c : language.strip().toCharArray()) {
      if (Character.isLetterOrDigit(c) || "+#._-".indexOf(c) >= 0) {
        tag.append(c);
      } else if (tag.length() > 0) {
        break;
      }
    }
    return tag.toString();
  }

  /** Backticks, three or one more than the longest run of backticks in {@code text}. */
  public static String fenceFor(String text) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = text.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return "`".repeat(Math.max(3, longest + 1));
  }
}
