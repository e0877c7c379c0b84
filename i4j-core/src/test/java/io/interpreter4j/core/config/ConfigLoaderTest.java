package io.interpreter4j.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path tmp;

  @Test
  void flagsBeatEnvironmentWhichBeatsTheFile() throws Exception {
    Path file = tmp.resolve("i4j.conf");
    Files.writeString(file, "interpreter4j { model = \"from-file\", execution.max-output = 1000, healing.max-iterations = 7 }");
    Map<String, String> env = Map.of("I4J_MODEL", "from-env", "I4J_MAX_OUTPUT", "2000");
    Settings s = Settings.from(ConfigLoader.load(file, Map.of("interpreter4j.model", "from-flag"), env), env);
    assertEquals("from-flag", s.model());
    assertEquals(2000, s.maxOutput());
    assertEquals(7, s.maxIterations());
  }

  @Test
  void durationsAcceptHoconUnits() {
    Settings s = Settings.from(ConfigLoader.load(null, Map.of("interpreter4j.execution.timeout", "2m"),
        Map.of("XDG_CONFIG_HOME", tmp.toString())), Map.of());
    assertEquals(Duration.ofMinutes(2), s.timeout());
  }

  @Test
  void missingOrBrokenFilesAreClearErrors() throws Exception {
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.load(tmp.resolve("nope.conf"), Map.of(), Map.of()));
    assertTrue(missing.getMessage().startsWith("config file not found"), missing.getMessage());
    Path broken = tmp.resolve("broken.conf");
    Files.writeString(broken, "interpreter4j { model = ");
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.load(broken, Map.of(), Map.of()));
    assertTrue(bad.getMessage().startsWith("cannot read config file"), bad.getMessage());
  }

  @Test
  void aProfileSitsBetweenTheFileAndTheEnvironment() throws Exception {
    Path file = tmp.resolve("i4j.conf");
    Files.writeString(file, "interpreter4j { model = \"from-file\", healing.max-iterations = 7, "
        + "execution.max-output = 1000 }");
    com.typesafe.config.Config profile = com.typesafe.config.ConfigFactory.parseString(
        "interpreter4j { model = \"from-profile\", custom-instructions = \"be brief\", execution.max-output = 1500 }");
    Map<String, String> env = Map.of("I4J_MAX_OUTPUT", "2000");
    Settings s = Settings.from(ConfigLoader.load(file, profile, Map.of(), env), env);
    assertEquals("from-profile", s.model());
    assertEquals("be brief", s.customInstructions());
    assertEquals(7, s.maxIterations(), "the file still counts where the profile says nothing");
    assertEquals(2000, s.maxOutput(), "the environment beats the profile");
    Settings flagged = Settings.from(ConfigLoader.load(file, profile, Map.of("interpreter4j.model", "from-flag"),
        env), env);
    assertEquals("from-flag", flagged.model());
  }
}
