package io.interpreter4j.runtime.computer;

import java.util.Map;

/**
 * A session's computer use: its settings, the targets besides the screen, by name (the lead registers
 * {@code browser}; with none registered, a browser action fails with the reason), and whether the session gets a
 * private screen even when {@code $DISPLAY} is set (tests that need a screen of a known size).
 */
public record ComputerSpec(ComputerSettings settings, Map<String, TargetFactory> targets, boolean privateScreen) {

  public static final ComputerSpec OFF = new ComputerSpec(ComputerSettings.OFF, Map.of(), false);

  public ComputerSpec(ComputerSettings settings, Map<String, TargetFactory> targets) {
    this(settings, targets, false);
  }

  /** Computer use as {@code settings} say, with no target besides the screen. */
  public static ComputerSpec of(ComputerSettings settings) {
    return new ComputerSpec(settings, Map.of(), false);
  }

  public ComputerSpec {
    settings = settings == null ? ComputerSettings.OFF : settings;
    targets = Map.copyOf(targets);
    if (targets.keySet().stream().anyMatch(ActionCatalog.DISPLAY_TARGETS::contains)) {
      throw new IllegalArgumentException("display, mouse and keyboard are the screen's own targets");
    }
  }

  public boolean enabled() {
    return settings.enabled();
  }

  /** This spec with {@code factory} serving the target {@code name} (e.g. "browser"). */
  public ComputerSpec withTarget(String name, TargetFactory factory) {
    java.util.HashMap<String, TargetFactory> all = new java.util.HashMap<>(targets);
    all.put(name, factory);
    return new ComputerSpec(settings, all, privateScreen);
  }

  public ComputerSpec withSettings(ComputerSettings value) {
    return new ComputerSpec(value, targets, privateScreen);
  }

  /** A private Xvfb of the configured size, whatever {@code $DISPLAY} says. */
  public ComputerSpec withPrivateScreen(boolean value) {
    return new ComputerSpec(settings, targets, value);
  }
}
