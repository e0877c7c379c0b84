package io.interpreter4j.core.safety.analysis;

import java.util.Objects;

/**
 * One finding of the danger analysis.
 *
 * @param level  how dangerous this finding alone is
 * @param rule   a stable id such as {@code rm-recursive-home}, for configuration, logs and tests
 * @param reason a short human sentence such as "recursive delete of the home directory"
 */
public record Flag(Level level, String rule, String reason) {

  public Flag {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(reason, "reason");
  }

  public static Flag high(String rule, String reason) {
    return new Flag(Level.HIGH, rule, reason);
  }

  public static Flag medium(String rule, String reason) {
    return new Flag(Level.MEDIUM, rule, reason);
  }
}
