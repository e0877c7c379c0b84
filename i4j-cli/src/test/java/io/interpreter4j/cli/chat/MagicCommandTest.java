package io.interpreter4j.cli.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class MagicCommandTest {

  @Test
  void parsesTheNameAndTheRestOfTheLine() {
    assertEquals(Optional.of(new MagicCommand("%save", "my file.json")), MagicCommand.parse("  %save my file.json "));
    assertEquals(Optional.of(new MagicCommand("%%", "ls -la | head")), MagicCommand.parse("%% ls -la | head"));
    assertEquals(Optional.of(new MagicCommand("%%", "pwd")), MagicCommand.parse("%%pwd"));
    assertEquals(Optional.of(new MagicCommand("%auto_run", "on")), MagicCommand.parse("%Auto-Run on"));
    assertEquals(Optional.empty(), MagicCommand.parse("50% done"));
  }

  @Test
  void onAndOff() {
    assertEquals(Optional.of(true), MagicCommand.parse("%verbose on").orElseThrow().onOff());
    assertEquals(Optional.of(false), MagicCommand.parse("%verbose OFF").orElseThrow().onOff());
    assertEquals(Optional.empty(), MagicCommand.parse("%verbose").orElseThrow().onOff());
  }

  @Test
  void aMistypedCommandGetsASuggestion() {
    assertEquals(Optional.of("%undo"), MagicCommand.closest("%udno"));
    assertEquals(Optional.of("%tokens"), MagicCommand.closest("%token"));
    assertEquals(Optional.of("%jupyter"), MagicCommand.closest("%jup"));
    assertEquals(Optional.empty(), MagicCommand.closest("%frobnicate"));
  }

  @Test
  void everyCommandHasASummary() {
    assertEquals(12, MagicCommand.SPECS.size());
    MagicCommand.SPECS.forEach(s -> assertTrue(s.name().startsWith("%") && !s.summary().isBlank(), s.name()));
  }
}
