package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DangerAnalyzerTest {

  private final DangerAnalyzer analyzer = new DangerAnalyzer();

  static Stream<DangerCases.Case> cases() {
    return DangerCases.load().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void classifiesEachCase(DangerCases.Case c) {
    Risk risk = analyzer.analyze(c.language(), c.code(), c.context());
    assertEquals(c.expected(), risk.level(), () -> c + " -> " + risk.flags());
  }

  @Test
  void dangerousAreAllHighAndFewBenignAreRefused() {
    List<DangerCases.Case> all = DangerCases.load();
    List<String> missed = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    int dangerous = 0;
    int benign = 0;
    for (DangerCases.Case c : all) {
      Risk risk = analyzer.analyze(c.language(), c.code(), c.context());
      if (c.dangerous()) {
        dangerous++;
        if (!risk.isHigh()) {
          missed.add(c + " -> " + risk.flags());
        }
      } else {
        benign++;
        if (risk.isHigh()) {
          refused.add(c + " -> " + risk.reason());
        }
      }
    }
    double recall = 100.0 * (dangerous - missed.size()) / dangerous;
    double falsePositive = 100.0 * refused.size() / benign;
    System.out.printf("danger-cases: %d cases; dangerous recall %d/%d = %.1f%%; benign refused (HIGH) %d/%d = %.1f%%%n",
        all.size(), dangerous - missed.size(), dangerous, recall, refused.size(), benign, falsePositive);
    missed.forEach(m -> System.out.println("  missed:  " + m));
    refused.forEach(r -> System.out.println("  refused: " + r));
    assertTrue(all.size() >= 150, "the table should hold at least 150 cases");
    assertEquals(List.of(), missed, "every dangerous case must be HIGH");
    assertTrue(falsePositive <= 5.0, "at most 5% of benign cases may be refused, was " + falsePositive + "%");
  }
}
