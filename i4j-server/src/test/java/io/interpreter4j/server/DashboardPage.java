package io.interpreter4j.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the dashboard's browser tests share: one real server and one headless Chromium per test class, every test
 * skipped with the reason when Chromium is missing (failed in CI), and no test passes while the page logs errors.
 */
abstract class DashboardPage {
  @TempDir static Path tmp;
  static TestServer server;
  static Browser browser;

  @BeforeAll
  static void startServerAndBrowser() throws Exception {
    if (!Browser.installed()) {
      return; // each test says why: needsTheBrowser (a skip of the whole class would show nothing)
    }
    server = new TestServer(tmp.resolve("server"));
    browser = new Browser(tmp.resolve("chromium"), 1400, 900);
  }

  @AfterAll
  static void stopServerAndBrowser() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
    if (server != null) {
      server.close();
      server = null;
    }
  }

  @BeforeEach
  void needsTheBrowser() {
    Browser.assumeInstalled();
  }

  @AfterEach
  void noScriptErrors() {
    if (browser != null) {
      List<String> errors = browser.consoleErrors();
      assertTrue(errors.isEmpty(), "the dashboard logged errors: " + errors);
    }
  }
}
