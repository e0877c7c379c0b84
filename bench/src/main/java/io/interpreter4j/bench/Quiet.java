package io.interpreter4j.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/** Actor-system settings for the harness: warnings only, no shutdown hooks of its own. */
public final class Quiet {
  public static final Config CONFIG = ConfigFactory.parseString("""
      pekko.loglevel = WARNING
      pekko.stdout-loglevel = OFF
      pekko.log-dead-letters = off
      pekko.log-dead-letters-during-shutdown = off
      pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
      pekko.jvm-shutdown-hooks = off
      """).withFallback(ConfigFactory.load());

  private Quiet() {}
}
