package io.interpreter4j.core.safety.analysis;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The danger analysis of one code block: its overall level (the highest flag's, LOW when none) and the flags
 * that led to it.
 */
public record Risk(Level level, List<Flag> flags) {

  private static final Risk NONE = new Risk(Level.LOW, List.of());

  public Risk {
    flags = List.copyOf(flags);
  }

  /** No findings. */
  public static Risk low() {
    return NONE;
  }

  /** A risk whose level is the highest of the flags'. */
  public static Risk of(List<Flag> flags) {
    Level level = Level.LOW;
    for (Flag f : flags) {
      level = level.max(f.level());
    }
    return new Risk(level, flags);
  }

  public boolean isHigh() {
    return level == Level.HIGH;
  }

  /** The HIGH flags' reasons joined with "; " (empty when nothing is HIGH): what a user or model is told. */
  public String reason() {
    return flags.stream()
        .filter(f -> f.level() == Level.HIGH)
        .map(Flag::reason)
        .distinct()
        .collect(Collectors.joining("; "));
  }
}
