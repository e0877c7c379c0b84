package io.interpreter4j.runtime.computer;

import java.util.Map;

/**
 * A session's computer use: its settings and the targets besides the screen, by name (the lead registers
 * {@code browser}); with none registered, a browser action fails with the reason.
 */
public record ComputerSpec(ComputerSettings settings, Map<String, TargetFactory> targets) {

  public static final ComputerSpec OFF = new ComputerSpec(ComputerSettings.OFF, Map.of());

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
    return new ComputerSpec(settings, all);
  }

  public ComputerSpec withSettings(ComputerSettings value) {
    return new ComputerSpec(value, targets);
  }
}
