package io.interpreter4j.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.providers.tools.ToolCalling;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProviderSettingsTest {

  @Test
  void configOverridesTheReferenceDefaults() {
    ProviderSettings s = ProviderSettings.fromConfig(ConfigFactory.parseString(
            "interpreter4j.providers { stall-timeout = 5s, endpoint.max-concurrent-requests = 2, context-window = 32000 }")
        .withFallback(ConfigFactory.defaultReference()));
    assertEquals(Duration.ofSeconds(5), s.stallTimeout());
    assertEquals(2, s.maxConcurrentRequests());
    assertEquals(32_000, s.contextWindow());
    assertEquals(4, s.maxAttempts());
  }

  @Test
  void toolCallingIsAutoUnlessSet() {
    assertEquals(ToolCalling.AUTO, ProviderSettings.defaults().toolCalling());
    assertEquals(ToolCalling.OFF, ProviderSettings.fromConfig(ConfigFactory.parseString(
        "interpreter4j.providers.tool-calling = Off").withFallback(ConfigFactory.defaultReference())).toolCalling());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProviderSettings.fromConfig(
        ConfigFactory.parseString("interpreter4j.providers.tool-calling = sometimes")
            .withFallback(ConfigFactory.defaultReference())));
    assertTrue(e.getMessage().startsWith("interpreter4j.providers.tool-calling"), e.getMessage());
  }

  @Test
  void rejectsNonsenseWithTheSettingsName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProviderSettings.fromConfig(
        ConfigFactory.parseString("interpreter4j.providers.retry.attempts = 0")
            .withFallback(ConfigFactory.defaultReference())));
    assertTrue(e.getMessage().startsWith("interpreter4j.providers.retry.attempts"), e.getMessage());
  }
}
