package io.interpreter4j.core.safety.analysis;

/** Where a path a command acts on lies, as the rule families judge it. */
public enum Place {
  /** Inside the working folder, or a folder the block or its session made (a temporary folder it created). */
  PROJECT,
  /** The working folder itself. */
  WORKDIR,
  /** The home folder itself. */
  HOME,
  /** A dot-file or dot-folder of the home folder (settings, keys, start-up files). */
  HOME_DOT,
  /** Other files of the user under the home folder, outside the project. */
  HOME_FILES,
  /** A folder holding the home or the working folder ({@code /home}, the project's parent). */
  ABOVE,
  /** A system folder ({@code /etc}, {@code /usr}, {@code /var}...). */
  SYSTEM,
  /** The root folder. */
  ROOT,
  /** A disk or other device under {@code /dev}. */
  DEVICE,
  /** Somewhere else ({@code /tmp/x} the block did not make). */
  ELSEWHERE,
  /** Not known when the block is read (a variable without a value). */
  UNKNOWN;

  /** Places whose loss or change hurts the user or the machine beyond the project. */
  public boolean isProtected() {
    return switch (this) {
      case HOME, HOME_DOT, HOME_FILES, ABOVE, SYSTEM, ROOT, DEVICE -> true;
      default -> false;
    };
  }

  /** A short name for reasons: "the home folder", "a system folder". */
  public String describe() {
    return switch (this) {
      case PROJECT -> "the project";
      case WORKDIR -> "the working folder";
      case HOME -> "the home folder";
      case HOME_DOT -> "the home folder's dot-files";
      case HOME_FILES -> "the user's files";
      case ABOVE -> "a folder holding the home or working folder";
      case SYSTEM -> "a system folder";
      case ROOT -> "/";
      case DEVICE -> "a device";
      case ELSEWHERE -> "a folder outside the project";
      case UNKNOWN -> "a folder not known in advance";
    };
  }
}
