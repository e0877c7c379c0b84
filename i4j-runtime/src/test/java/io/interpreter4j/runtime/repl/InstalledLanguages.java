package io.interpreter4j.runtime.repl;

import io.interpreter4j.core.testing.RequiredTool;

/**
 * A test's need for a language's interpreter, through {@link RequiredTool}: skipped where it is missing, failed
 * under {@code I4J_REQUIRE_ALL=true} (CI, which installs every one of them it can). PowerShell and AppleScript are
 * exempt: no CI machine can have them.
 */
public final class InstalledLanguages {

  private InstalledLanguages() {}

  /** Nothing when {@code language} is installed according to {@code registry}; otherwise skips or fails the test. */
  public static void assume(LanguageRegistry registry, String language) {
    boolean present = registry.installed(language).isPresent();
    switch (language) {
      // exempt: pwsh comes only from Microsoft's own package repository; CI reaches Debian's packages alone
      case "powershell" -> RequiredTool.exempt(present, "pwsh (PowerShell 7)", "no Debian package provides it");
      // exempt: osascript is macOS's own, and CI runs Linux
      case "applescript" -> RequiredTool.exempt(present, "osascript",
          "AppleScript needs macOS; this is " + System.getProperty("os.name"));
      case "r" -> RequiredTool.assume(present, "R (Rscript on the PATH)", "apt-get install r-base-core");
      case "ruby" -> RequiredTool.assume(present, "ruby", "apt-get install ruby");
      case "javascript" -> RequiredTool.assume(present, "node", "apt-get install nodejs");
      case "perl" -> RequiredTool.assume(present, "perl", "apt-get install perl");
      case "java" -> RequiredTool.assume(present, "the jdk.jshell module of this JVM",
          "run the tests on a JDK, not a JRE");
      default -> RequiredTool.assume(present, language + "'s interpreter", "install it and put it on the PATH");
    }
  }
}
