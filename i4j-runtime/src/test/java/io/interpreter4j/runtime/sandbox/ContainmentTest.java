package io.interpreter4j.runtime.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.config.Settings.ApprovalMode;
import io.interpreter4j.runtime.sandbox.SandboxSettings.Kind;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Which sandbox a session gets by its approval mode, and what is said when auto-run code runs unconfined. */
class ContainmentTest {

  static final MaskedPaths SSH = MaskedPaths.of(List.of(Path.of("/home/u/.ssh")), List.of());

  @Test
  void autoRunPutsCodeThatRunsWithoutAskingInThePlatformsSandboxAndAskSessionsInNone() {
    Sandbox bwrap = RequiredBwrap.sandbox(true);
    Containment containment = Containment.of(SandboxSettings.DEFAULT, SSH);
    assertEquals("bwrap", containment.forMode(ApprovalMode.AUTO).name());
    assertEquals(bwrap.name(), containment.forAutoRun().name());
    assertSame(Sandbox.none(), containment.forMode(ApprovalMode.ASK));
    assertSame(containment.forAutoRun(), containment.forAutoRun(), "one sandbox, probed once");
    assertEquals(SSH, containment.forAutoRun().masked());
    assertTrue(containment.forAutoRun().network(), "the network is on by default");
    assertEquals(Optional.empty(), containment.autoRunNotice());
    containment.check();
  }

  @Test
  @EnabledOnOs(value = OS.LINUX, disabledReason = "the platform's sandbox here is bwrap")
  void whereThePlatformsSandboxCannotRunAutoRunCodeRunsUnconfinedAndItIsSaidWhy() {
    Containment containment = Containment.of(SandboxSettings.DEFAULT, new BubblewrapSandbox(true, null));
    assertSame(Sandbox.none(), containment.forAutoRun());
    assertSame(Sandbox.none(), containment.forAsk());
    containment.check(); // a default, not a request: no error
    assertEquals(Optional.of("no sandbox can run here (bwrap not found: install bubblewrap (apt-get install "
        + "bubblewrap) or run with --sandbox=none): code that runs without asking runs unconfined, with the danger "
        + "analysis alone between it and your files and secrets; 'i4j doctor' shows what protects you"),
        containment.autoRunNotice());
  }

  @Test
  void noneConfinesNothingAndSaysSoForAutoRunCode() {
    Containment containment = Containment.of(SandboxSettings.DEFAULT.withKind(Kind.NONE), SSH);
    assertSame(Sandbox.none(), containment.forAutoRun());
    assertSame(Sandbox.none(), containment.forAsk());
    assertEquals(Optional.of("the sandbox is off (--sandbox=none or interpreter4j.sandbox.kind = none): code that "
        + "runs without asking runs unconfined, with the danger analysis alone between it and your files and "
        + "secrets"), containment.autoRunNotice());
  }

  @Test
  void aNamedSandboxIsEverySessionsAndIsAnErrorWhereItCannotRun() {
    Sandbox missing = new BubblewrapSandbox(false, null);
    Containment containment = Containment.of(SandboxSettings.NONE.withKind(Kind.BWRAP), missing);
    assertSame(missing, containment.forAutoRun());
    assertSame(missing, containment.forAsk());
    IllegalStateException e = assertThrows(IllegalStateException.class, containment::check);
    assertTrue(e.getMessage().startsWith("bwrap not found"), e.getMessage());
    assertEquals(Optional.empty(), containment.autoRunNotice(), "the error says it, at start");
  }

  @Test
  void fixedIsOneSandboxWhateverTheMode() {
    Sandbox seatbelt = new SeatbeltSandbox(false);
    Containment containment = Containment.fixed(seatbelt);
    assertSame(seatbelt, containment.forMode(ApprovalMode.ASK));
    assertSame(seatbelt, containment.forMode(ApprovalMode.AUTO));
    assertEquals(Kind.SEATBELT, containment.settings().kind());
    assertSame(Sandbox.none(), Containment.fixed(Sandbox.none()).forAutoRun());
  }
}
