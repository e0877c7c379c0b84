package io.interpreter4j.core.safety.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ModesTest {

  @Test
  void octalInEveryLanguagesSpelling() {
    assertEquals("666", Modes.octal("0o666"));
    assertEquals("0777", Modes.octal("0777"));
    assertEquals("666", Modes.octal("438"));
    assertEquals("755", Modes.octal("755"));
    assertNull(Modes.octal("u+x"));
    assertNull(Modes.octal("stat.S_IRWXU"));
  }

  @Test
  void whatAModeGrants() {
    assertTrue(Modes.worldWritable("0o666"));
    assertTrue(Modes.worldWritable("a+w"));
    assertTrue(Modes.worldWritable("o+rw"));
    assertFalse(Modes.worldWritable("755"));
    assertFalse(Modes.worldWritable("+w"));
    assertTrue(Modes.opensToOthers("644"));
    assertTrue(Modes.opensToOthers("go+r"));
    assertFalse(Modes.opensToOthers("600"));
    assertFalse(Modes.opensToOthers("0o700"));
    assertTrue(Modes.setuid("4755"));
    assertTrue(Modes.setuid("u+s"));
    assertFalse(Modes.setuid("0755"));
  }
}
