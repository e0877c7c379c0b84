package io.interpreter4j.runtime.sandbox;

import io.interpreter4j.core.config.Settings.ApprovalMode;
import java.util.Optional;

/**
 * Which sandbox a session's code runs in, by who approves its blocks. With {@code kind = auto-run} (the default),
 * code that runs without asking (approval mode auto: {@code -y}, {@code autoRun} sessions of the server, batches with
 * {@code -y}) runs in the platform's sandbox, and code a person approves block by block runs as it is; where the
 * platform's sandbox cannot run, auto-run code runs unconfined and {@link #autoRunNotice()} says so. Any other kind
 * applies to every session alike: {@code none} confines nothing (and says so for auto-run code), a named sandbox that
 * cannot run is an error ({@link #check()}), never skipped.
 */
public final class Containment {

  private final SandboxSettings settings;
  private final MaskedPaths masked;
  /** The platform's or the named sandbox (none for kind none); probed at most once, by its own availability(). */
  private final Sandbox sandbox;

  private Containment(SandboxSettings settings, MaskedPaths masked, Sandbox sandbox) {
    this.settings = settings;
    this.masked = masked;
    this.sandbox = sandbox;
  }

  /** The containment the settings describe, hiding {@code masked} from sandboxed code. */
  public static Containment of(SandboxSettings settings, MaskedPaths masked) {
    return new Containment(settings, masked, Sandbox.of(settings, masked));
  }

  /** The containment the settings describe, with this sandbox standing for the one they name (tests). */
  static Containment of(SandboxSettings settings, Sandbox sandbox) {
    return new Containment(settings, sandbox.masked(), sandbox);
  }

  /** One sandbox for every session, whatever its approval mode (a test's or an embedder's explicit choice). */
  public static Containment fixed(Sandbox sandbox) {
    SandboxSettings.Kind kind = switch (sandbox.name()) {
      case "none" -> SandboxSettings.Kind.NONE;
      case "bwrap" -> SandboxSettings.Kind.BWRAP;
      case "docker" -> SandboxSettings.Kind.DOCKER;
      case "seatbelt" -> SandboxSettings.Kind.SEATBELT;
      default -> SandboxSettings.Kind.AUTO;
    };
    return new Containment(new SandboxSettings(kind, sandbox.network(), null), sandbox.masked(), sandbox);
  }

  public SandboxSettings settings() {
    return settings;
  }

  public MaskedPaths masked() {
    return masked;
  }

  /** Whether the sandbox depends on the approval mode (kind auto-run). */
  public boolean followsApprovalMode() {
    return settings.kind() == SandboxSettings.Kind.AUTO_RUN;
  }

  /** The sandbox of a session created in this approval mode. */
  public Sandbox forMode(ApprovalMode mode) {
    return mode == ApprovalMode.AUTO ? forAutoRun() : forAsk();
  }

  /**
   * The sandbox of code that runs without asking: with kind auto-run the platform's sandbox when it can run here
   * (probed once, blocking, on the first call), else none.
   */
  public Sandbox forAutoRun() {
    if (followsApprovalMode() && sandbox.availability().isPresent()) {
      return Sandbox.none();
    }
    return sandbox;
  }

  /** The sandbox of code a person approves block by block: none with kind auto-run. */
  public Sandbox forAsk() {
    return followsApprovalMode() ? Sandbox.none() : sandbox;
  }

  /** The sandbox the settings name (the platform's for auto and auto-run), whether or not it can run here. */
  public Sandbox platformSandbox() {
    return sandbox;
  }

  /**
   * Throws {@link IllegalStateException} with the reason and the fix when a sandbox named for every session cannot
   * run here. Kind auto-run never throws: its sandbox is a default, and {@link #autoRunNotice()} says when it is
   * missing.
   */
  public void check() {
    if (!followsApprovalMode()) {
      sandbox.check();
    }
  }

  /**
   * What to say once, when code will run without asking, if it runs unconfined: the sandbox was turned off, or none
   * can run here (why, and how to get one). Empty when auto-run code runs in a sandbox. May probe (blocking).
   */
  public Optional<String> autoRunNotice() {
    if (settings.kind() == SandboxSettings.Kind.NONE) {
      return Optional.of("the sandbox is off (--sandbox=none or interpreter4j.sandbox.kind = none): code that runs "
          + "without asking runs unconfined, with the danger analysis alone between it and your files and secrets");
    }
    if (followsApprovalMode()) {
      return sandbox.availability().map(why -> "no sandbox can run here (" + why + "): code that runs without asking "
          + "runs unconfined, with the danger analysis alone between it and your files and secrets; 'i4j doctor' "
          + "shows what protects you");
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "Containment[" + settings.kind().configName() + ", " + sandbox + "]";
  }
}
