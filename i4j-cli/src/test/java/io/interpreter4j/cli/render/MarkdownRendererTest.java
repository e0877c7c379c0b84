package io.interpreter4j.cli.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownRendererTest {
  private static final Theme T = Theme.COLOR;

  private static List<String> plain(String... lines) {
    MarkdownRenderer r = new MarkdownRenderer(T);
    List<String> out = new java.util.ArrayList<>();
    for (String line : lines) {
      r.render(line, 40).forEach(row -> out.add(Ansi.strip(row)));
    }
    return out;
  }

  private static String inline(String text) {
    return new MarkdownRenderer(T).inline(text);
  }

  @Test
  void headingsLoseTheirMarksAndAreStyled() {
    assertEquals(List.of("Results"), plain("## Results ##"));
    assertEquals(List.of(T.heading(1, "Title")), new MarkdownRenderer(T).render("# Title", 40));
    assertEquals(List.of("#hashtag"), plain("#hashtag"));
  }

  @Test
  void emphasisCodeAndLinks() {
    assertEquals("a " + T.bold("bold") + " and " + T.italic("it") + " and " + T.code("x = 1"),
        inline("a **bold** and *it* and `x = 1`"));
    assertEquals(T.link("docs") + " " + T.dim("(https://x.io)"), inline("[docs](https://x.io)"));
    assertEquals(T.link("https://x.io"), inline("<https://x.io>"));
    assertEquals(T.strike("old"), inline("~~old~~"));
    assertEquals(T.bold("a " + T.code("b") + " c"), inline("**a `b` c**"));
  }

  @Test
  void underscoresInsideWordsAndLoneStarsStayLiteral() {
    assertEquals("snake_case_name and 2 * 3 * 4", inline("snake_case_name and 2 * 3 * 4"));
    assertEquals("*not closed", inline("*not closed"));
    assertEquals("`unclosed", inline("`unclosed"));
    assertEquals("*literal*", inline("\\*literal\\*"));
  }

  @Test
  void listsGetBulletsAndHangingIndents() {
    assertEquals(List.of("  • first item that is long enough to", "    wrap"),
        plain("- first item that is long enough to wrap"));
    assertEquals(List.of("    ◦ nested"), plain("  * nested"));
    assertEquals(List.of("  2. second"), plain("2. second"));
    assertEquals(List.of("  ☐ todo", "  ☑ done"), plain("- [ ] todo", "- [x] done"));
  }

  @Test
  void quotesAndRules() {
    assertEquals(List.of("│ quoted text"), plain("> quoted text"));
    assertEquals(List.of("─".repeat(39)), plain("---"));
  }

  @Test
  void tablesDegradeToSeparatedCells() {
    assertEquals(List.of("name │ size", "─────┼─────", "a.py │ 12"),
        plain("| name | size |", "|------|-----:|", "| a.py | 12 |"));
    assertEquals(List.of("a", "b | `c|d`"), MarkdownRenderer.cells("| a | b \\| `c|d` |").stream()
        .map(String::strip).toList());
  }

  @Test
  void paragraphsWrapToTheWidth() {
    assertEquals(List.of("one two three four five six seven eight", "nine ten"),
        plain("one two three four five six seven eight nine ten"));
  }
}
