package io.interpreter4j.core.safety;

/**
 * What the configured approval rules say about a code block.
 *
 * @param verdict     DENY, ASK or ALLOW when a rule decided, NONE when the rules have no opinion
 * @param matchedRule the rule that decided, as configured ("bash:git push*"); for ALLOW the distinct rules that
 *                    matched, comma-separated; null for NONE
 * @param command     the command that decided: the denied or asked one, for NONE the first one no allow rule
 *                    covers; for ALLOW the whole block; null when there is nothing to say
 */
public record PolicyDecision(Verdict verdict, String matchedRule, String command) {

  /** The rules' verdict; NONE leaves the decision to the approval mode and the danger analysis. */
  public enum Verdict { DENY, ASK, ALLOW, NONE }

  private static final PolicyDecision NONE = new PolicyDecision(Verdict.NONE, null, null);

  public PolicyDecision {
    java.util.Objects.requireNonNull(verdict, "verdict");
  }

  public static PolicyDecision none() {
    return NONE;
  }
}
