package io.interpreter4j.cli.render.inline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TerminalGraphicsTest {

  @Test
  void knownTerminalsAreRecognisedByWhatTheySet() {
    assertEquals(ImageProtocol.KITTY, TerminalGraphics.detect(Map.of("TERM", "xterm-kitty")));
    assertEquals(ImageProtocol.KITTY, TerminalGraphics.detect(Map.of("TERM", "xterm-256color", "KITTY_WINDOW_ID", "1")));
    assertEquals(ImageProtocol.KITTY, TerminalGraphics.detect(Map.of("TERM_PROGRAM", "ghostty")));
    assertEquals(ImageProtocol.ITERM2, TerminalGraphics.detect(Map.of("TERM_PROGRAM", "iTerm.app")));
    assertEquals(ImageProtocol.ITERM2, TerminalGraphics.detect(Map.of("LC_TERMINAL", "iTerm2")));
    assertEquals(ImageProtocol.ITERM2, TerminalGraphics.detect(Map.of("TERM_PROGRAM", "WezTerm")));
    assertEquals(ImageProtocol.SIXEL, TerminalGraphics.detect(Map.of("TERM", "foot")));
    assertEquals(ImageProtocol.SIXEL, TerminalGraphics.detect(Map.of("TERM", "mlterm")));
    assertEquals(ImageProtocol.SIXEL, TerminalGraphics.detect(Map.of("KONSOLE_VERSION", "230805")));
    assertNull(TerminalGraphics.detect(Map.of("KONSOLE_VERSION", "211200")));
    assertNull(TerminalGraphics.detect(Map.of("TERM", "xterm-256color")));
    assertNull(TerminalGraphics.detect(Map.of()));
    assertEquals(ImageProtocol.SIXEL, TerminalGraphics.detect(Map.of("TERM", "foot", "KITTY_WINDOW_ID", "", "TMUX", "")),
        "an empty variable counts as unset");
  }

  @Test
  void tmuxScreenAndDumbTerminalsGetNone() {
    assertNull(TerminalGraphics.detect(Map.of("TERM", "tmux-256color", "KITTY_WINDOW_ID", "1")));
    assertNull(TerminalGraphics.detect(Map.of("TERM", "xterm-kitty", "TMUX", "/tmp/tmux-1000/default,1,0")));
    assertNull(TerminalGraphics.detect(Map.of("TERM", "screen", "TERM_PROGRAM", "iTerm.app")));
    assertNull(TerminalGraphics.detect(Map.of("TERM", "dumb", "LC_TERMINAL", "iTerm2")));
  }

  @Test
  void theModeDecidesWithTheTerminalAndWhetherStdoutIsOne() {
    Map<String, String> kitty = Map.of("TERM", "xterm-kitty");
    Map<String, String> unknown = Map.of("TERM", "xterm-256color");
    assertEquals(ImageProtocol.KITTY, InlineImageMode.AUTO.protocol(true, kitty));
    assertNull(InlineImageMode.AUTO.protocol(false, kitty), "auto: never into a pipe or file");
    assertNull(InlineImageMode.AUTO.protocol(true, unknown));
    assertEquals(ImageProtocol.KITTY, InlineImageMode.ON.protocol(false, kitty));
    assertEquals(ImageProtocol.SIXEL, InlineImageMode.ON.protocol(false, unknown), "on: sixel when none is known");
    assertNull(InlineImageMode.OFF.protocol(true, kitty));
    assertEquals(InlineImageMode.ON, InlineImageMode.of(" On "));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> InlineImageMode.of("yes"));
    assertEquals("inline images must be on, off or auto, not 'yes'", bad.getMessage());
  }
}
