package io.interpreter4j.cli.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class OutputIndentTest {

  @Test
  void linesAreIndentedAndCarriageReturnsKeptButCrLfIsOneLineEnd() {
    assertEquals("  a\n  b\r  c\n", OutputIndent.indent("a\r\nb\rc\n", true, "  ", UnaryOperator.identity()));
    assertEquals("more\n  next", OutputIndent.indent("more\nnext", false, "  ", UnaryOperator.identity()),
        "a line already started is not indented again");
    assertEquals("  [x]\n", OutputIndent.indent("x\n", true, "  ", s -> "[" + s + "]"), "the style wraps the text only");
  }

  @Test
  void theCursorIsAtALineStartAfterALineEnd() {
    assertTrue(OutputIndent.endsLine("  a\n", false));
    assertTrue(OutputIndent.endsLine("  50%\r", false));
    assertFalse(OutputIndent.endsLine("  a", true));
    assertTrue(OutputIndent.endsLine("", true), "nothing printed: as before");
  }
}
