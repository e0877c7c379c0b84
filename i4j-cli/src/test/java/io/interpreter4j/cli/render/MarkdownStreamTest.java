package io.interpreter4j.cli.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownStreamTest {
  private static final String ANSWER = "Let me **check**.\n\n```python\nimport os\nprint(os.getcwd())\n```\n"
      + "And a list:\n- one\n- two";

  private static List<String> render(String text, int chunk) {
    MarkdownStream s = new MarkdownStream(Theme.COLOR);
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < text.length(); i += chunk) {
      rows.addAll(s.feed(text.substring(i, Math.min(text.length(), i + chunk)), 30));
    }
    rows.addAll(s.finish(30));
    return rows;
  }

  @Test
  void theRowsDoNotDependOnHowTheTextWasCut() {
    List<String> whole = render(ANSWER, ANSWER.length());
    for (int chunk : new int[] {1, 2, 3, 7, 13}) {
      assertEquals(whole, render(ANSWER, chunk), "chunks of " + chunk);
    }
  }

  @Test
  void codeIsFramedWithItsLanguageAndNumber() {
    List<String> rows = render(ANSWER, 5).stream().map(Ansi::strip).toList();
    assertEquals(List.of(
        "Let me check.",
        "",
        "╭─ python · block 1 ─────────",
        "│ import os",
        "│ print(os.getcwd())",
        "╰────────────────────────────",
        "And a list:",
        "  • one",
        "  • two"), rows);
  }

  @Test
  void thePartialLineIsPreviewedRawUntilItsNewline() {
    MarkdownStream s = new MarkdownStream(Theme.NONE);
    assertEquals(List.of(), s.feed("Hello **wor", 30));
    assertEquals("Hello **wor", s.preview());
    assertEquals(List.of("Hello world!"), s.feed("ld**!\n```bash\nls -l", 30).subList(0, 1));
    assertEquals("│ ls -l", s.preview());
    assertTrue(s.inCode());
    assertEquals(List.of("│ ls -l", "╰────────────────────────────"), s.finish(30));
    assertEquals("ls -l", s.lastFrameCode());
  }

  @Test
  void nonRunnableFencesAreFramedWithoutANumberAndKeepNesting() {
    MarkdownStream s = new MarkdownStream(Theme.NONE);
    s.nextBlockIndex(4);
    List<String> rows = s.feed("````text\n```python\nx\n```\n````\n```sh\ny\n```\n", 30);
    assertTrue(rows.get(0).startsWith("╭─ text ─"), rows.get(0));
    assertEquals("│ ```python", rows.get(1));
    assertEquals("│ ```", rows.get(3));
    assertTrue(rows.get(5).startsWith("╭─ sh · block 4 ─"), rows.get(5));
  }

  @Test
  void longCodeLinesWrapWithAContinuationGutter() {
    MarkdownStream s = new MarkdownStream(Theme.NONE);
    List<String> rows = s.feed("```\n" + "x".repeat(40) + "\n", 20);
    assertEquals(List.of("╭─ code · block 1 ───", "│ " + "x".repeat(18), "┆ " + "x".repeat(18), "┆ xxxx"), rows,
        "an untagged fence runs in the default language");
  }
}
