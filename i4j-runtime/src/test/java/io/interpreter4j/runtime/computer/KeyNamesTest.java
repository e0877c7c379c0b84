package io.interpreter4j.runtime.computer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyNamesTest {

  @Test
  void commonNamesBecomeXdotoolKeysymsAndKnownOnesPass() {
    assertEquals("Return", KeyNames.chord("enter"));
    assertEquals("ctrl+a", KeyNames.chord("ctrl+a"));
    assertEquals("ctrl+shift+Next", KeyNames.chord("Ctrl + Shift + PageDown"));
    assertEquals("super+F5", KeyNames.chord("cmd+f5"));
    assertEquals("XF86AudioMute", KeyNames.chord("XF86AudioMute"));
    assertEquals("plus", KeyNames.chord("+"));
    assertEquals("ctrl+c", KeyNames.chord(List.of("ctrl", "c")));
  }

  @Test
  void anEmptyKeyIsAnErrorSayingHowToWriteChords() {
    assertThrows(IllegalArgumentException.class, () -> KeyNames.chord(""));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyNames.chord("ctrl++a"));
    assertEquals("'ctrl++a' has an empty key; write chords as \"ctrl+a\"", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> KeyNames.chord(List.of()));
  }
}
