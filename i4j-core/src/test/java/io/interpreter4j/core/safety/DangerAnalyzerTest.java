package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs the danger-cases.tsv table through {@link DangerAnalyzer}, plus context, robustness and timing checks. */
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

  @Test
  void flagsCarryStableRulesAndShortReasons() {
    Risk risk = analyzer.analyze("bash", "rm -rf ~; sudo reboot; pip install x", DangerCases.CONTEXT);
    assertEquals(Level.HIGH, risk.level());
    assertEquals(List.of("rm-recursive-home", "sudo", "shutdown", "pip-global"),
        risk.flags().stream().map(Flag::rule).toList());
    assertEquals("recursive delete of the home directory; runs as root with sudo; "
        + "shuts down or reboots the machine (reboot); "
        + "installs Python packages outside a virtual environment (pip install)", risk.reason());
    Risk medium = analyzer.analyze("bash", "brew install jq", DangerCases.CONTEXT);
    assertEquals(Level.MEDIUM, medium.level());
    assertEquals("", medium.reason(), "only HIGH flags make up the reason");
    assertEquals(Risk.low(), analyzer.analyze("bash", "ls", DangerCases.CONTEXT));
    assertEquals(Risk.low(), analyzer.analyze("python", "", DangerCases.CONTEXT));
  }

  @Test
  void aWorkdirThatIsTheHomeDirectoryStillGuardsDotfiles() {
    AnalysisContext home = AnalysisContext.of(Path.of("/home/user"), Path.of("/home/user"));
    assertEquals(Level.LOW, analyzer.analyze("bash", "rm -rf build", home).level());
    assertEquals(Level.HIGH, analyzer.analyze("bash", "rm -rf *", home).level());
    assertEquals(Level.HIGH, analyzer.analyze("bash", "rm .bashrc", home).level());
    assertEquals(Level.HIGH, analyzer.analyze("bash", "rm -rf .ssh", home).level());
    assertEquals(Level.HIGH, analyzer.analyze("bash", "echo x > .profile", home).level());
  }

  @Test
  void aProjectUnderASystemRootIsStillTheProject() {
    AnalysisContext opt = AnalysisContext.of(Path.of("/opt/app"), Path.of("/home/user"));
    assertEquals(Level.LOW, analyzer.analyze("bash", "rm -rf build && echo x > /opt/app/out.txt", opt).level());
    assertEquals(Level.HIGH, analyzer.analyze("bash", "rm -rf /opt/other", opt).level());
  }

  @Test
  void sessionCreatedPathsMayBeDeleted() {
    AnalysisContext ctx = DangerCases.CONTEXT.withCreatedBySession(Set.of(Path.of("/srv/scratch")));
    assertEquals(Level.LOW, analyzer.analyze("bash", "rm -rf /srv/scratch/out", ctx).level());
    assertEquals(Level.HIGH, analyzer.analyze("bash", "rm -rf /srv/other", ctx).level());
  }

  @Test
  void unknownLanguagesAreLowUnlessTheyShellOut() {
    assertEquals(Level.LOW, analyzer.analyze("ruby", "puts 'rm -rf /'", DangerCases.CONTEXT).level());
    assertEquals(Level.HIGH, analyzer.analyze("ruby", "system('rm -rf /')", DangerCases.CONTEXT).level());
    assertEquals(Level.HIGH, analyzer.analyze(null, "Runtime.getRuntime().exec(\"sudo reboot\")", DangerCases.CONTEXT).level());
  }

  /** Broken, truncated and hostile input must never crash the analysis (a crash would be reported as HIGH). */
  @Test
  void neverFailsOnGarbage() {
    String alphabet = "ab /~.*?$(){}[]'\"`\\|&;<>\n\t#=-!%@:rmfcdsuoEOF";
    Random random = new Random(42);
    for (int i = 0; i < 5000; i++) {
      StringBuilder sb = new StringBuilder();
      int len = 1 + random.nextInt(60);
      for (int k = 0; k < len; k++) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      for (String lang : List.of("bash", "python", "javascript")) {
        Risk risk = analyzer.analyze(lang, sb.toString(), DangerCases.CONTEXT);
        String code = sb.toString();
        assertTrue(risk.flags().stream().noneMatch(f -> f.rule().equals("analysis-failed")),
            () -> lang + ": " + code.replace("\n", "\\n") + " -> " + risk.flags());
      }
    }
  }

  @Test
  void deepNestingIsRefusedNotFollowedForever() {
    String code = "eval ".repeat(20) + "rm -rf build";
    Risk risk = analyzer.analyze("bash", code, DangerCases.CONTEXT);
    assertEquals(Level.HIGH, risk.level());
    assertEquals("nesting-too-deep", risk.flags().get(0).rule());
    assertTrue(analyzer.analyze("bash", "bash -c \"sh -c 'eval rm -rf build'\"", DangerCases.CONTEXT).flags().isEmpty());
    String parens = "echo " + "$(".repeat(2000) + "x" + ")".repeat(2000);
    assertTrue(analyzer.analyze("bash", parens, DangerCases.CONTEXT).isHigh());
    String py = "x = " + "(".repeat(3000) + "1" + ")".repeat(3000);
    assertEquals(Level.LOW, analyzer.analyze("python", py, DangerCases.CONTEXT).level());
  }

  /** Prints the cost of analysing blocks of a few KB; timings are reported, not asserted. */
  @Test
  void timingOfFewKilobyteBlocks() {
    StringBuilder bash = new StringBuilder();
    StringBuilder python = new StringBuilder("import os, shutil, subprocess\n");
    List<DangerCases.Case> cases = DangerCases.load();
    for (DangerCases.Case c : cases) {
      if (c.language().equals("bash") && !c.dangerous() && bash.length() < 4000) {
        bash.append(c.code()).append('\n');
      } else if (c.language().equals("python") && !c.dangerous() && python.length() < 4000) {
        python.append(c.code()).append('\n');
      }
    }
    for (String[] block : List.of(new String[] {"bash", bash.toString()}, new String[] {"python", python.toString()})) {
      for (int i = 0; i < 2000; i++) {
        analyzer.analyze(block[0], block[1], DangerCases.CONTEXT);
      }
      int runs = 1000;
      // CPU time of this thread: other processes on a busy machine do not inflate it
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long cpu = threads.getCurrentThreadCpuTime();
      long wall = System.nanoTime();
      for (int i = 0; i < runs; i++) {
        analyzer.analyze(block[0], block[1], DangerCases.CONTEXT);
      }
      double cpuMicros = (threads.getCurrentThreadCpuTime() - cpu) / 1000.0 / runs;
      double wallMicros = (System.nanoTime() - wall) / 1000.0 / runs;
      System.out.printf("analysing a %d-byte %s block: %.0f us CPU (%.0f us wall) on average%n",
          block[1].length(), block[0], cpuMicros, wallMicros);
    }
  }
}
