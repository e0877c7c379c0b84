package io.interpreter4j.cli;

import io.interpreter4j.core.config.Settings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options of commands that only read the data folder ({@code sessions}, {@code show}). */
final class DataOptions {

  @Option(names = "--config", paramLabel = "FILE",
      description = "HOCON config file (default: $XDG_CONFIG_HOME/interpreter4j/config.conf if present).")
  Path config;

  @Option(names = "--profile", paramLabel = "NAME", description = "Use a profile (it may set the data folder).")
  String profile;

  Settings settings() {
    return SessionLauncher.settingsOnly(config, profile, System.getenv());
  }

  /** The configuration with these flags over it. */
  com.typesafe.config.Config config(java.util.Map<String, Object> overrides) {
    return SessionLauncher.configOnly(config, profile, overrides, System.getenv());
  }
}
