package io.interpreter4j.runtime.computer.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.computer.ComputerAction;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrowserArgsTest {

  static ComputerAction action(String name, Map<String, Object> args) {
    return new ComputerAction(3, "browser", name, args);
  }

  @Test
  void aRefIsTakenAsTheSnapshotWritesIt() {
    assertEquals("e3", BrowserArgs.ref(action("click", Map.of("ref", "e3"))));
    assertEquals("e3", BrowserArgs.ref(action("click", Map.of("ref", "[ref=e3]"))));
    assertEquals("e12", BrowserArgs.ref(action("click", Map.of("ref", " ref=e12 "))));
  }

  @Test
  void aMissingOrMalformedRefIsAClearError() {
    assertEquals("click needs a ref from snapshot(), such as \"e3\"",
        assertThrows(IllegalArgumentException.class, () -> BrowserArgs.ref(action("click", Map.of()))).getMessage());
    assertEquals("'Send' is no ref: a ref is eN, as snapshot() shows it in [ref=eN]",
        assertThrows(IllegalArgumentException.class, () -> BrowserArgs.ref(action("click", Map.of("ref", "Send"))))
            .getMessage());
  }

  @Test
  void anAddressWithoutSchemeIsHttps() {
    assertEquals("https://example.com/a", BrowserArgs.url(action("go", Map.of("url", "example.com/a"))));
    assertEquals("http://127.0.0.1:8000/", BrowserArgs.url(action("go", Map.of("url", "http://127.0.0.1:8000/"))));
    assertEquals("go needs url",
        assertThrows(IllegalArgumentException.class, () -> BrowserArgs.url(action("go", Map.of()))).getMessage());
  }

  @Test
  void flagsAreBooleansOrTheirText() {
    assertTrue(BrowserArgs.flag(action("type", Map.of("submit", true)), "submit"));
    assertTrue(BrowserArgs.flag(action("type", Map.of("submit", "True")), "submit"));
    assertFalse(BrowserArgs.flag(action("type", Map.of()), "submit"));
  }
}
