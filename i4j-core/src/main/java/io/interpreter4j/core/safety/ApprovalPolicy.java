package io.interpreter4j.core.safety;

import io.interpreter4j.core.safety.analysis.Risk;
import java.util.Locale;
import java.util.Objects;

/**
 * Decides whether a code block runs, asks the user, or is refused, from the approval mode, whether a human can
 * answer, the user's rules and the danger analysis. Pure: the approval gate (an actor) only wraps it.
 *
 * <p>Rows are checked top to bottom; the first that applies decides:
 * <table>
 *   <caption>Approval decision table</caption>
 *   <tr><th>#</th><th>condition</th><th>interactive</th><th>not interactive (batch, server)</th></tr>
 *   <tr><td>1</td><td>a deny rule matches a command</td><td>DENY</td><td>DENY</td></tr>
 *   <tr><td>2</td><td>dangerously allow all</td><td>RUN</td><td>RUN</td></tr>
 *   <tr><td>3</td><td>allow rules match every command (even HIGH risk)</td><td>RUN</td><td>RUN</td></tr>
 *   <tr><td>4</td><td>an ask rule matches a command</td><td>ASK_USER</td><td>DENY</td></tr>
 *   <tr><td>5</td><td>mode ASK</td><td>ASK_USER</td><td>ASK_USER</td></tr>
 *   <tr><td>6</td><td>mode AUTO, risk LOW or MEDIUM</td><td>RUN</td><td>RUN</td></tr>
 *   <tr><td>7</td><td>mode AUTO, risk HIGH</td><td>ASK_USER</td><td>DENY</td></tr>
 * </table>
 *
 * <p>Row 5 answers ASK_USER even without a terminal: in mode ASK every block waits for an answer, and a server
 * client gives it over the API; a batch run in mode ASK waits until its approval timeout. A DENY's reason reads
 * "blocked by policy: REASON; choose a safer way" so it can be shown to the model as the block's result.
 */
public final class ApprovalPolicy {

  /** ASK: every block needs approval. AUTO ({@code -y}): run unless the rules or the danger analysis object. */
  public enum Mode { ASK, AUTO }

  /** What happens to the block. */
  public enum Outcome { RUN, ASK_USER, DENY }

  /** Which row of the decision table decided: for logs, events and tests. */
  public enum Basis { DENY_RULE, ALLOW_ALL, ALLOW_RULE, ASK_RULE, ASK_MODE, AUTO_RISK }

  /**
   * The decision.
   *
   * @param outcome run, ask the user, or refuse
   * @param basis   the table row that decided
   * @param reason  for DENY the message for the model ("blocked by policy: ...; choose a safer way"), for ASK_USER
   *                what the user is asked about, for RUN why it may run
   */
  public record Decision(Outcome outcome, Basis basis, String reason) {

    public Decision {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(basis, "basis");
      Objects.requireNonNull(reason, "reason");
    }

    public boolean runs() {
      return outcome == Outcome.RUN;
    }
  }

  public Decision decide(Mode mode, boolean interactive, boolean dangerouslyAllowAll, PolicyDecision rules, Risk risk) {
    Objects.requireNonNull(mode, "mode");
    PolicyDecision r = rules == null ? PolicyDecision.none() : rules;
    Risk k = risk == null ? Risk.low() : risk;
    if (r.verdict() == PolicyDecision.Verdict.DENY) {
      return deny(Basis.DENY_RULE, ruleReason(r, "deny"));
    }
    if (dangerouslyAllowAll) {
      return new Decision(Outcome.RUN, Basis.ALLOW_ALL, "all code is allowed (dangerously allow all)");
    }
    if (r.verdict() == PolicyDecision.Verdict.ALLOW) {
      return new Decision(Outcome.RUN, Basis.ALLOW_RULE, "allowed by rule " + r.matchedRule());
    }
    if (r.verdict() == PolicyDecision.Verdict.ASK) {
      String why = ruleReason(r, "ask");
      return interactive ? new Decision(Outcome.ASK_USER, Basis.ASK_RULE, why)
          : deny(Basis.ASK_RULE, why + ", and nobody is there to approve it");
    }
    if (mode == Mode.ASK) {
      return new Decision(Outcome.ASK_USER, Basis.ASK_MODE, k.isHigh() ? k.reason() : "approval mode is ask");
    }
    if (!k.isHigh()) {
      return new Decision(Outcome.RUN, Basis.AUTO_RISK, "auto-run: " + k.level().name().toLowerCase(Locale.ROOT) + " risk");
    }
    return interactive ? new Decision(Outcome.ASK_USER, Basis.AUTO_RISK, k.reason()) : deny(Basis.AUTO_RISK, k.reason());
  }

  private static String ruleReason(PolicyDecision r, String kind) {
    return (r.command() == null ? "the block" : "\"" + r.command() + "\"") + " matches " + kind + " rule " + r.matchedRule();
  }

  private static Decision deny(Basis basis, String reason) {
    return new Decision(Outcome.DENY, basis, "blocked by policy: " + reason + "; choose a safer way");
  }
}
