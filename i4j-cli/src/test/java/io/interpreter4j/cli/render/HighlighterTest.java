package io.interpreter4j.cli.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HighlighterTest {
  private static final Theme T = Theme.COLOR;

  private static List<String> highlight(String language, String... lines) {
    Highlighter h = Highlighter.of(language, T);
    return java.util.Arrays.stream(lines).map(h::line).toList();
  }

  @Test
  void colouringNeverChangesTheText() {
    String[] python = {"import os, sys  # tools", "def f(x=1.5e3, *args):", "    '''doc", "    still doc'''",
        "    return f\"{x!r}\" + r'\\d' + b\"\\\"\"", "@dataclass(frozen=True)", "class A(Base): pass",
        "print(len(range(0x1F)), None, self)", "x = [i for i in 'ab#c' if i]"};
    String[] bash = {"#!/bin/bash", "for f in *.txt; do echo \"$f: ${#f} $(wc -l < \"$f\")\"; done",
        "export PATH=\"$HOME/bin:$PATH\" # comment", "cat <<'EOF' > out.txt", "not $code here", "EOF",
        "ls -la --color=never 2>/dev/null | grep -v '^d' || true", "echo 'open", "still open' && x=1 y=2 cmd"};
    assertUnchanged("python", python);
    assertUnchanged("bash", bash);
    assertUnchanged("javascript", "const x = `t${1}`; // c", "if (a == \"b\") return 0x10;");
  }

  private static void assertUnchanged(String language, String... lines) {
    List<String> out = highlight(language, lines);
    for (int i = 0; i < lines.length; i++) {
      assertEquals(lines[i], Ansi.strip(out.get(i)), language + " line " + (i + 1));
    }
  }

  @Test
  void pythonKeywordsStringsCommentsNumbersAndBuiltins() {
    String line = highlight("python", "def total(xs): return sum(xs) + 42  # sum it").get(0);
    assertTrue(line.startsWith(T.keyword("def") + " " + T.function("total")), line);
    assertTrue(line.contains(T.keyword("return")), line);
    assertTrue(line.contains(T.builtin("sum")), line);
    assertTrue(line.contains(T.number("42")), line);
    assertTrue(line.endsWith(T.comment("# sum it")), line);
    assertEquals("s = " + T.string("'#not a comment'"), highlight("python", "s = '#not a comment'").get(0));
  }

  @Test
  void pythonTripleQuotedStringsSpanLines() {
    List<String> out = highlight("python", "doc = \"\"\"first", "def not_code():", "end\"\"\" + x");
    assertEquals(T.string("def not_code():"), out.get(1));
    assertTrue(out.get(2).startsWith(T.string("end\"\"\"")), out.get(2));
  }

  @Test
  void bashCommandsVariablesStringsAndComments() {
    String line = highlight("bash", "echo \"hi $USER\" | grep -i hi # done").get(0);
    assertTrue(line.startsWith(T.builtin("echo")), line);
    assertTrue(line.contains(T.string("\"hi ") + T.variable("$USER") + T.string("\"")), line);
    assertTrue(line.contains(T.bold("grep")), line);
    assertTrue(line.contains(T.option("-i")), line);
    assertTrue(line.endsWith(T.comment("# done")), line);
    assertTrue(highlight("bash", "if [ -f x ]; then ls; fi").get(0).startsWith(T.keyword("if")));
    assertEquals("echo a#b", Ansi.strip(highlight("bash", "echo a#b").get(0)));
    assertTrue(!highlight("bash", "echo a#b").get(0).contains(T.comment("#b")), "# inside a word is no comment");
  }

  @Test
  void bashHeredocsAreStrings() {
    List<String> out = highlight("bash", "cat <<EOF", "$HOME is not expanded here", "EOF", "ls");
    assertEquals(T.string("$HOME is not expanded here"), out.get(1));
    assertEquals(T.bold("ls"), out.get(3));
  }

  @Test
  void textBlocksStayPlain() {
    assertEquals("def x: 'y'", highlight("text", "def x: 'y'").get(0));
    assertEquals("def x: 'y'", highlight("output", "def x: 'y'").get(0));
  }
}
