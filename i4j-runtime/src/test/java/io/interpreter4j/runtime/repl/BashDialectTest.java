package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the Java side writes to the bash driver: the prelude and each block's command (real shells: ReplWorkerTest). */
class BashDialectTest {

  private static final String MARKER = "0123456789abcdef0123456789abcdef";

  @Test
  void aBlockIsTheAliasLineAFixedHeaderAndTheCode() {
    assertEquals("__i4j_x\n" + MARKER + "000000006-echo 1", ReplDialect.BASH.inlineCommand(MARKER, 1, "echo 1"));
    // not ASCII: counted in UTF-8 bytes and flagged; NUL bytes left out (bash drops them uncounted)
    assertEquals("__i4j_x\n" + MARKER + "000000007becho \u00e9", ReplDialect.BASH.inlineCommand(MARKER, 2,
        "echo\0 \u00e9"));
    assertEquals("__i4j_x\n" + MARKER + "000000000-", ReplDialect.BASH.inlineCommand(MARKER, 3, ""));
  }

  @Test
  void theHeaderRefusesAWrongMarkerAndACodeTooLongForNineDigits() {
    var shortMarker = assertThrows(IllegalArgumentException.class, () -> ReplDialect.BASH.inlineCommand("abc", 1, "x"));
    assertTrue(shortMarker.getMessage().contains("32-character marker"), shortMarker.getMessage());
    var tooLong = assertThrows(IllegalArgumentException.class,
        () -> ReplDialect.BashHeader.of(MARKER, ReplDialect.MAX_CODE_BYTES + 1, true));
    assertTrue(tooLong.getMessage().contains("split it"), tooLong.getMessage());
    assertEquals(MARKER + "999999999-", ReplDialect.BashHeader.of(MARKER, ReplDialect.MAX_CODE_BYTES, true));
  }

  @Test
  void thePreludeIsOneBootstrapLineThenTheDriverWithoutComments() {
    String driver = ReplDialect.withoutComments(ReplDialect.resource("bash_driver.sh"));
    assertFalse(driver.lines().anyMatch(line -> line.isBlank() || line.startsWith("#") || line.startsWith(" ")),
        driver);
    assertTrue(driver.contains("__i4j_begin() {"), driver);
    String prelude = ReplDialect.BASH.prelude();
    String first = prelude.substring(0, prelude.indexOf('\n') + 1);
    assertEquals(first + driver, prelude);
    assertTrue(first.contains("read -r -N " + driver.length() + " -u 255"), first);
    assertTrue(first.length() < 300, "the line bash parses a byte per read(2): " + first.length());
    assertThrows(IllegalStateException.class, () -> ReplDialect.BashPrelude.bootstrapped("echo \u00e9\n"));
  }

  @Test
  void withoutCommentsKeepsCommandsAndTheirTrailingText() {
    assertEquals("a=1 # kept\nf() {\n: '  x'\n}\n",
        ReplDialect.withoutComments("# head\n\na=1 # kept\n  # indented comment\nf() {\n  : '  x'\n}\n"));
  }
}
