package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SessionLauncherTest {
  @TempDir Path tmp;

  private static CommonOptions chat(String... args) {
    ChatCommand chat = new ChatCommand();
    new CommandLine(chat).parseArgs(args);
    return chat.options;
  }

  private Map<String, String> env() {
    return Map.of("I4J_HOME", tmp.resolve("data").toString(), "I4J_WORKDIR", tmp.toString(),
        "XDG_CONFIG_HOME", tmp.resolve("config").toString());
  }

  @Test
  void aChatReadsTheSameSettingsBeforeItsPromptAndPekkosForItsActorSystem() throws Exception {
    Path file = tmp.resolve("i4j.conf");
    Files.writeString(file, "interpreter4j { custom-instructions = \"be brief\" }\npekko.loglevel = \"ERROR\"\n");
    CommonOptions options = chat("--config", file.toString(), "--model", "replay:hello.json");
    SessionLauncher.Prepared whole = SessionLauncher.prepare(options, env());
    SessionLauncher.Prepared early = SessionLauncher.prepareForPrompt(options, env());
    assertEquals("be brief", early.settings().customInstructions());
    assertEquals(whole.config().getConfig("interpreter4j").root().unwrapped(),
        early.config().getConfig("interpreter4j").root().unwrapped());
    assertFalse(early.config().hasPath("pekko.actor"),
        "read over interpreter4j's own defaults (every module's copy of its reference.conf is on the class path)");
    assertEquals(whole.config().root().unwrapped(), early.whole().get().root().unwrapped());
    assertEquals("ERROR", early.whole().get().getString("pekko.loglevel"));
  }

  @Test
  void aSettingThatRefersToOneOfPekkosIsReadOverEveryLibrarysDefaults() throws Exception {
    Path file = tmp.resolve("i4j.conf");
    Files.writeString(file, "interpreter4j.custom-instructions = ${pekko.loglevel}\n");
    CommonOptions options = chat("--config", file.toString(), "--model", "replay:hello.json");
    SessionLauncher.Prepared early = SessionLauncher.prepareForPrompt(options, env());
    assertEquals(SessionLauncher.prepare(options, env()).settings().customInstructions(),
        early.settings().customInstructions());
    assertEquals("INFO", early.settings().customInstructions());
  }
}
