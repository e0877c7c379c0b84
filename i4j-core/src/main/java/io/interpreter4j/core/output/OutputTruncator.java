package io.interpreter4j.core.output;

/**
 * Cuts text that is too long for the model to a head and a tail joined by an explicit marker, so the model
 * sees both how the output started and how it ended, and knows where the rest is.
 */
public final class OutputTruncator {

  private OutputTruncator() {}

  /**
   * The text itself when it has at most {@code max} characters, else its first {@code max/2} and last
   * {@code max - max/2} characters around {@link #marker}. Never splits a surrogate pair.
   *
   * @param pathForMarker where the full text is kept, named in the marker; null when it is not kept
   */
  public static String truncate(String text, int max, String pathForMarker) {
    if (text.length() <= max) {
      return text;
    }
    int headLength = headLength(max);
    return join(text.substring(0, headLength), text.length(), pathForMarker,
        text.substring(text.length() - (max - headLength)));
  }

  /** The line that stands for the characters left out; it names the total so the model can judge the loss. */
  public static String marker(long totalChars, String pathForMarker) {
    String where = pathForMarker == null ? "" : "; the full output is in " + pathForMarker;
    return "\n... [output truncated: " + totalChars + " characters in total" + where + "] ...\n";
  }

  static int headLength(int max) {
    return Math.max(0, max) / 2;
  }

  /** Head + marker + tail, dropping half surrogate pairs left at either cut. */
  static String join(String head, long totalChars, String pathForMarker, String tail) {
    if (!head.isEmpty() && Character.isHighSurrogate(head.charAt(head.length() - 1))) {
      head = head.substring(0, head.length() - 1);
    }
    if (!tail.isEmpty() && Character.isLowSurrogate(tail.charAt(0))) {
      tail = tail.substring(1);
    }
    return head + marker(totalChars, pathForMarker) + tail;
  }
}
