package io.interpreter4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Interpreter.Builder#build()}: bad settings are refused saying what to change, and hold no actor system. */
class InterpreterBuilderTest {

  @TempDir
  Path tmp;

  @Test
  void aMissingCassetteIsRefusedAndTheSharedSystemReleased() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Cassettes.builder("mean", tmp).model("replay:" + tmp.resolve("nope.json")).build());
    assertTrue(e.getMessage().contains("cassette not found"), e.getMessage());
    assertNull(SharedSystem.current());
  }

  @Test
  void aMissingWorkdirIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Cassettes.builder("mean", tmp).workdir(tmp.resolve("missing")).build());
    assertTrue(e.getMessage().contains("working directory not found"), e.getMessage());
  }

  @Test
  void anInvalidSettingIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> Cassettes.builder("mean", tmp).setting("interpreter4j.execution.timeout", "soon").build());
  }

  @Test
  void autoRunWithoutASandboxSaysSo() {
    try (Interpreter unconfined = Cassettes.builder("mean", tmp).autoRun(true).sandbox(Sandbox.NONE).build();
         Interpreter asking = Cassettes.builder("mean", tmp).autoRun(false).sandbox(Sandbox.NONE).build()) {
      assertTrue(unconfined.unconfinedNotice().orElseThrow().contains("the sandbox is off"));
      assertEquals(Optional.empty(), asking.unconfinedNotice());
      assertEquals(tmp.toAbsolutePath().normalize(), unconfined.workdir());
      assertTrue(unconfined.model().startsWith("replay:"));
    }
  }
}
