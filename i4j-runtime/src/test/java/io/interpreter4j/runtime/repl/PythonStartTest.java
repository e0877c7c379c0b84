package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PythonStartTest {

  @Test
  void referenceConfStartsSandboxedSessionsAtCreation() {
    PythonStart start = PythonStart.from(ConfigFactory.load());
    assertEquals(PythonStart.SANDBOXED, start);
    assertTrue(start.atCreation("bwrap"));
    assertTrue(start.atCreation("docker"));
    assertFalse(start.atCreation("none"));
  }

  @Test
  void onAndOffApplyToEverySession() {
    PythonStart on = PythonStart.from(ConfigFactory.parseMap(Map.of(PythonStart.KEY, " On ")));
    assertTrue(on.atCreation("none"));
    assertTrue(on.atCreation("bwrap"));
    PythonStart off = PythonStart.from(ConfigFactory.parseMap(Map.of(PythonStart.KEY, "off")));
    assertFalse(off.atCreation("none"));
    assertFalse(off.atCreation("bwrap"));
    assertEquals(PythonStart.SANDBOXED, PythonStart.from(ConfigFactory.empty()));
  }

  @Test
  void anotherValueIsAnErrorThatNamesTheKeyAndTheChoices() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PythonStart.from(ConfigFactory.parseMap(Map.of(PythonStart.KEY, "sometimes"))));
    assertEquals("interpreter4j.repl.python.start-with-session must be sandboxed, on or off, not 'sometimes'",
        e.getMessage());
  }
}
