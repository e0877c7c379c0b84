package io.interpreter4j.runtime.computer.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BrowserKeysTest {

  @Test
  void playwrightNamesPassThrough() {
    assertEquals("Enter", BrowserKeys.playwright("Enter"));
    assertEquals("Control+a", BrowserKeys.playwright("Control+a"));
    assertEquals("ArrowDown", BrowserKeys.playwright("ArrowDown"));
    assertEquals("a", BrowserKeys.playwright("a"));
    assertEquals("+", BrowserKeys.playwright("+"));
  }

  @Test
  void lowerCaseAndXdotoolNamesAreMapped() {
    assertEquals("Enter", BrowserKeys.playwright("enter"));
    assertEquals("Enter", BrowserKeys.playwright("Return"));
    assertEquals("Control+a", BrowserKeys.playwright("ctrl+a"));
    assertEquals("Control+Shift+Tab", BrowserKeys.playwright("ctrl+shift+tab"));
    assertEquals("PageDown", BrowserKeys.playwright("page_down"));
    assertEquals("ArrowUp", BrowserKeys.playwright("up"));
    assertEquals("Escape", BrowserKeys.playwright("esc"));
    assertEquals("F5", BrowserKeys.playwright("f5"));
    assertEquals("Meta+c", BrowserKeys.playwright("cmd+c"));
  }

  @Test
  void enterAtTheEndOfAChordIsRecognised() {
    assertTrue(BrowserKeys.endsWithEnter("Enter"));
    assertTrue(BrowserKeys.endsWithEnter("Control+Enter"));
    assertFalse(BrowserKeys.endsWithEnter("Tab"));
  }

  @Test
  void anEmptyKeyIsAClearError() {
    assertEquals("press needs a key: \"Enter\", \"Tab\", \"ArrowDown\", \"Control+a\"",
        assertThrows(IllegalArgumentException.class, () -> BrowserKeys.playwright(" ")).getMessage());
    assertEquals("'ctrl++' has an empty key in it: write chords as \"Control+a\"",
        assertThrows(IllegalArgumentException.class, () -> BrowserKeys.playwright("ctrl++")).getMessage());
  }
}
