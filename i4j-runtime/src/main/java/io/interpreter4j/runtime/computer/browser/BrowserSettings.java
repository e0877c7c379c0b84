package io.interpreter4j.runtime.computer.browser;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Typed view of {@code interpreter4j.browser { }}: the Chromium that computer use drives and where it may go. The
 * CLI's {@code --browser-headed} overrides {@code headed} through {@link #withHeaded}.
 *
 * @param executable        the Chromium to run; empty: the first of chromium, chromium-browser, google-chrome-stable,
 *                          google-chrome on the PATH
 * @param headed            show the browser on the session's display instead of running it headless
 * @param domains           allowed-domains and blocked-domains
 * @param viewportWidth     the page's width in CSS pixels (screenshots have this size)
 * @param viewportHeight    the page's height in CSS pixels
 * @param actionTimeout     the longest one step of an action (a click, typing, a snapshot) may wait for the page
 * @param navigationTimeout the longest a navigation (go, a click that loads a page) may take
 * @param snapshotMaxChars  the longest snapshot() and text() results; the rest is cut with a note
 * @param maxQueued         actions that may wait while one runs; more are refused as busy
 */
public record BrowserSettings(String executable, boolean headed, DomainPolicy domains, int viewportWidth,
    int viewportHeight, Duration actionTimeout, Duration navigationTimeout, int snapshotMaxChars, int maxQueued) {

  /** As reference.conf has it. */
  public static final BrowserSettings DEFAULT = new BrowserSettings("", false, DomainPolicy.OPEN, 1280, 800,
      Duration.ofSeconds(10), Duration.ofSeconds(30), 20_000, 16);

  /** The names looked for on the PATH when {@code executable} is empty. */
  public static final List<String> CHROMIUM_NAMES =
      List.of("chromium", "chromium-browser", "google-chrome-stable", "google-chrome");

  public BrowserSettings {
    executable = executable == null ? "" : executable.strip();
    Objects.requireNonNull(domains, "domains");
    positive("viewport width", viewportWidth);
    positive("viewport height", viewportHeight);
    positive("snapshot-max-chars", snapshotMaxChars);
    positive("max-queued", maxQueued);
    if (actionTimeout.isNegative() || actionTimeout.isZero() || navigationTimeout.isNegative()
        || navigationTimeout.isZero()) {
      throw new IllegalArgumentException("interpreter4j.browser: timeouts must be positive");
    }
  }

  /** Reads {@code interpreter4j.browser} from a config whose defaults come from reference.conf. */
  public static BrowserSettings from(Config root) {
    try {
      Config c = root.getConfig("interpreter4j.browser");
      int[] viewport = viewport(c.getString("viewport"));
      return new BrowserSettings(c.getString("executable"), c.getBoolean("headed"),
          new DomainPolicy(c.getStringList("allowed-domains"), c.getStringList("blocked-domains")), viewport[0],
          viewport[1], c.getDuration("action-timeout"), c.getDuration("navigation-timeout"),
          c.getInt("snapshot-max-chars"), c.getInt("max-queued"));
    } catch (ConfigException e) {
      throw new IllegalArgumentException("invalid configuration: " + e.getMessage(), e);
    }
  }

  /** {@code --browser-headed}: the browser shows on the session's display. */
  public BrowserSettings withHeaded(boolean value) {
    return new BrowserSettings(executable, value, domains, viewportWidth, viewportHeight, actionTimeout,
        navigationTimeout, snapshotMaxChars, maxQueued);
  }

  public BrowserSettings withDomains(DomainPolicy value) {
    return new BrowserSettings(executable, headed, value, viewportWidth, viewportHeight, actionTimeout,
        navigationTimeout, snapshotMaxChars, maxQueued);
  }

  public BrowserSettings withExecutable(String value) {
    return new BrowserSettings(value, headed, domains, viewportWidth, viewportHeight, actionTimeout,
        navigationTimeout, snapshotMaxChars, maxQueued);
  }

  /**
   * The Chromium to launch: {@code executable} when set (it must exist), else the first of {@link #CHROMIUM_NAMES} on
   * the PATH; empty when there is none.
   */
  public Optional<Path> chromium() {
    if (!executable.isEmpty()) {
      Path given = Path.of(executable);
      return Files.isExecutable(given) ? Optional.of(given) : Subprocess.executable(executable);
    }
    return CHROMIUM_NAMES.stream().map(Subprocess::executable).flatMap(Optional::stream).findFirst();
  }

  /** What to tell the model and the user when {@link #chromium()} is empty. */
  public String chromiumMissing() {
    return executable.isEmpty()
        ? "no Chromium found on the PATH (looked for " + String.join(", ", CHROMIUM_NAMES) + "): install it "
            + "(apt-get install chromium) or set interpreter4j.browser.executable"
        : "interpreter4j.browser.executable " + executable + " is not an executable file: install Chromium "
            + "(apt-get install chromium) or fix the setting";
  }

  /** "1280x800". */
  static int[] viewport(String value) {
    String[] parts = value.strip().toLowerCase(java.util.Locale.ROOT).split("x");
    try {
      if (parts.length == 2) {
        return new int[] {Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip())};
      }
    } catch (NumberFormatException e) {
      // falls through to the error below
    }
    throw new IllegalArgumentException("interpreter4j.browser.viewport: '" + value + "' is not WIDTHxHEIGHT, e.g. "
        + "\"1280x800\"");
  }

  private static void positive(String what, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException("interpreter4j.browser: " + what + " must be positive, not " + value);
    }
  }
}
