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
    assertTrue(bad.getMessage().startsWith("config file " + broken + ", line 1: "), bad.getMessage());
  }

  @Test
  void aSyntaxErrorSaysFileLineAndWhatWasExpectedOnce() throws Exception {
    Path broken = tmp.resolve("broken.conf");
    Files.writeString(broken, "interpreter4j {\n  execution.timeout =\n}}\n");
    String message = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.load(broken, Map.of(), Map.of())).getMessage();
    assertEquals("config file " + broken + ", line 3: expecting a value, not '}'", message);
  }

  @Test
  void aBadValueNamesTheVariableOrTheFileLineAndEchoesWhatWasTyped() throws Exception {
    Map<String, String> env = Map.of("XDG_CONFIG_HOME", tmp.toString(), "I4J_TIMEOUT", "abc");
    String fromEnv = assertThrows(IllegalArgumentException.class,
        () -> Settings.from(ConfigLoader.load(null, Map.of(), env), env)).getMessage();
    assertTrue(fromEnv.startsWith("I4J_TIMEOUT=abc is not a duration"), fromEnv);
    Path file = tmp.resolve("i4j.conf");
    Files.writeString(file, "interpreter4j {\n  execution.timeout = 0s\n}\n");
    String fromFile = assertThrows(IllegalArgumentException.class,
        () -> Settings.from(ConfigLoader.load(file, Map.of(), Map.of()), Map.of())).getMessage();
    assertEquals(file + ":2: execution.timeout = 0s must be positive", fromFile);
  }

  @Test
  void misspelledSettingsAreWarnedAboutWithTheClosestKnownOne() throws Exception {
    Path file = tmp.resolve("i4j.conf");
    Files.writeString(file, "interpreter4j {\n  executoin.timeout = 5s\n  model = \"x\"\n}\n");
    java.util.List<String> warnings = new java.util.ArrayList<>();
    ConfigLoader.load(file, com.typesafe.config.ConfigFactory.empty(), Map.of(), Map.of(), warnings::add);
    assertEquals(java.util.List.of(file + ":2: unknown setting executoin.timeout (did you mean execution.timeout?); "
        + "it is ignored"), warnings);
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

  @Test
  void readForAPromptItHasTheSameSettingsWarningsAndErrors() throws Exception {
    Path file = tmp.resolve("i4j.conf");
    Files.writeString(file, "interpreter4j {\n  model = \"from-file\"\n  executoin.timeout = 5s\n}\n");
    com.typesafe.config.Config profile = com.typesafe.config.ConfigFactory.parseString(
        "interpreter4j.custom-instructions = \"be brief\"");
    Map<String, Object> flags = Map.of("interpreter4j.healing.max-iterations", 3);
    Map<String, String> env = Map.of("I4J_MAX_OUTPUT", "2000");
    java.util.List<String> warned = new java.util.ArrayList<>();
    java.util.List<String> warnedEarly = new java.util.ArrayList<>();
    com.typesafe.config.Config whole = ConfigLoader.load(file, profile, flags, env, warned::add);
    ConfigLoader.Early early = ConfigLoader.loadEarly(file, profile, flags, env, warnedEarly::add);
    assertEquals(whole.getConfig("interpreter4j").root().unwrapped(),
        early.config().getConfig("interpreter4j").root().unwrapped());
    assertEquals(1, warned.size());
    assertEquals(warned, warnedEarly);
    assertEquals(whole.root().unwrapped(), early.whole().get().root().unwrapped());
    assertEquals(1, warnedEarly.size(), "the layers are not read again");

    Files.writeString(file, "interpreter4j {\n  execution.timeout = 0s\n}\n");
    String message = assertThrows(IllegalArgumentException.class,
        () -> Settings.from(ConfigLoader.loadEarly(file, profile, Map.of(), Map.of(), w -> { }).config(), Map.of()))
        .getMessage();
    assertEquals(file + ":2: execution.timeout = 0s must be positive", message);
    Files.writeString(file, "interpreter4j.model = ${nowhere}\n");
    String unresolved = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.loadEarly(file, profile, Map.of(), Map.of(), w -> { })).getMessage();
    assertEquals(assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.load(file, profile, Map.of(), Map.of(), w -> { })).getMessage(), unresolved);
  }

  @Test
  void interpreter4jsOwnDefaultsAreTheWholeConfigurationsUnderInterpreter4j() {
    ConfigLoader.OwnDefaults own = ConfigLoader.ownDefaults().orElseThrow(
        () -> new AssertionError(ConfigLoader.OWN_REFERENCE + " is missing: the parent pom copies reference.conf"));
    com.typesafe.config.Config whole = com.typesafe.config.ConfigFactory.load();
    assertEquals(whole.getConfig("interpreter4j").root().unwrapped(),
        own.defaults().getConfig("interpreter4j").root().unwrapped());
    assertEquals(com.typesafe.config.ConfigFactory.defaultReference().getConfig("interpreter4j").root().unwrapped(),
        own.reference().getConfig("interpreter4j").root().unwrapped());
    assertEquals(java.util.Set.of("interpreter4j"), own.reference().root().keySet());
  }
}
