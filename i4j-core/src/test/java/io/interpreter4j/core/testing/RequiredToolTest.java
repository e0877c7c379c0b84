package io.interpreter4j.core.testing;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class RequiredToolTest {

  static final RequiredTool.Switch BROWSER = new RequiredTool.Switch("I4J_BROWSER_REQUIRED", "i4j.browser.required");

  static Properties properties(String name, String value) {
    Properties properties = new Properties();
    properties.setProperty(name, value);
    return properties;
  }

  @Test
  void locallyAMissingToolSkipsWithWhatAndHowToInstallIt() {
    RequiredTool local = new RequiredTool(false);
    TestAbortedException skipped = assertThrows(TestAbortedException.class,
        () -> local.need(false, "bwrap", "apt-get install bubblewrap"));
    assertEquals("Assumption failed: bwrap is missing here; install it: apt-get install bubblewrap",
        skipped.getMessage());
    assertDoesNotThrow(() -> local.need(true, "bwrap", "apt-get install bubblewrap"));
  }

  @Test
  void inTheRequiredModeAMissingToolFailsTheTest() {
    RequiredTool ci = new RequiredTool(true);
    AssertionFailedError failed = assertThrows(AssertionFailedError.class,
        () -> ci.need(false, "tmux", "apt-get install tmux"));
    assertEquals("tmux is missing here; install it: apt-get install tmux (I4J_REQUIRE_ALL=true: a missing tool "
        + "fails the test instead of skipping it)", failed.getMessage());
    assertDoesNotThrow(() -> ci.need(true, "tmux", "apt-get install tmux"));
  }

  @Test
  void theModeComesFromTheVariableOrTheProperty() {
    Properties none = new Properties();
    assertTrue(RequiredTool.of(Map.of("I4J_REQUIRE_ALL", "true"), none).required());
    assertTrue(RequiredTool.of(Map.of("I4J_REQUIRE_ALL", "TRUE"), none).required());
    assertTrue(RequiredTool.of(Map.of(), properties("i4j.require.all", "true")).required());
    assertFalse(RequiredTool.of(Map.of("I4J_REQUIRE_ALL", "false"), none).required());
    assertFalse(RequiredTool.of(Map.of("I4J_REQUIRE_ALL", "1"), none).required(), "only true turns it on");
    assertFalse(RequiredTool.of(Map.of(), none).required());
  }

  @Test
  void anOlderSwitchOfOneToolStillTurnsItOn() {
    Properties none = new Properties();
    assertTrue(RequiredTool.of(Map.of("I4J_BROWSER_REQUIRED", "true"), none, BROWSER).required());
    assertTrue(RequiredTool.of(Map.of(), properties("i4j.browser.required", "true"), BROWSER).required());
    assertFalse(RequiredTool.of(Map.of("I4J_BROWSER_REQUIRED", "true"), none).required(),
        "an older switch counts only for the tests that name it");
  }

  @Test
  void anExemptToolSkipsInEitherModeWithTheReason() {
    TestAbortedException skipped = assertThrows(TestAbortedException.class,
        () -> RequiredTool.exempt(false, "sandbox-exec", "needs macOS"));
    assertEquals("Assumption failed: sandbox-exec is missing here (exempt from I4J_REQUIRE_ALL: needs macOS)",
        skipped.getMessage());
    assertDoesNotThrow(() -> RequiredTool.exempt(true, "sandbox-exec", "needs macOS"));
  }
}
