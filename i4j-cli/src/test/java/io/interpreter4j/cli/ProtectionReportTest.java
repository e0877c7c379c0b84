package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.runtime.repl.VenvMode;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The doctor's report from a configuration, without a sandbox probe (the sandbox is off). */
class ProtectionReportTest {

  static final Map<String, String> ENV = Map.of("HOME", "/home/u", "OPENAI_API_KEY", "sk-test-0123456789");

  static Settings settings(boolean allowAll) {
    return Settings.from(ConfigFactory.parseMap(Map.of("interpreter4j.approval.dangerously-allow-all", allowAll))
        .withFallback(ConfigFactory.load()), Map.of());
  }

  static ProtectionReport report(boolean allowAll, int deny, VenvMode venv) {
    Containment off = Containment.of(SandboxSettings.DEFAULT.withKind(SandboxSettings.Kind.NONE).withNetwork(false),
        MaskedPaths.of(List.of(Path.of("/home/u/.ssh")), List.of()));
    return ProtectionReport.of(off, settings(allowAll), deny, 0, 0, venv, ENV);
  }

  private static ProtectionReport.Protection row(ProtectionReport report, String name) {
    return report.protections().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void withEverythingOffEachMissingProtectionComesWithHowToGetIt() {
    ProtectionReport report = report(true, 0, VenvMode.OFF);
    assertFalse(row(report, "sandbox").active());
    assertTrue(row(report, "sandbox").detail().startsWith("off (interpreter4j.sandbox.kind = none"));
    assertFalse(row(report, "danger analysis").active());
    assertFalse(row(report, "approval rules").active());
    assertFalse(row(report, "isolated installs").active());
    assertFalse(row(report, "masked paths").active(), "nothing is hidden without a sandbox");
    assertEquals(List.of(
        "sandbox auto-run code: drop --sandbox=none, or set interpreter4j.sandbox.kind = auto-run",
        "let the danger analysis stop high-risk blocks: drop --dangerously-allow-all",
        "deny or ask about what must never run unattended: interpreter4j.approval.rules { deny = [...], ask = [...] } "
            + "(docs/safety.md)",
        "keep pip installs in the working folder: interpreter4j.python.venv = auto"), report.advice());
    assertTrue(report.text().contains("\nTo get the others:\n  - sandbox auto-run code: drop --sandbox=none"),
        report.text());
  }

  @Test
  void redactionCountsTheEnvironmentsSecretsAndRulesCount() {
    ProtectionReport report = report(false, 2, VenvMode.AUTO);
    assertTrue(row(report, "secret redaction").detail().contains("1 secret value of the environment"),
        row(report, "secret redaction").detail());
    assertTrue(row(report, "approval rules").active());
    assertEquals("2 deny, 0 ask, 0 allow (interpreter4j.approval.rules)", row(report, "approval rules").detail());
    assertTrue(row(report, "danger analysis").active());
    assertTrue(row(report, "isolated installs").active());
    assertTrue(row(report, "inherited secrets").active());
    assertTrue(row(report, "inherited secrets").detail().contains("withheld here: OPENAI_API_KEY"),
        row(report, "inherited secrets").detail());
    assertEquals(List.of("sandbox auto-run code: drop --sandbox=none, or set interpreter4j.sandbox.kind = auto-run"),
        report.advice());
  }

  @Test
  void theJsonFormHoldsTheSandboxFactsTheRowsAndTheAdvice() {
    JsonNode json = report(false, 0, VenvMode.AUTO).json();
    assertEquals("none", json.path("sandbox").path("kind").asText());
    assertEquals("not run", json.path("sandbox").path("probe").asText());
    assertEquals("none", json.path("sandbox").path("auto_run").asText());
    assertFalse(json.path("sandbox").path("network").asBoolean());
    assertEquals("[\"~/.ssh\"]", json.path("sandbox").path("masked_paths").toString());
    assertEquals(9, json.path("protections").size());
    assertEquals("sandbox", json.path("protections").get(0).path("name").asText());
    assertEquals(2, json.path("advice").size());
  }

  @Test
  void aMissingBwrapIsInstalledAndARefusedOneFixedAsItsReasonSays() {
    assertEquals("install bubblewrap: apt-get install bubblewrap (dnf install bubblewrap, pacman -S bubblewrap)",
        ProtectionReport.fix("bwrap", "bwrap not found: install bubblewrap (apt-get install bubblewrap) or run with "
            + "--sandbox=none"));
    assertEquals("get the bwrap sandbox working: bwrap cannot create a sandbox here (x): fix that",
        ProtectionReport.fix("bwrap", "bwrap cannot create a sandbox here (x): fix that"));
  }
}
