package io.interpreter4j.cli.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextWrapTest {

  @Test
  void wrapsAtWordsWithinTheWidth() {
    assertEquals(List.of("the quick brown", "fox jumps over", "the lazy dog"),
        TextWrap.wrap("the quick brown fox jumps over the lazy dog", 15, "", ""));
  }

  @Test
  void indentsTheFirstAndTheFollowingLines() {
    assertEquals(List.of("  • one two three", "    four five six"),
        TextWrap.wrap("one two three four five six", 18, "  • ", "    "));
  }

  @Test
  void cutsWordsLongerThanALine() {
    List<String> rows = TextWrap.wrap("see https://example.com/a/very/long/path/indeed ok", 20, "", "");
    assertEquals(List.of("see", "https://example.com/", "a/very/long/path/ind", "eed ok"), rows);
  }

  @Test
  void anEmptyTextIsOneEmptyLine() {
    assertEquals(List.of(""), TextWrap.wrap("", 20, "", ""));
  }

  @Test
  void aStyleOpenAtABreakIsClosedAndReopened() {
    String bold = Theme.COLOR.bold("one two three four");
    List<String> rows = TextWrap.wrap(bold, 10, "", "> ");
    assertEquals(List.of("one two", "three four"), rows.stream().map(Ansi::strip).map(r -> r.replace("> ", ""))
        .toList());
    assertTrue(rows.get(0).endsWith(Ansi.RESET), rows.get(0));
    assertTrue(rows.get(1).startsWith("> \u001b[1m"), rows.get(1));
    assertTrue(rows.get(1).endsWith("\u001b[22m"), rows.get(1));
  }

  @Test
  void widthsCountColumnsNotChars() {
    assertEquals(4, Ansi.width("漢字"));
    assertEquals(2, Ansi.width("e\u0301e"));
    assertEquals(3, Ansi.width(Theme.COLOR.red("abc")));
    assertEquals(List.of("漢字漢字漢字", "漢字漢字"), TextWrap.hardWrap("漢字".repeat(5), 12, "", ""));
  }

  @Test
  void hardWrapKeepsItsGutterOnEveryRow() {
    List<String> rows = TextWrap.hardWrap("x".repeat(30), 14, "│ ", "┆ ");
    assertEquals(List.of("│ " + "x".repeat(12), "┆ " + "x".repeat(12), "┆ " + "x".repeat(6)), rows);
  }

  @Test
  void linesOfAMultiLineTextAreWrappedEachWithTheHangingIndent() {
    assertEquals(List.of("error: first", "  line", "  second"), TextWrap.wrap("error: first line\nsecond", 13, "", "  "));
  }
}
