package io.interpreter4j.runtime.approval;

import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.DangerAnalyzer;
import io.interpreter4j.core.safety.PolicyRules;

/**
 * What the approval gate decides on besides the mode: the danger analysis (from {@code core/safety}), the user's
 * rules, whether a person can be asked (a terminal), and {@code --dangerously-allow-all}.
 */
public record ApprovalInputs(DangerAnalyzer analyzer, PolicyRules rules, AnalysisContext context,
                             boolean interactive, boolean dangerouslyAllowAll) {

  /** No rules, the default analysis, nobody to ask. */
  public static ApprovalInputs defaults(AnalysisContext context) {
    return new ApprovalInputs(new DangerAnalyzer(), PolicyRules.none(), context, false, false);
  }
}
