package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerBlockDialectTest {

  @Test
  void theFilePlaceholderBecomesTheBlocksFileAnywhereInAWord() {
    var dialect = new PerBlockDialect("lua", List.of("lua", "-e", "x=1", "--script={file}"), "lua");
    assertEquals(List.of("lua", "-e", "x=1", "--script=/s/code/block-3.lua"),
        dialect.commandFor("/s/code/block-3.lua"));
    var appended = new PerBlockDialect("tcl", List.of("tclsh"), "tcl");
    assertEquals(List.of("tclsh", "/f.tcl"), appended.commandFor("/f.tcl"));
  }

  @Test
  void theCommandLineQuotesEveryWordForTheRunner() {
    var dialect = new PerBlockDialect("lua", List.of("lua", "{file}"), "lua");
    String line = dialect.command("m4rk3r", Path.of("/tmp/it's here/block-1.lua"));
    assertEquals("m4rk3r 'lua' '/tmp/it'\\''s here/block-1.lua'\n", line);
    assertThrows(IllegalArgumentException.class, () -> PerBlockDialect.quoted("two\nlines"));
  }

  @Test
  void codeGoesToTheCodeFolderAndHtmlToItsOwn() {
    var dialect = new PerBlockDialect("lua", List.of("lua"), "lua");
    assertEquals(Path.of("/s/code/block-2.lua"), dialect.codeFile(Path.of("/s"), 2));
    assertEquals(Path.of("/s/html/block-2.html"), PerBlockDialect.html().codeFile(Path.of("/s"), 2));
    assertTrue(!dialect.keepsState());
    assertThrows(IllegalArgumentException.class, () -> new PerBlockDialect("x", List.of(), "x"));
  }
}
