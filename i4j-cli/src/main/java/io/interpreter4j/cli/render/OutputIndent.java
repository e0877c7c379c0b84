package io.interpreter4j.cli.render;

import java.util.function.UnaryOperator;

/**
 * A block's live output as the terminal shows it: every line indented under the block, a lone {@code \r} kept (a
 * progress bar redraws its line, indent included), {@code \r\n} taken as one line end. Pure.
 */
final class OutputIndent {

  private OutputIndent() {}

  /**
   * @param atLineStart whether the cursor is at the start of a row (the first piece is then indented)
   * @param style       applied to each piece of text between line ends (stderr's colour)
   */
  static String indent(String text, boolean atLineStart, String indent, UnaryOperator<String> style) {
    StringBuilder sb = new StringBuilder();
    boolean lineStart = atLineStart;
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      boolean end = i == text.length();
      char c = end ? 0 : text.charAt(i);
      if (!end && c != '\n' && c != '\r') {
        continue;
      }
      String piece = text.substring(start, i);
      if (!piece.isEmpty()) {
        sb.append(lineStart ? indent : "").append(style.apply(piece));
        lineStart = false;
      }
      if (c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
        sb.append(c); // the \r of \r\n is dropped: its \n ends the line
        lineStart = true;
      }
      start = i + 1;
    }
    return sb.toString();
  }

  /** Whether the cursor is at the start of a row after {@code printed} (which may be empty). */
  static boolean endsLine(String printed, boolean before) {
    if (printed.isEmpty()) {
      return before;
    }
    char last = printed.charAt(printed.length() - 1);
    return last == '\n' || last == '\r';
  }
}
