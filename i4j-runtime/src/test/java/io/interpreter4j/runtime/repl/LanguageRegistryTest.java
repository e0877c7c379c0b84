package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LanguageRegistryTest {

  static Config with(String languages) {
    return ConfigFactory.parseString("interpreter4j.languages { " + languages + " }")
        .withFallback(ConfigFactory.load());
  }

  @Test
  void configuredLanguagesJoinTheBuiltInOnesWithTheirAliases() {
    var registry = LanguageRegistry.of(with("""
        lua { command = ["lua", "{file}"], aliases = ["luajit", "LuaJIT2"], extension = ".lua",
              version-command = ["lua", "-v"] }"""));
    assertEquals("lua", registry.canonical("luajit"));
    assertEquals("lua", registry.canonical("LUAJIT2"));
    assertEquals("javascript", registry.canonical("js"));
    assertEquals("r", registry.canonical("R"));
    assertEquals("cobol", registry.canonical("cobol"));
    LanguageRegistry.Language lua = registry.languages().stream().filter(l -> l.name().equals("lua")).findFirst()
        .orElseThrow();
    assertEquals(LanguageRegistry.Style.PER_BLOCK, lua.style());
    assertEquals("lua", lua.dialect().codeExtension());
    assertEquals(List.of("python", "bash"), registry.languages().stream().map(LanguageRegistry.Language::name)
        .limit(2).toList());
  }

  @Test
  void aMistakeInTheConfigurationSaysWhere() {
    var empty = assertThrows(IllegalArgumentException.class,
        () -> LanguageRegistry.of(with("tcl { command = [] }")));
    assertTrue(empty.getMessage().contains("interpreter4j.languages.tcl.command"), empty.getMessage());
    var notObject = assertThrows(IllegalArgumentException.class, () -> LanguageRegistry.of(with("tcl = \"tclsh\"")));
    assertTrue(notObject.getMessage().contains("interpreter4j.languages.tcl"), notObject.getMessage());
    var noCommand = assertThrows(IllegalArgumentException.class,
        () -> LanguageRegistry.of(with("tcl { aliases = [\"tk\"] }")));
    assertTrue(noCommand.getMessage().contains("command"), noCommand.getMessage());
  }

  @Test
  void discoveryFindsTheInstalledInterpretersOnceWithTheirVersions() {
    var registry = LanguageRegistry.of(with("""
        perl { command = ["perl", "{file}"], version-command = ["perl", "-e", "print $^V"] }
        ghost { command = ["i4j-no-such-interpreter", "{file}"] }"""));
    assertSame(registry.discovery(), registry.discovery());
    List<String> labels = registry.labels();
    assertTrue(labels.get(0).matches("python 3\\.\\d+\\.\\d+"), labels.toString());
    assertTrue(labels.get(1).matches("bash \\d+\\.\\d+(\\.\\d+)?"), labels.toString());
    assertTrue(labels.stream().anyMatch(l -> l.matches("perl 5\\.\\d+\\.\\d+ \\(a new process per block\\)")),
        labels.toString());
    assertTrue(labels.stream().anyMatch(l -> l.startsWith("java ") && l.endsWith("(jshell)")), labels.toString());
    assertTrue(labels.stream().anyMatch(l -> l.startsWith("html (")), labels.toString());
    assertEquals(Optional.empty(), registry.installed("ghost"));
    assertFalse(labels.stream().anyMatch(l -> l.contains("ghost")), labels.toString());
    if (Executables.find("node").isPresent()) {
      assertTrue(labels.stream().anyMatch(l -> l.matches("javascript \\(node \\d+\\.\\d+\\.\\d+\\)")),
          labels.toString());
    }
  }

  @Test
  void versionsAreTheFirstDottedNumberOfWhatTheCommandPrints() {
    assertEquals(Optional.of("5.4.6"),
        LanguageRegistry.version(List.of("sh", "-c", "echo 'Lua 5.4.6  Copyright' >&2")));
    assertEquals(Optional.of(""), LanguageRegistry.version(List.of("sh", "-c", "echo no version")));
    assertEquals(Optional.empty(), LanguageRegistry.version(List.of("i4j-no-such-interpreter", "--version")));
  }

  @Test
  void registriesAreSharedPerConfiguration() {
    assertSame(LanguageRegistry.of(ConfigFactory.load()), LanguageRegistry.of(ConfigFactory.load()));
  }
}
