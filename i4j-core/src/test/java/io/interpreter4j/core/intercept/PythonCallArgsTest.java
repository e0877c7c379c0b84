package io.interpreter4j.core.intercept;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PythonCallArgsTest {

  private static PythonCallArgs parsed(String args) {
    Optional<PythonCallArgs> result = PythonCallArgs.parse(args);
    assertTrue(result.isPresent(), () -> "not parsed: " + args);
    return result.get();
  }

  private static String only(String literal) {
    return parsed(literal).positional().get(0);
  }

  @Test
  void positionalAndKeywordArguments() {
    PythonCallArgs a = parsed("\"python\", code='print(1)', lang = \"py\" ,");
    assertEquals(List.of("python"), a.positional());
    assertEquals(Map.of("code", "print(1)", "lang", "py"), a.named());
    assertEquals(new PythonCallArgs(List.of(), Map.of()), parsed("  "));
  }

  @Test
  void tripleQuotedStringsKeepQuotesAndNewlines() {
    assertEquals("echo \"a\"\necho 'b' )\n", only("'''echo \"a\"\necho 'b' )\n'''"));
    assertEquals("s = 'x'\nprint(s)", only("\"\"\"s = 'x'\nprint(s)\"\"\""));
    assertEquals("", only("''"));
  }

  @Test
  void escapesAreDecoded() {
    assertEquals("a\nb\tc\r\\'\"", only("'a\\nb\\tc\\r\\\\\\'\\\"'"));
    assertEquals("A\u00e9", only("\"\\x41\\u00e9\""));
    assertEquals("joined", only("'join\\\ned'"));
    assertEquals("\\xZZ \\q", only("'\\xZZ \\q'"));
  }

  @Test
  void prefixesAndRawStrings() {
    assertEquals("print('\\d')", only("r\"print('\\d')\""));
    assertEquals("\\n", only("R'\\n'"));
    assertEquals("x", only("f'x'"));
    assertEquals("y", only("b\"y\""));
    assertEquals("z", only("u'z'"));
  }

  @Test
  void anythingButStringLiteralsIsNoParse() {
    for (String args : List.of("1", "code=x", "\"a\" \"b\"", "'unclosed", "'one\nline'", "code=", "\"a\", 2",
        "'''never closed", "language=\"python\", code=f(1)")) {
      assertEquals(Optional.empty(), PythonCallArgs.parse(args), args);
    }
  }
}
