package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.SandboxSettings.Kind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxSettingsTest {

  @Test
  void referenceConfSandboxesAutoRunCodeWithTheNetworkAndIsolatesInstalls() {
    SandboxSettings settings = SandboxSettings.from(ConfigFactory.load());
    assertEquals(SandboxSettings.DEFAULT, settings);
    assertEquals(Kind.AUTO_RUN, settings.kind());
    assertTrue(settings.network());
    assertEquals(List.of(), settings.maskedPaths());
    assertEquals("python:3.12-slim", settings.dockerImage());
    assertEquals(VenvMode.AUTO, VenvMode.from(ConfigFactory.load()));
  }

  @Test
  void readsEverySetting() {
    SandboxSettings settings = SandboxSettings.from(ConfigFactory.parseMap(Map.of(
        "interpreter4j.sandbox.kind", "docker", "interpreter4j.sandbox.network", true,
        "interpreter4j.sandbox.docker-image", "python:3.13")).withFallback(ConfigFactory.load()));
    assertEquals(new SandboxSettings(Kind.DOCKER, true, "python:3.13"), settings);
    SandboxSettings masked = SandboxSettings.from(ConfigFactory.parseMap(Map.of(
        "interpreter4j.sandbox.masked-paths", List.of("~/.vault-token", "/srv/secrets"),
        "interpreter4j.sandbox.network", "off")).withFallback(ConfigFactory.load()));
    assertEquals(List.of("~/.vault-token", "/srv/secrets"), masked.maskedPaths());
    assertFalse(masked.network(), "the flag's word off is read too");
    assertEquals(VenvMode.OFF,
        VenvMode.from(ConfigFactory.parseMap(Map.of("interpreter4j.python.venv", "off"))));
  }

  @Test
  void cliFlagsOverrideTheConfig() {
    // --sandbox alone is auto: the platform's sandbox
    assertEquals(Kind.AUTO, SandboxSettings.NONE.withFlag(null).kind());
    assertEquals(Kind.AUTO, SandboxSettings.NONE.withFlag("").kind());
    assertEquals(Kind.BWRAP, SandboxSettings.NONE.withFlag("bwrap").kind());
    assertEquals(Kind.SEATBELT, SandboxSettings.NONE.withFlag("Seatbelt").kind());
    assertEquals(Kind.NONE, SandboxSettings.NONE.withFlag("bwrap").withFlag("none").kind());
    assertEquals(Kind.AUTO_RUN, SandboxSettings.NONE.withFlag("auto-run").kind());
    assertEquals("auto-run", Kind.AUTO_RUN.configName());
    // --sandbox-network alone is on, as before; =off turns it off
    assertTrue(SandboxSettings.parseNetwork(""));
    assertTrue(SandboxSettings.parseNetwork("on"));
    assertFalse(SandboxSettings.parseNetwork("off"));
    assertFalse(SandboxSettings.parseNetwork("false"));
    assertEquals("'maybe' is not on or off",
        assertThrows(IllegalArgumentException.class, () -> SandboxSettings.parseNetwork("maybe")).getMessage());
    assertTrue(SandboxSettings.NONE.withFlag("bwrap").withNetwork(true).network());
  }

  @Test
  void anUnknownKindIsRejectedWithTheChoices() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Kind.parse("firejail"));
    assertEquals("unknown sandbox 'firejail': use auto-run, none, bwrap, docker, seatbelt or auto", e.getMessage());
    IllegalArgumentException fromConfig = assertThrows(IllegalArgumentException.class, () -> SandboxSettings.from(
        ConfigFactory.parseMap(Map.of("interpreter4j.sandbox.kind", "jail")).withFallback(ConfigFactory.load())));
    assertTrue(fromConfig.getMessage().startsWith("interpreter4j.sandbox.kind: unknown sandbox 'jail'"),
        fromConfig.getMessage());
    assertThrows(IllegalArgumentException.class, () -> VenvMode.parse("global"));
  }

  @Test
  void autoIsThePlatformsSandbox() {
    assertEquals(Kind.BWRAP, Kind.platformDefault("Linux"));
    assertEquals(Kind.SEATBELT, Kind.platformDefault("Mac OS X"));
    assertEquals(Kind.NONE, Kind.platformDefault("Windows 11"));
    String os = System.getProperty("os.name");
    assertEquals(Kind.platformDefault(os), SandboxSettings.NONE.withKind(Kind.AUTO).resolvedKind());
    assertEquals(Kind.platformDefault(os), SandboxSettings.NONE.withKind(Kind.AUTO_RUN).resolvedKind());
  }

  @Test
  void ofBuildsTheNamedSandbox() {
    assertEquals("none", Sandbox.of(SandboxSettings.NONE).name());
    assertEquals("bwrap", Sandbox.of(SandboxSettings.NONE.withKind(Kind.BWRAP)).name());
    assertEquals("docker", Sandbox.of(SandboxSettings.NONE.withKind(Kind.DOCKER)).name());
    assertEquals("seatbelt", Sandbox.of(SandboxSettings.NONE.withKind(Kind.SEATBELT)).name());
    assertInstanceOf(NoSandbox.class, Sandbox.none());
    Sandbox none = Sandbox.none();
    none.check();
    assertEquals(List.of("python3", "-c", "1"), none.wrap(List.of("python3", "-c", "1"), Path.of("/w"), Path.of("/s")));
    assertEquals("", none.promptSentence());
  }
}
