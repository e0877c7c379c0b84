package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Which command lines take the chat's short path, that its list of subcommands is the whole command's, and that no
 * option needs a converter picocli is told to leave out.
 */
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

  @Test
  void noOptionHasATypeWhoseConverterPicocliIsToldToLeaveOut() {
    List<Pattern> excluded = Arrays.stream(Main.UNUSED_CONVERTERS.split(",")).map(Pattern::compile).toList();
    List<String> needing = new ArrayList<>();
    collect(Main.whole(), excluded, needing);
    assertEquals(List.of(), needing);
  }

  private static void collect(CommandLine command, List<Pattern> excluded, List<String> needing) {
    for (CommandLine.Model.ArgSpec arg : command.getCommandSpec().args()) {
      if (arg.converters().length > 0) {
        continue; // converted by the option's own converter
      }
      List<Class<?>> types = new ArrayList<>(List.of(arg.auxiliaryTypes()));
      types.add(arg.type());
      for (Class<?> type : types) {
        if (excluded.stream().anyMatch(p -> p.matcher(type.getName()).matches())) {
          needing.add(command.getCommandSpec().qualifiedName() + " " + arg.paramLabel() + ": " + type.getName());
        }
      }
    }
    command.getSubcommands().values().forEach(sub -> collect(sub, excluded, needing));
  }
}
