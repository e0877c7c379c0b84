package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilesTest {
  @TempDir Path tmp;

  @Test
  void aProfileBundlesAModelFlagsAndInstructions() throws Exception {
    Map<String, String> env = Map.of("XDG_CONFIG_HOME", tmp.toString(), "I4J_HOME", tmp.resolve("data").toString());
    Path dir = Files.createDirectories(tmp.resolve("interpreter4j/profiles"));
    Files.writeString(dir.resolve("careful.conf"), """
        description = "Slow and careful"
        interpreter4j {
          model = "anthropic/claude-sonnet-4-5"
          approval.mode = ask
          custom-instructions = "Explain each step."
          execution.timeout = 5m
        }
        """);
    Files.writeString(dir.resolve("broken.conf"), "interpreter4j { model = ");
    List<Profiles.Profile> all = Profiles.list(env);
    assertEquals(List.of("broken", "careful"), all.stream().map(Profiles.Profile::name).toList());
    assertEquals("Slow and careful", all.get(1).description());
    assertEquals("anthropic/claude-sonnet-4-5", all.get(1).model());
    assertTrue(all.get(0).description().startsWith("(unreadable"), all.get(0).description());

    Settings s = SessionLauncher.settingsOnly(null, "careful", env);
    assertEquals("anthropic/claude-sonnet-4-5", s.model());
    assertEquals("Explain each step.", s.customInstructions());
    assertEquals(java.time.Duration.ofMinutes(5), s.timeout());
    Settings fromEnv = SessionLauncher.settingsOnly(null, null,
        Map.of("XDG_CONFIG_HOME", tmp.toString(), "I4J_PROFILE", "careful", "I4J_MODEL", "openai/gpt-4o"));
    assertEquals("openai/gpt-4o", fromEnv.model(), "the environment beats the profile");
    assertEquals("Explain each step.", fromEnv.customInstructions());

    ModelFactory.UsageException missing = assertThrows(ModelFactory.UsageException.class,
        () -> SessionLauncher.settingsOnly(null, "nope", env));
    assertTrue(missing.getMessage().contains("profile 'nope' not found"), missing.getMessage());
    assertTrue(missing.getMessage().contains("profiles: broken, careful"), missing.getMessage());
  }
}
