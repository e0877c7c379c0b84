package io.interpreter4j.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {

  @Test
  void defaultsComeFromReferenceConf() {
    Settings s = Settings.from(ConfigFactory.defaultReference(), Map.of());
    assertEquals(Duration.ofSeconds(120), s.timeout());
    assertEquals(4000, s.maxOutput());
    assertEquals(30, s.maxIterations());
    assertEquals(5, s.maxConsecutiveFailures());
    assertEquals(4, s.modelAttempts());
    assertEquals(Settings.InterceptorMode.FIRST_BLOCK, s.interceptorMode());
    assertEquals(Settings.ApprovalMode.ASK, s.approvalMode());
    assertEquals("python", s.defaultLanguage());
  }

  @Test
  void dataDirFollowsXdgDataHome() {
    Settings s = Settings.from(ConfigFactory.defaultReference(), Map.of("XDG_DATA_HOME", "/tmp/xdg"));
    assertEquals(Path.of("/tmp/xdg/interpreter4j"), s.dataDir());
  }

  @Test
  void badValuesAreClearErrors() {
    var bad = ConfigFactory.parseString("interpreter4j.interceptor.mode = sometimes")
        .withFallback(ConfigFactory.defaultReference());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Settings.from(bad, Map.of()));
    assertTrue(e.getMessage().contains("first-block or all-blocks"), e.getMessage());
    var zero = ConfigFactory.parseString("interpreter4j.healing.max-iterations = 0")
        .withFallback(ConfigFactory.defaultReference());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Settings.from(zero, Map.of()))
        .getMessage().contains("healing.max-iterations = 0 must be at least 1"));
  }
}
