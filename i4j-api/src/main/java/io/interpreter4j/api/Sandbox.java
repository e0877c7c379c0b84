package io.interpreter4j.api;

/**
 * Where a session's interpreters run (the {@code interpreter4j.sandbox.kind} setting; see docs/safety.md). A named
 * sandbox that cannot run on this machine makes {@link Interpreter.Builder#build()} fail; it is never skipped.
 */
public enum Sandbox {
  /** The default: the platform's sandbox for auto-run sessions, none for sessions whose blocks are approved. */
  AUTO_RUN("auto-run"),
  /** The platform's sandbox (bubblewrap on Linux, seatbelt on macOS) for every session. */
  AUTO("auto"),
  /** No sandbox: the code runs as the user, in the working directory. */
  NONE("none"),
  /** bubblewrap (Linux). */
  BWRAP("bwrap"),
  /** A Docker container. */
  DOCKER("docker"),
  /** macOS's sandbox-exec. */
  SEATBELT("seatbelt");

  private final String setting;

  Sandbox(String setting) {
    this.setting = setting;
  }

  /**
   * The value of the {@code interpreter4j.sandbox.kind} setting.
   *
   * @return the setting's value, e.g. {@code "bwrap"}
   */
  public String setting() {
    return setting;
  }
}
