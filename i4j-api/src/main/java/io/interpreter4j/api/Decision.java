package io.interpreter4j.api;

import java.util.Objects;

/**
 * A verdict on a code block: what an {@link Approver} answers, and what the approval gate decided about a block that
 * ran or did not ({@link BlockRun#decision()}, {@link ExecResult#decision()}).
 *
 * @param kind   approved, denied, or approved with edited code
 * @param by     who decided: the danger analysis under auto-run, the user (an {@link Approver}), or a policy rule
 * @param code   the code that runs when {@code kind} is {@link Kind#EDITED}, else null
 * @param reason why, when known (a denial's reason, the rule that decided), else null
 */
public record Decision(Kind kind, DecidedBy by, String code, String reason) {

  /** What was decided. */
  public enum Kind {
    /** The block runs as written. */
    APPROVED,
    /** The block does not run. */
    DENIED,
    /** The block runs with the code of {@link Decision#code()} instead. */
    EDITED
  }

  /** Who decided. */
  public enum DecidedBy {
    /** The danger analysis, under auto-run. */
    AUTO,
    /** A person, or the {@link Approver} deciding for one. */
    USER,
    /** The approval rules or the safety policy. */
    POLICY
  }

  /**
   * Checks the fields.
   *
   * @param kind   what was decided
   * @param by     who decided
   * @param code   the edited code for {@link Kind#EDITED}
   * @param reason why, or null
   */
  public Decision {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(by, "by");
    if (kind == Kind.EDITED && (code == null || code.isBlank())) {
      throw new IllegalArgumentException("an edited decision needs the code to run instead");
    }
  }

  /**
   * Run the block as written.
   *
   * @return an approval by the user
   */
  public static Decision approve() {
    return new Decision(Kind.APPROVED, DecidedBy.USER, null, null);
  }

  /**
   * Do not run the block; the model is told {@code reason}.
   *
   * @param reason why not, for the model and the events
   * @return a denial by the user
   */
  public static Decision deny(String reason) {
    return new Decision(Kind.DENIED, DecidedBy.USER, null, reason);
  }

  /**
   * Run {@code code} instead of the block.
   *
   * @param code the code to run
   * @return an edited approval by the user
   */
  public static Decision edit(String code) {
    return new Decision(Kind.EDITED, DecidedBy.USER, code, null);
  }

  /**
   * Whether the block runs.
   *
   * @return true unless denied
   */
  public boolean runs() {
    return kind != Kind.DENIED;
  }
}
