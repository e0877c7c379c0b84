package io.interpreter4j.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * Actor-system settings for a program that embeds the runtime (the CLI, batches, the harness, tests): Pekko logs
 * only warnings, on stderr, nothing of the actor system on stdout (which may carry {@code --json} events), no dead
 * letter noise, and no JVM shutdown hook of its own (the program stops its system itself).
 */
public final class QuietPekko {
  /** Put first: {@code QuietPekko.CONFIG.withFallback(yourConfig)}. */
  public static final Config CONFIG = ConfigFactory.parseString("""
      pekko.loglevel = WARNING
      pekko.stdout-loglevel = OFF
      pekko.log-dead-letters = off
      pekko.log-dead-letters-during-shutdown = off
      pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
      pekko.jvm-shutdown-hooks = off
      """);

  private QuietPekko() {}
}
