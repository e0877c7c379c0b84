package io.interpreter4j.core.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class VisionSettingsTest {

  private final VisionSettings defaults = VisionSettings.defaults();

  @Test
  void autoIsOnForTheModelsOfReferenceConf() {
    assertEquals(Vision.AUTO, defaults.mode());
    for (String model : new String[] {"gpt-4o", "gpt-4o-mini", "gpt-4.1-nano", "gpt-5", "o3-mini", "o4-mini",
        "claude-sonnet-4-5", "llava:13b", "qwen2.5-vl:7b", "gemma3:4b", "llama3.2-vision:11b", "GPT-4o",
        "openai/gpt-4o-mini"}) {
      assertTrue(defaults.enabledFor(model), model);
    }
  }

  @Test
  void autoIsOffForOtherModels() {
    for (String model : new String[] {"gpt-3.5-turbo", "gpt-4", "llama3.1", "qwen2.5-coder:7b", "mistral", "o1"}) {
      assertFalse(defaults.enabledFor(model), model);
    }
  }

  @Test
  void onAndOffOverruleTheList() {
    assertTrue(defaults.withMode(Vision.ON).enabledFor("llama3.1"));
    assertFalse(defaults.withMode(Vision.OFF).enabledFor("gpt-4o"));
  }

  @Test
  void aUserExtendsTheListWithHoconConcatenation() {
    VisionSettings extended = VisionSettings.fromConfig(ConfigFactory.parseString(
        "interpreter4j.vision.models += \"minicpm-v*\"").withFallback(ConfigFactory.defaultReference()).resolve());

    assertTrue(extended.enabledFor("minicpm-v:8b"));
    assertTrue(extended.enabledFor("gpt-4o"), "the reference list is kept");
  }

  @Test
  void aWrongModeSaysWhatIsAllowed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> VisionSettings.fromConfig(ConfigFactory.parseString("interpreter4j.vision.mode = sometimes")
            .withFallback(ConfigFactory.defaultReference())));

    assertTrue(e.getMessage().contains("on, off or auto"), e.getMessage());
  }
}
