package io.interpreter4j.core.testing;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A test's need for a tool of the machine: bwrap, tmux, an interpreter, a browser. Where the tool is missing, the test
 * is skipped with what is missing and how to install it; with {@code I4J_REQUIRE_ALL=true} in the environment (or
 * {@code -Di4j.require.all=true}), as {@code .ci/run} sets, it fails instead, so a green CI run never hides a test
 * that did not run. A tool that no CI machine can have (a Docker engine, macOS's sandbox-exec, PowerShell, which is
 * no Debian package) is declared with {@link #exempt}: skipped in either mode, with the reason.
 *
 * <p>Shared by the modules through i4j-core's test-jar.
 */
public final class RequiredTool {

  /** An on/off switch of the required mode: an environment variable and a system property, on when "true". */
  public record Switch(String variable, String property) {
    boolean on(Map<String, String> env, Properties properties) {
      return "true".equalsIgnoreCase(env.get(variable)) || "true".equalsIgnoreCase(properties.getProperty(property));
    }
  }

  /** The switch CI sets: every tool a test needs must be there. */
  public static final Switch REQUIRE_ALL = new Switch("I4J_REQUIRE_ALL", "i4j.require.all");

  private final boolean required;

  public RequiredTool(boolean required) {
    this.required = required;
  }

  /**
   * The mode given by {@code env} and {@code properties}: required when {@link #REQUIRE_ALL} or any of
   * {@code alsoRequiredBy} (an older switch of one tool, such as {@code I4J_BROWSER_REQUIRED}) is on.
   */
  public static RequiredTool of(Map<String, String> env, Properties properties, Switch... alsoRequiredBy) {
    boolean on = REQUIRE_ALL.on(env, properties);
    for (Switch other : alsoRequiredBy) {
      on |= other.on(env, properties);
    }
    return new RequiredTool(on);
  }

  /** The mode of this test run, from its environment and system properties. */
  public static RequiredTool ofThisRun(Switch... alsoRequiredBy) {
    return of(System.getenv(), System.getProperties(), alsoRequiredBy);
  }

  /** Whether a missing tool fails the test. */
  public boolean required() {
    return required;
  }

  /**
   * Nothing when {@code present}; otherwise skips the calling test, or fails it in the required mode.
   *
   * @param what         the missing tool, as a person would look for it ("bwrap", "ruby")
   * @param howToInstall the command or step that brings it ("apt-get install bubblewrap")
   */
  public void need(boolean present, String what, String howToInstall) {
    if (present) {
      return;
    }
    String missing = what + " is missing here; install it: " + howToInstall;
    if (required) {
      Assertions.fail(missing + " (" + REQUIRE_ALL.variable() + "=true: a missing tool fails the test instead of "
          + "skipping it)");
    }
    Assumptions.assumeTrue(false, missing);
  }

  /** {@link #need} in the mode of this test run. */
  public static void assume(boolean present, String what, String howToInstall) {
    ofThisRun().need(present, what, howToInstall);
  }

  /**
   * A tool no CI machine can have: skips the calling test when it is missing, in either mode.
   *
   * @param whyExempt why CI cannot have it ("needs macOS")
   */
  public static void exempt(boolean present, String what, String whyExempt) {
    Assumptions.assumeTrue(present, () -> what + " is missing here (exempt from " + REQUIRE_ALL.variable() + ": "
        + whyExempt + ")");
  }
}
