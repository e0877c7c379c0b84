package io.interpreter4j.core.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FenceScannerTest {

  private static CodeBlock block(int index, String language, String info, String code) {
    return new CodeBlock(index, language, info, code, true, false);
  }

  private static CodeBlock unterminated(int index, String language, String info, String code) {
    return new CodeBlock(index, language, info, code, true, true);
  }

  /** name, input, expected runnable blocks, expected concatenated Text. */
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("prose around a block",
            "Hi\n```python\nprint(1)\n```\nBye\n",
            List.of(block(1, "python", "python", "print(1)")), "Hi\nBye\n"),
        Arguments.of("tilde fence",
            "~~~bash\nls -la\n~~~\n",
            List.of(block(1, "bash", "bash", "ls -la")), ""),
        Arguments.of("four backticks wrap a triple-backtick line",
            "````python\nx = '''\n```\n'''\n````\n",
            List.of(block(1, "python", "python", "x = '''\n```\n'''")), ""),
        Arguments.of("indented fence removes up to its indentation",
            "  ```py\n  a = 1\n    b = 2\n c\n  ```\n",
            List.of(block(1, "python", "py", "a = 1\n  b = 2\nc")), ""),
        Arguments.of("three-space indent with a longer unindented close",
            "   ~~~~ python\n   x\n~~~~~\n",
            List.of(block(1, "python", "python", "x")), ""),
        Arguments.of("four-space indent is not a fence",
            "    ```python\n    print(1)\n    ```\n",
            List.of(), "    ```python\n    print(1)\n    ```\n"),
        Arguments.of("info string with attributes",
            "```python title=\"x.py\"\nprint(2)\n```\n",
            List.of(block(1, "python", "python title=\"x.py\"", "print(2)")), ""),
        Arguments.of("uppercase tags",
            "```PYTHON\nx\n```\n```Bash\ny\n```\n",
            List.of(block(1, "python", "PYTHON", "x"), block(2, "bash", "Bash", "y")), ""),
        Arguments.of("python3, shell and zsh aliases",
            "```python3\na\n```\n```shell\nb\n```\n```zsh\nc\n```\n",
            List.of(block(1, "python", "python3", "a"), block(2, "bash", "shell", "b"), block(3, "bash", "zsh", "c")), ""),
        Arguments.of("CRLF line endings",
            "a\r\n```sh\r\necho hi\r\nls\r\n```\r\nb\r\n",
            List.of(block(1, "bash", "sh", "echo hi\nls")), "a\r\nb\r\n"),
        Arguments.of("closing fence longer than opening",
            "```python\nx\n`````\nafter\n",
            List.of(block(1, "python", "python", "x")), "after\n"),
        Arguments.of("closing fence with trailing blanks",
            "```python\nx\n```  \t\nafter",
            List.of(block(1, "python", "python", "x")), "after"),
        Arguments.of("shorter fence, other character, info or 4-space indent do not close",
            "````python\n```\n~~~~\n````x\n    ````\n````\n",
            List.of(block(1, "python", "python", "```\n~~~~\n````x\n    ````")), ""),
        Arguments.of("backticks in a backtick info string: not a fence",
            "Use ```py`x``` inline\nok\n",
            List.of(), "Use ```py`x``` inline\nok\n"),
        Arguments.of("backticks in a backtick info string at line start: not a fence",
            "```py`x`\nok\n",
            List.of(), "```py`x`\nok\n"),
        Arguments.of("backticks allowed in a tilde info string",
            "~~~python `x`\nprint(1)\n~~~\n",
            List.of(block(1, "python", "python `x`", "print(1)")), ""),
        Arguments.of("two blocks in one message",
            "A\n```python\n1\n```\nB\n```bash\n2\n```\nC",
            List.of(block(1, "python", "python", "1"), block(2, "bash", "bash", "2")), "A\nB\nC"),
        Arguments.of("text-only fence hides an inner python fence",
            "```text\n```python\nnope\n```\nafter\n",
            List.of(), "```text\n```python\nnope\n```\nafter\n"),
        Arguments.of("longer output fence wraps a complete python fence",
            "````output\n```python\nx\n```\n````\n```python\ny\n```\n",
            List.of(block(1, "python", "python", "y")), "````output\n```python\nx\n```\n````\n"),
        Arguments.of("non-runnable fence left open at the end",
            "```json\n{\"a\": 1}\n```py",
            List.of(), "```json\n{\"a\": 1}\n```py"),
        Arguments.of("unterminated at end keeps the partial line",
            "go\n```python\nprint(1)\nprint(2",
            List.of(unterminated(1, "python", "python", "print(1)\nprint(2")), "go\n"),
        Arguments.of("unterminated right after a complete line",
            "```bash\necho 1\n",
            List.of(unterminated(1, "bash", "bash", "echo 1")), ""),
        Arguments.of("empty block",
            "```python\n```\n",
            List.of(block(1, "python", "python", "")), ""),
        Arguments.of("block with one blank line",
            "```python\n\n```\n",
            List.of(block(1, "python", "python", "")), ""),
        Arguments.of("fence at the very start and end without newline",
            "```bash\necho 1\n```",
            List.of(block(1, "bash", "bash", "echo 1")), ""),
        Arguments.of("opening fence as the very last line",
            "see:\n```python",
            List.of(unterminated(1, "python", "python", "")), "see:\n"),
        Arguments.of("untagged fence runs as the default language",
            "```\nx = 1\n```\n",
            List.of(block(1, "python", "", "x = 1")), ""),
        Arguments.of("two backticks are prose",
            "``\n``x``\n",
            List.of(), "``\n``x``\n"),
        Arguments.of("backticks mid-line are prose",
            "use `x` and ``` y\n",
            List.of(), "use `x` and ``` y\n"),
        Arguments.of("non-BMP characters in prose and code",
            "Hi \uD83D\uDE00\n```python\nprint('\uD83D\uDE00')\n```\n\uD83D\uDE00",
            List.of(block(1, "python", "python", "print('\uD83D\uDE00')")), "Hi \uD83D\uDE00\n\uD83D\uDE00"),
        Arguments.of("long lines of prose, code and passthrough",
            LONG + "\n```python\nx = '" + LONG + "'\n```\n```text\n" + LONG + "\n```\n" + LONG,
            List.of(block(1, "python", "python", "x = '" + LONG + "'")),
            LONG + "\n```text\n" + LONG + "\n```\n" + LONG),
        Arguments.of("a tilde block holds backtick fences",
            "~~~python\n```\nx\n```bash\n~~~\n",
            List.of(block(1, "python", "python", "```\nx\n```bash")), ""),
        Arguments.of("a list item's indented fence with a longer fence inside",
            "- step:\n  ````bash\n  ```\n  echo 1\n  ```\n  ````\n- done\n",
            List.of(block(1, "bash", "bash", "```\necho 1\n```")), "- step:\n- done\n"),
        Arguments.of("CRLF in a tilde block and a passthrough block",
            "~~~bash\r\necho 1\r\n~~~\r\n```text\r\nout\r\n```\r\nend",
            List.of(block(1, "bash", "bash", "echo 1")), "```text\r\nout\r\n```\r\nend"),
        Arguments.of("prose lines starting with spaces, backticks or tildes",
            " a\n  `b`\n~c\n``d\n   e\n    ```\n",
            List.of(), " a\n  `b`\n~c\n``d\n   e\n    ```\n"));
  }

  private static final String LONG = "0123456789 abcdefghijklmnopqrstuvwxyz `x` ~y~ ".repeat(8);

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void scansWholeInput(String name, String input, List<CodeBlock> blocks, String text) {
    List<Segment> segments = scan(List.of(input));
    assertEquals(blocks, blocksOf(segments));
    assertEquals(text, textOf(segments));
    assertWellFormed(segments);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sameResultAtEverySplitPoint(String name, String input, List<CodeBlock> blocks, String text) {
    List<Segment> expected = normalize(scan(List.of(input)));
    for (int i = 0; i <= input.length(); i++) {
      List<Segment> split = scan(List.of(input.substring(0, i), input.substring(i)));
      assertEquals(expected, normalize(split), "split at " + i);
    }
    List<String> chars = new ArrayList<>();
    for (int i = 0; i < input.length(); i++) {
      chars.add(input.substring(i, i + 1));
    }
    List<Segment> oneByOne = scan(chars);
    assertEquals(expected, normalize(oneByOne), "one char at a time");
    assertEquals(blocks, blocksOf(oneByOne));
    assertEquals(text, textOf(oneByOne));
    assertWellFormed(oneByOne);
  }

  /** As a provider streams: pieces of one width (the benchmark's is 4), every width, so every fast path meets every line. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sameResultInPiecesOfEveryWidth(String name, String input, List<CodeBlock> blocks, String text) {
    List<Segment> expected = normalize(scan(List.of(input)));
    for (int width = 1; width <= input.length(); width++) {
      List<String> pieces = new ArrayList<>();
      for (int i = 0; i < input.length(); i += width) {
        pieces.add(input.substring(i, Math.min(input.length(), i + width)));
      }
      List<Segment> segments = scan(pieces);
      assertEquals(expected, normalize(segments), "pieces of " + width);
      assertWellFormed(segments);
    }
  }

  /** Three pieces cut at every two points: a fence line split across chunks at every offset, with a chunk inside it. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void sameResultInThreePiecesAtEveryTwoPoints(String name, String input, List<CodeBlock> blocks, String text) {
    List<Segment> expected = normalize(scan(List.of(input)));
    int step = input.length() > 200 ? 7 : 1; // the long-line case: every 7th point keeps it under a second
    for (int i = 0; i <= input.length(); i += step) {
      for (int j = i; j <= input.length(); j += step) {
        List<Segment> split = scan(List.of(input.substring(0, i), input.substring(i, j), input.substring(j)));
        assertEquals(expected, normalize(split), "split at " + i + " and " + j);
      }
    }
  }

  @Test
  void codeShortOfALineEndIsHeldAndComesOutAsOneLine() {
    FenceScanner scanner = new FenceScanner("python", 1);
    assertEquals(List.of(new Segment.BlockOpen(1, "python", "python", true)), scanner.feed("```python\n"));
    assertEquals(List.of(), scanner.feed("x ="));
    assertEquals(List.of(), scanner.feed(" 1"));
    assertEquals(List.of(), scanner.feed("\r"));
    assertEquals(List.of(new Segment.Code(1, "x = 1\n"), new Segment.Code(1, "y\n")), scanner.feed("\ny\n``"));
    assertEquals(List.of(), scanner.feed("`"));
    assertEquals(List.of(new Segment.BlockClosed(block(1, "python", "python", "x = 1\ny"))), scanner.feed("\n"));
    assertEquals(List.of(), scanner.finish());
  }

  @Test
  void keepsAHighSurrogateAtTheEndOfAChunkOfProseUntilItsPair() {
    FenceScanner scanner = new FenceScanner("python", 1);
    assertEquals(List.of(new Segment.Text("ab")), scanner.feed("ab"));
    assertEquals(List.of(new Segment.Text("c")), scanner.feed("c\uD83D"));
    assertEquals(List.of(new Segment.Text("\uD83D\uDE00d")), scanner.feed("\uDE00d"));
    assertEquals(List.of(new Segment.Text("e")), scanner.feed("e"));
    assertEquals(List.of(), scanner.finish());
  }

  @Test
  void streamsProseEarlyAndHoldsOnlyPossibleFences() {
    FenceScanner scanner = new FenceScanner("python", 1);
    assertEquals(List.of(new Segment.Text("Hel")), scanner.feed("Hel"));
    assertEquals(List.of(new Segment.Text("lo\n")), scanner.feed("lo\n``"));
    assertEquals(List.of(), scanner.feed("`py"));
    assertEquals(List.of(new Segment.BlockOpen(1, "python", "python", true)), scanner.feed("thon\n"));
    assertEquals(List.of(), scanner.feed("print(1)"));
    assertEquals(List.of(new Segment.Code(1, "print(1)\n")), scanner.feed("\n"));
    assertEquals(List.of(), scanner.feed("```"), "could still be ```` or ```x");
    assertEquals(List.of(new Segment.BlockClosed(block(1, "python", "python", "print(1)"))), scanner.feed("\n"));
    assertEquals(List.of(new Segment.Text("  x")), scanner.feed("  x"));
    assertEquals(List.of(new Segment.Text("\n")), scanner.feed("\n"));
    assertEquals(List.of(), scanner.finish());
  }

  @Test
  void passesAChunkThatIsAllTextOnAsItCame() {
    FenceScanner scanner = new FenceScanner("python", 1);
    String acrossLines = "ne.\nNex";
    assertEquals(List.of(new Segment.Text("Li")), scanner.feed("Li"));
    List<Segment> segments = scanner.feed(acrossLines);
    assertEquals(List.of(new Segment.Text(acrossLines)), segments);
    assertSame(acrossLines, ((Segment.Text) segments.get(0)).text(), "the chunk itself, not a copy");
    String heldBack = "t\n ";
    assertEquals(List.of(new Segment.Text("t\n")), scanner.feed(heldBack), "a space starting a line is held");
    assertEquals(List.of(new Segment.Text(" a\n")), scanner.feed("a\n"));
    assertEquals(List.of(), scanner.finish());
  }

  @Test
  void streamsNonRunnableFenceContentEarly() {
    FenceScanner scanner = new FenceScanner("python", 1);
    assertEquals(List.of(new Segment.Text("```text\nhel")), scanner.feed("```text\nhel"));
    assertEquals(List.of(new Segment.Text("\n")), scanner.feed("\n``"));
    assertEquals(List.of(new Segment.Text("```python")), scanner.feed("`python"));
    assertEquals(List.of(new Segment.Text("\n```\n")), scanner.feed("\n```\n"));
    assertEquals(List.of(), scanner.finish());
  }

  @Test
  void closingFenceIsConfirmedByFinish() {
    FenceScanner scanner = new FenceScanner("bash", 1);
    scanner.feed("```\nls\n```");
    assertEquals(List.of(new Segment.BlockClosed(block(1, "bash", "", "ls"))), scanner.finish());
  }

  @Test
  void indexesCountOnlyRunnableBlocksFromTheFirstIndex() {
    FenceScanner scanner = new FenceScanner("python", 7);
    List<Segment> segments = new ArrayList<>(scanner.feed("```json\n{}\n```\n```python\na\n```\n```bash\nb\n```\n"));
    segments.addAll(scanner.finish());
    assertEquals(List.of(block(7, "python", "python", "a"), block(8, "bash", "bash", "b")), blocksOf(segments));
    assertEquals(9, scanner.nextBlockIndex());
  }

  @Test
  void refusesUseAfterFinish() {
    FenceScanner scanner = new FenceScanner("python", 1);
    scanner.finish();
    assertThrows(IllegalStateException.class, () -> scanner.feed("x"));
    assertThrows(IllegalStateException.class, scanner::finish);
  }

  private static List<Segment> scan(List<String> chunks) {
    FenceScanner scanner = new FenceScanner("python", 1);
    List<Segment> segments = new ArrayList<>();
    for (String chunk : chunks) {
      segments.addAll(scanner.feed(chunk));
    }
    segments.addAll(scanner.finish());
    return segments;
  }

  private static List<CodeBlock> blocksOf(List<Segment> segments) {
    return segments.stream()
        .filter(s -> s instanceof Segment.BlockClosed)
        .map(s -> ((Segment.BlockClosed) s).block())
        .toList();
  }

  private static String textOf(List<Segment> segments) {
    StringBuilder sb = new StringBuilder();
    for (Segment s : segments) {
      if (s instanceof Segment.Text t) {
        sb.append(t.text());
      }
    }
    return sb.toString();
  }

  /** Adjacent Text segments merged: how a chunking shows up is not part of the result. */
  private static List<Segment> normalize(List<Segment> segments) {
    List<Segment> result = new ArrayList<>();
    for (Segment s : segments) {
      int last = result.size() - 1;
      if (s instanceof Segment.Text t && last >= 0 && result.get(last) instanceof Segment.Text prev) {
        result.set(last, new Segment.Text(prev.text() + t.text()));
      } else {
        result.add(s);
      }
    }
    return result;
  }

  /** BlockOpen, whole Code lines that add up to the code, BlockClosed; no empty Text. */
  private static void assertWellFormed(List<Segment> segments) {
    Integer open = null;
    StringBuilder code = new StringBuilder();
    for (Segment s : segments) {
      if (s instanceof Segment.Text t) {
        assertTrue(open == null, "text inside a block");
        assertFalse(t.text().isEmpty(), "empty text");
      } else if (s instanceof Segment.BlockOpen o) {
        assertTrue(open == null, "nested open");
        assertTrue(o.runnable());
        open = o.index();
        code.setLength(0);
      } else if (s instanceof Segment.Code c) {
        assertEquals(open, c.index());
        assertTrue(c.text().endsWith("\n"));
        assertEquals(c.text().length() - 1, c.text().indexOf('\n'), "one line per Code");
        code.append(c.text());
      } else if (s instanceof Segment.BlockClosed b) {
        assertEquals(open, b.block().index());
        String expected = code.length() == 0 ? "" : code.substring(0, code.length() - 1);
        assertEquals(expected, b.block().code());
        open = null;
      }
    }
    assertTrue(open == null, "block left open");
  }
}
