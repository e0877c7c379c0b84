package io.interpreter4j.server.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServedModelsTest {

  @Test
  void i4jIsTheServersModelAndConfiguredModelsAreServedAsThemselves() {
    ServedModels m = new ServedModels("openai/gpt-4o-mini", List.of("anthropic/claude-sonnet-4-5", "openai/gpt-4o-mini"));
    assertEquals(List.of("i4j", "openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5"), m.ids());
    assertNull(m.specFor(null));
    assertNull(m.specFor("i4j"));
    assertEquals("anthropic/claude-sonnet-4-5", m.specFor("anthropic/claude-sonnet-4-5"));
  }

  @Test
  void replayModelsAndFilesAreNeverTakenFromARequest() {
    ServedModels m = new ServedModels("replay:examples/hello.json", List.of("replay:/etc/passwd"));
    assertEquals(List.of("i4j"), m.ids());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> m.specFor("replay:examples/hello.json"))
        .getMessage().contains("replay models are not taken from requests"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> m.specFor("gpt-4")).getMessage()
        .contains("use one of i4j"));
  }
}
