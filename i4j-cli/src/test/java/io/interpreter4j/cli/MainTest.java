package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which command lines take the chat's short path, and that its list of subcommands is the whole command's. */
class MainTest {

  @Test
  void aCommandLineNamingNoSubcommandNorHelpIsTheChats() {
    assertTrue(Main.chatOnly());
    assertTrue(Main.chatOnly("-m", "replay:examples/hello.json", "-y"));
    assertTrue(Main.chatOnly("--modle", "x")); // refused by the chat alone, then parsed again by the whole command
    assertFalse(Main.chatOnly("run", "task"));
    assertFalse(Main.chatOnly("-m", "x", "sessions"));
    assertFalse(Main.chatOnly("--profile", "batch")); // a value that is a subcommand's name: the whole command decides
    assertFalse(Main.chatOnly("--help"));
    assertFalse(Main.chatOnly("-h"));
    assertFalse(Main.chatOnly("-y", "--version"));
    assertFalse(Main.chatOnly("@args.txt"));
  }

  @Test
  void theSubcommandsAreTheWholeCommands() {
    assertEquals(Main.SUBCOMMANDS, List.copyOf(Main.whole().getSubcommands().keySet()));
  }
}
