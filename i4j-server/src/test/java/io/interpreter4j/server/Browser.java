package io.interpreter4j.server;

import io.interpreter4j.core.testing.RequiredTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium driven by Selenium through Debian's chromedriver, for the dashboard tests. Both paths
 * are given explicitly, so Selenium Manager never runs and nothing is downloaded; the browser runs with its
 * background networking off and a throw-away profile. {@code -Di4j.chromium=...} and {@code -Di4j.chromedriver=...}
 * point elsewhere. Public, in the test-jar: i4j-cli's cluster dashboard test drives it too.
 */
public final class Browser implements AutoCloseable {
  public static final Path CHROMIUM = Path.of(System.getProperty("i4j.chromium", "/usr/bin/chromium"));
  public static final Path CHROMEDRIVER = Path.of(System.getProperty("i4j.chromedriver", "/usr/bin/chromedriver"));
  /** Generous, bounded: every wait of these tests ends well before this unless something is broken. */
  public static final Duration WAIT = Duration.ofSeconds(30);

  /** Where chromedriver's log and the screenshots of failed waits go (kept after the run). */
  static final Path ARTIFACTS = Path.of("target", "browser-test");

  public final ChromeDriver driver;

  /** The browser tests' own, older switch of the required mode; I4J_REQUIRE_ALL=true covers it. */
  static final RequiredTool.Switch BROWSER_REQUIRED = new RequiredTool.Switch("I4J_BROWSER_REQUIRED",
      "i4j.browser.required");

  /** Whether Chromium and chromedriver are there. */
  public static boolean installed() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  /**
   * Skips the calling test when Chromium or chromedriver is not installed, or fails it under
   * {@code I4J_REQUIRE_ALL=true} (or the older {@code I4J_BROWSER_REQUIRED=true}, {@code -Di4j.browser.required=true}).
   */
  public static void assumeInstalled() {
    RequiredTool required = RequiredTool.ofThisRun(BROWSER_REQUIRED);
    required.need(Files.isExecutable(CHROMIUM), "Chromium at " + CHROMIUM + " (for the dashboard browser tests)",
        "apt-get install chromium chromium-driver, or point -Di4j.chromium=PATH at one");
    required.need(Files.isExecutable(CHROMEDRIVER), "chromedriver at " + CHROMEDRIVER
        + " (for the dashboard browser tests)",
        "apt-get install chromium-driver, or point -Di4j.chromedriver=PATH at one");
  }

  /** Starts a headless Chromium whose window is width x height CSS pixels, with a new profile in profileDir. */
  public Browser(Path profileDir, int width, int height) throws IOException {
    Files.createDirectories(ARTIFACTS);
    // Selenium logs a warning per session when no CDP bindings match the browser's version; we never use CDP.
    Logger.getLogger("org.openqa.selenium").setLevel(Level.SEVERE);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort()
        .withLogFile(ARTIFACTS.resolve("chromedriver.log").toFile())
        .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-default-apps", "--disable-extensions", "--disable-domain-reliability",
        "--disable-client-side-phishing-detection", "--disable-features=Translate,OptimizationHints,MediaRouter",
        "--disable-component-extensions-with-background-pages", "--disable-field-trial-config",
        "--disable-breakpad", "--disable-search-engine-choice-screen",
        "--no-first-run", "--no-default-browser-check", "--metrics-recording-only", "--password-store=basic",
        // Even so Chromium looks up a few Google hosts at start (accounts.google.com, clients2.google.com): resolve
        // no name at all, the tests use 127.0.0.1 only.
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        "--hide-scrollbars", "--force-device-scale-factor=1", "--lang=en-US",
        "--user-data-dir=" + Files.createDirectories(profileDir),
        "--window-size=" + width + "," + height);
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    this.driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(WAIT).scriptTimeout(WAIT);
  }

  /** Logs this browser in with the token: {@code /?token=} sets the cookie and redirects to {@code /}. */
  void login(TestServer server) {
    login(server.base(), TestServer.TOKEN);
  }

  /** Logs this browser in to the server at {@code base} (http://host:port) with {@code token}. */
  public void login(String base, String token) {
    driver.get(base + "/?token=" + token);
    waitFor("the dashboard to load", d -> d.getCurrentUrl().equals(base + "/")
        && !d.findElements(By.cssSelector("[data-testid=sessions-table]")).isEmpty());
  }

  /** Waits (at most {@link #WAIT}) until condition is truthy and returns its value; stale elements are retried. */
  public <T> T waitFor(String what, Function<WebDriver, T> condition) {
    return new WebDriverWait(driver, WAIT)
        .ignoring(StaleElementReferenceException.class)
        .withMessage(() -> "waiting for " + what + "; page: " + describePage())
        .until(condition);
  }

  public WebElement waitFor(String what, By by) {
    return waitFor(what, d -> {
      List<WebElement> found = d.findElements(by);
      return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
    });
  }

  public void waitGone(String what, By by) {
    waitFor(what, d -> d.findElements(by).isEmpty());
  }

  /** The element's whole text (textContent: also what is scrolled out of sight). */
  public static String text(WebElement e) {
    String t = e.getDomProperty("textContent");
    return t == null ? "" : t;
  }

  public Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Console errors since the last call: uncaught exceptions and console.error calls. */
  public List<String> consoleErrors() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::toString).collect(Collectors.toList());
  }

  public void screenshot(Path png) throws IOException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    Files.write(png, driver.getScreenshotAs(OutputType.BYTES));
  }

  private String describePage() {
    try {
      Path png = ARTIFACTS.resolve("failure-" + System.currentTimeMillis() + ".png").toAbsolutePath();
      Files.write(png, driver.getScreenshotAs(OutputType.BYTES));
      String body = String.valueOf(js("return document.body ? document.body.innerText : ''"));
      if (body.length() > 3000) {
        body = body.substring(0, 3000) + "...";
      }
      return driver.getCurrentUrl() + " (screenshot " + png + ")\n" + body;
    } catch (RuntimeException | IOException e) {
      return "(could not describe the page: " + e + ")";
    }
  }

  @Override
  public void close() {
    driver.quit();
  }

}
