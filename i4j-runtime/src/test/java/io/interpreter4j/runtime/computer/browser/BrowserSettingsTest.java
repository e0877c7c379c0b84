package io.interpreter4j.runtime.computer.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrowserSettingsTest {

  @Test
  void referenceConfHoldsTheDefaults() {
    BrowserSettings read = BrowserSettings.from(ConfigFactory.defaultReference());
    assertEquals(BrowserSettings.DEFAULT.executable(), read.executable());
    assertEquals(BrowserSettings.DEFAULT.headed(), read.headed());
    assertEquals(List.of("*"), read.domains().allowed());
    assertEquals(List.of(), read.domains().blocked());
    assertEquals(BrowserSettings.DEFAULT.viewportWidth(), read.viewportWidth());
    assertEquals(BrowserSettings.DEFAULT.viewportHeight(), read.viewportHeight());
    assertEquals(BrowserSettings.DEFAULT.actionTimeout(), read.actionTimeout());
    assertEquals(BrowserSettings.DEFAULT.navigationTimeout(), read.navigationTimeout());
    assertEquals(BrowserSettings.DEFAULT.snapshotMaxChars(), read.snapshotMaxChars());
    assertEquals(BrowserSettings.DEFAULT.maxQueued(), read.maxQueued());
  }

  @Test
  void theUsersSettingsOverrideThem() {
    BrowserSettings read = BrowserSettings.from(ConfigFactory.parseString("""
        interpreter4j.browser { headed = true, blocked-domains = ["*.example.com"], viewport = "1920x1080" }
        """).withFallback(ConfigFactory.defaultReference()));
    assertTrue(read.headed());
    assertEquals(List.of("*.example.com"), read.domains().blocked());
    assertEquals(1920, read.viewportWidth());
    assertEquals(1080, read.viewportHeight());
  }

  @Test
  void badValuesAreClearErrors() {
    assertEquals("interpreter4j.browser.viewport: 'big' is not WIDTHxHEIGHT, e.g. \"1280x800\"",
        assertThrows(IllegalArgumentException.class, () -> BrowserSettings.from(ConfigFactory
            .parseString("interpreter4j.browser.viewport = big").withFallback(ConfigFactory.defaultReference())))
            .getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> BrowserSettings.from(ConfigFactory
        .parseString("interpreter4j.browser.blocked-domains = [\"http://x\"]")
        .withFallback(ConfigFactory.defaultReference()))).getMessage()
        .startsWith("interpreter4j.browser.blocked-domains: 'http://x' is not a host pattern"));
  }

  @Test
  void aMissingExecutableSaysHowToGetOne() {
    BrowserSettings missing = BrowserSettings.DEFAULT.withExecutable("/nonexistent/chromium");
    assertEquals(Optional.empty(), missing.chromium());
    assertEquals("interpreter4j.browser.executable /nonexistent/chromium is not an executable file: install Chromium "
        + "(apt-get install chromium) or fix the setting", missing.chromiumMissing());
  }
}
