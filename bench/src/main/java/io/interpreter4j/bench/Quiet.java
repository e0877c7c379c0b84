package io.interpreter4j.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.runtime.QuietPekko;

/** Actor-system settings for the harness: warnings only, no shutdown hooks of its own. */
public final class Quiet {
  public static final Config CONFIG = QuietPekko.CONFIG.withFallback(ConfigFactory.load());

  private Quiet() {}
}
