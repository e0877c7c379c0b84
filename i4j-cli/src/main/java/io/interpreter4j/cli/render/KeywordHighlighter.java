package io.interpreter4j.cli.render;

/**
 * A highlighter that walks a line left to right: first the language's own markup (comments, strings, ...), then
 * number literals and words, which it colours from its lists; other characters pass as they are.
 */
abstract class KeywordHighlighter extends Highlighter {

  KeywordHighlighter(Theme theme) {
    super(theme);
  }

  /** Where this line's scan starts: past what a construct still open from the last line covers (appended). */
  abstract int resume(String line, StringBuilder out);

  /** Appends the construct starting at {@code i} (comment, string, ...) coloured and returns its end, or -1. */
  abstract int markup(String line, int i, StringBuilder out);

  /** The word starting at {@code i} of the line, coloured. */
  abstract String word(String line, int i, String word);

  /** A character that is neither markup, number nor word is about to pass. */
  void other(char c) {
  }

  @Override
  public final String line(String line) {
    StringBuilder out = new StringBuilder();
    int i = resume(line, out);
    while (i < line.length()) {
      char c = line.charAt(i);
      int end = markup(line, i, out);
      if (end >= 0) {
        i = end;
        continue;
      }
      if (Character.isDigit(c) && (i == 0 || !isIdentPart(line.charAt(i - 1)))) {
        int j = numberEnd(line, i);
        out.append(theme.number(line.substring(i, j)));
        i = j;
        continue;
      }
      if (isIdentStart(c)) {
        int j = identEnd(line, i);
        out.append(word(line, i, line.substring(i, j)));
        i = j;
        continue;
      }
      other(c);
      out.append(c);
      i++;
    }
    return out.toString();
  }
}
