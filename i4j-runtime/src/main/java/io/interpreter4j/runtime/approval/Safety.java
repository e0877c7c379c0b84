package io.interpreter4j.runtime.approval;

import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.DangerAnalyzer;
import io.interpreter4j.core.safety.PolicyRules;

/**
 * What the approval gate consults besides the mode: the danger analysis, the user's rules, whether a person can
 * be asked (a terminal), and {@code --dangerously-allow-all}.
 */
public record Safety(DangerAnalyzer analyzer, PolicyRules rules, AnalysisContext context, boolean interactive,
                     boolean dangerouslyAllowAll) {

  /** No rules, the default analysis, nobody to ask. */
  public static Safety defaults(AnalysisContext context) {
    return new Safety(new DangerAnalyzer(), PolicyRules.none(), context, false, false);
  }
}
