package io.interpreter4j.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.runtime.QuietPekko;

/** Actor-system settings for the harness: warnings only, no shutdown hooks of its own. */
public final class Quiet {
  public static final Config CONFIG = QuietPekko.CONFIG.withFallback(ConfigFactory.load());

  private Quiet() {}

  /**
   * The quiet settings over {@code config}, whose own settings win over every default. Not
   * {@code CONFIG.withFallback(config)}: there the defaults in {@code CONFIG} (the sandbox {@code auto-run}, the data
   * folder in the user's home) hid the section's own settings, and the sessions ran in bwrap.
   */
  public static Config over(Config config) {
    return QuietPekko.CONFIG.withFallback(config).withFallback(ConfigFactory.load());
  }
}
