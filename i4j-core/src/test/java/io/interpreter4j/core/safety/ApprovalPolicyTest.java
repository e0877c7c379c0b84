package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.safety.ApprovalPolicy.Basis;
import io.interpreter4j.core.safety.ApprovalPolicy.Decision;
import io.interpreter4j.core.safety.ApprovalPolicy.Mode;
import io.interpreter4j.core.safety.ApprovalPolicy.Outcome;
import io.interpreter4j.core.safety.PolicyDecision.Verdict;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Level;
import io.interpreter4j.core.safety.analysis.Risk;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The decision table of {@link ApprovalPolicy}, row by row and exhaustively. */
class ApprovalPolicyTest {

  private final ApprovalPolicy policy = new ApprovalPolicy();

  private static PolicyDecision rules(Verdict v) {
    return v == Verdict.NONE ? PolicyDecision.none() : new PolicyDecision(v, "bash:rule*", "rule x");
  }

  private static Risk risk(Level level) {
    return level == Level.LOW ? Risk.low() : Risk.of(List.of(new Flag(level, "test-rule", "does something " + level)));
  }

  /** The decision table of {@link ApprovalPolicy}, row by row, each for both interactivities where it matters. */
  @ParameterizedTest(name = "{0} interactive={1} allowAll={2} rules={3} risk={4} -> {5} by {6}")
  @CsvSource({
      // 1: deny rule wins over everything
      "AUTO, true,  true,  DENY,  LOW,    DENY,     DENY_RULE",
      "ASK,  false, false, DENY,  LOW,    DENY,     DENY_RULE",
      // 2: dangerously allow all
      "AUTO, false, true,  NONE,  HIGH,   RUN,      ALLOW_ALL",
      "ASK,  true,  true,  ASK,   HIGH,   RUN,      ALLOW_ALL",
      // 3: allow rules, even for HIGH risk
      "AUTO, false, false, ALLOW, HIGH,   RUN,      ALLOW_RULE",
      "ASK,  true,  false, ALLOW, LOW,    RUN,      ALLOW_RULE",
      // 4: ask rule
      "AUTO, true,  false, ASK,   LOW,    ASK_USER, ASK_RULE",
      "AUTO, false, false, ASK,   LOW,    DENY,     ASK_RULE",
      // 5: mode ASK
      "ASK,  true,  false, NONE,  LOW,    ASK_USER, ASK_MODE",
      "ASK,  false, false, NONE,  HIGH,   ASK_USER, ASK_MODE",
      // 6: AUTO, LOW or MEDIUM
      "AUTO, false, false, NONE,  LOW,    RUN,      AUTO_RISK",
      "AUTO, false, false, NONE,  MEDIUM, RUN,      AUTO_RISK",
      "AUTO, true,  false, NONE,  MEDIUM, RUN,      AUTO_RISK",
      // 7: AUTO, HIGH
      "AUTO, true,  false, NONE,  HIGH,   ASK_USER, AUTO_RISK",
      "AUTO, false, false, NONE,  HIGH,   DENY,     AUTO_RISK",
  })
  void followsTheTable(Mode mode, boolean interactive, boolean allowAll, Verdict verdict, Level level,
                       Outcome outcome, Basis basis) {
    Decision d = policy.decide(mode, interactive, allowAll, rules(verdict), risk(level));
    assertEquals(outcome, d.outcome());
    assertEquals(basis, d.basis());
  }

  @Test
  void everyCombinationGetsTheOutcomeOfTheFirstApplicableRow() {
    for (Mode mode : Mode.values()) {
      for (boolean interactive : new boolean[] {true, false}) {
        for (boolean allowAll : new boolean[] {true, false}) {
          for (Verdict v : Verdict.values()) {
            for (Level level : Level.values()) {
              Outcome expected;
              if (v == Verdict.DENY) {
                expected = Outcome.DENY;
              } else if (allowAll || v == Verdict.ALLOW) {
                expected = Outcome.RUN;
              } else if (v == Verdict.ASK) {
                expected = interactive ? Outcome.ASK_USER : Outcome.DENY;
              } else if (mode == Mode.ASK) {
                expected = Outcome.ASK_USER;
              } else if (level != Level.HIGH) {
                expected = Outcome.RUN;
              } else {
                expected = interactive ? Outcome.ASK_USER : Outcome.DENY;
              }
              Decision d = policy.decide(mode, interactive, allowAll, rules(v), risk(level));
              assertEquals(expected, d.outcome(), mode + " " + interactive + " " + allowAll + " " + v + " " + level);
            }
          }
        }
      }
    }
  }

  @Test
  void denialsTellTheModelWhyAndToChooseASaferWay() {
    Risk high = Risk.of(List.of(Flag.high("rm-recursive-home", "recursive delete of the home directory"),
        Flag.medium("x", "medium things are not listed")));
    Decision d = policy.decide(Mode.AUTO, false, false, PolicyDecision.none(), high);
    assertEquals("blocked by policy: recursive delete of the home directory; choose a safer way", d.reason());

    Decision rule = policy.decide(Mode.AUTO, true, false,
        new PolicyDecision(Verdict.DENY, "bash:git push*", "git push -f"), Risk.low());
    assertEquals("blocked by policy: \"git push -f\" matches deny rule bash:git push*; choose a safer way", rule.reason());

    Decision ask = policy.decide(Mode.AUTO, false, false,
        new PolicyDecision(Verdict.ASK, "bash:git push*", "git push"), Risk.low());
    assertTrue(ask.reason().startsWith("blocked by policy: \"git push\" matches ask rule bash:git push*"), ask.reason());
    assertTrue(ask.reason().endsWith("; choose a safer way"), ask.reason());
  }

  @Test
  void askingShowsTheRiskAndRunningSaysWhy() {
    Risk high = Risk.of(List.of(Flag.high("sudo", "runs as root with sudo")));
    assertEquals("runs as root with sudo", policy.decide(Mode.AUTO, true, false, null, high).reason());
    assertEquals("auto-run: medium risk",
        policy.decide(Mode.AUTO, false, false, null, risk(Level.MEDIUM)).reason());
    assertEquals("allowed by rule bash:rule*",
        policy.decide(Mode.AUTO, false, false, rules(Verdict.ALLOW), high).reason());
    assertTrue(policy.decide(Mode.AUTO, false, false, null, null).runs(), "no rules and no risk: LOW");
  }

  @Test
  void worksWithRealRulesAndAnalysis() {
    PolicyRules rules = PolicyRules.of(List.of("bash:git push --force*"), List.of(), List.of("bash:rm -rf ~/old-*"));
    DangerAnalyzer analyzer = new DangerAnalyzer();
    AnalysisContext ctx = DangerCases.CONTEXT;
    String[][] cases = {
        {"git push --force", "DENY"},
        {"rm -rf ~/old-builds", "RUN"},     // HIGH (outside the workdir) but explicitly allowed
        {"rm -rf ~/Documents", "DENY"},     // HIGH, unattended
        {"ls -la", "RUN"},
    };
    for (String[] c : cases) {
      Decision d = policy.decide(Mode.AUTO, false, false, rules.evaluate("bash", c[0]), analyzer.analyze("bash", c[0], ctx));
      assertEquals(Outcome.valueOf(c[1]), d.outcome(), c[0] + " -> " + d);
    }
  }
}
