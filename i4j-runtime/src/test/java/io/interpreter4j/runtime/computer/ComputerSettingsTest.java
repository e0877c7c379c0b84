package io.interpreter4j.runtime.computer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ComputerSettingsTest {

  @Test
  void referenceConfHasComputerUseOffOnA1280x800ScreenWithGridAndAsksBeforeTheSensitiveKinds() {
    ComputerSettings s = ComputerSettings.from(ConfigFactory.load());
    assertFalse(s.enabled());
    assertEquals(List.of(1280, 800), List.of(s.width(), s.height()));
    assertTrue(s.grid());
    assertEquals(Set.of("type-password", "submit", "download"), s.askBefore());
  }

  @Test
  void valuesAreReadAndBadOnesNamed() {
    ComputerSettings s = ComputerSettings.from(ConfigFactory.parseMap(Map.of(
        "interpreter4j.computer.enabled", true, "interpreter4j.computer.screen", "1920x1080",
        "interpreter4j.computer.grid", "off", "interpreter4j.computer.ask-before", List.of("submit")))
        .withFallback(ConfigFactory.load()));
    assertTrue(s.enabled());
    assertEquals(List.of(1920, 1080, false), List.of(s.width(), s.height(), s.grid()));
    assertTrue(s.asks("submit"));
    assertFalse(s.asks("download"));
    IllegalArgumentException screen = assertThrows(IllegalArgumentException.class, () -> ComputerSettings.from(
        ConfigFactory.parseMap(Map.of("interpreter4j.computer.screen", "big")).withFallback(ConfigFactory.load())));
    assertTrue(screen.getMessage().contains("WIDTHxHEIGHT"), screen.getMessage());
    IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> ComputerSettings.from(
        ConfigFactory.parseMap(Map.of("interpreter4j.computer.ask-before", List.of("click")))
            .withFallback(ConfigFactory.load())));
    assertTrue(kind.getMessage().contains("unknown kind 'click'"), kind.getMessage());
  }
}
