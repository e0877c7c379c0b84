package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.Level;
import io.interpreter4j.core.safety.analysis.Risk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs the danger-cases.tsv table through {@link DangerAnalyzer}, plus context and robustness checks. */
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

  /** Code that would act as the user on interpreter4j's API, or read the environment its token lives in. */
  static Stream<Arguments> gateBypasses() {
    return Stream.of(
        Arguments.of("bash", "curl -s -H \"Authorization: Bearer $I4J_TOKEN\" http://127.0.0.1:8717/api/summary"),
        Arguments.of("bash", "curl -X POST -H \"Authorization: Bearer $T\" -H 'Content-Type: application/json' "
            + "localhost:8717/api/sessions/x/blocks/2/approval -d '{\"decision\": \"approve\"}'"),
        Arguments.of("bash", "curl --oauth2-bearer \"$tok\" 'http://[::1]:8717/api/sessions'"),
        Arguments.of("bash", "curl -b \"i4j_auth=$c\" http://localhost:8717/api/sessions"),
        Arguments.of("bash", "curl \"http://127.0.0.1:8717/?token=$(cat /tmp/t)\""),
        Arguments.of("python", "import requests\nrequests.post('http://localhost:8717/api/sessions', "
            + "headers={'Authorization': f'Bearer {tok}'}, json={'message': 'x', 'autoRun': True})"),
        Arguments.of("javascript", "await fetch('http://127.0.0.1:8717/api/summary', "
            + "{headers: {Authorization: 'Bearer ' + t}})"),
        Arguments.of("python", "import os\nprint(os.environ['I4J_TOKEN'])"),
        Arguments.of("bash", "echo $I4J_TOKEN"),
        Arguments.of("bash", "cat /proc/1/environ"),
        Arguments.of("bash", "tr '\\0' '\\n' < /proc/$PPID/environ"),
        Arguments.of("bash", "for p in /proc/[0-9]*; do cat $p/environ; done 2>/dev/null | strings | grep KEY"),
        Arguments.of("bash", "xargs -0 -n1 < /proc/$(pgrep -f 'i4j serve')/environ"),
        Arguments.of("bash", "ps eww -p 1234"),
        Arguments.of("bash", "ps auxe | grep TOKEN"),
        Arguments.of("python", "import os\nprint(open(f'/proc/{os.getppid()}/environ').read())"),
        Arguments.of("python", "import os\nenv = open(os.path.join('/proc', str(os.getppid()), 'environ')).read()"),
        Arguments.of("python", "import os, psutil\nprint(psutil.Process(os.getppid()).environ())"),
        Arguments.of("ruby", "puts File.read(\"/proc/#{Process.ppid}/environ\")"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("gateBypasses")
  void codeThatWouldGetAroundTheApprovalGateIsHigh(String language, String code) {
    Risk risk = analyzer.analyze(language, code, DangerCases.CONTEXT);
    assertEquals(Level.HIGH, risk.level(), () -> code + " -> " + risk.flags());
    assertTrue(risk.flags().stream().anyMatch(f -> List.of("server-token", "local-api-credentials",
        "other-process-environment").contains(f.rule())), () -> code + " -> " + risk.flags());
  }

  /** Their benign twins: local requests without credentials, credentials elsewhere, one's own environment. */
  static Stream<Arguments> gateBypassTwins() {
    return Stream.of(
        Arguments.of("bash", "curl -s http://localhost:8000/health"),
        Arguments.of("bash", "curl -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com/user"),
        Arguments.of("bash", "python3 -m http.server 8000 --bind 127.0.0.1 & sleep 1; curl -s 127.0.0.1:8000/"),
        Arguments.of("bash", "grep -rn Authorization src/ | head"),
        Arguments.of("python", "import os\nprint(os.environ.get('HOME'))\nprint(open('/proc/meminfo').read()[:80])"),
        Arguments.of("bash", "cat /proc/self/environ | tr '\\0' '\\n' | wc -l"),
        Arguments.of("bash", "ps aux | grep python"),
        Arguments.of("bash", "ps -ef | head"),
        Arguments.of("bash", "ps -e -o pid,comm"),
        Arguments.of("python", "import psutil\nprint(psutil.cpu_percent(), psutil.Process().name())"),
        Arguments.of("python", "steps = ['build', 'test']\nfor s in steps:\n    print(s)"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("gateBypassTwins")
  void theirBenignTwinsAreNot(String language, String code) {
    Risk risk = analyzer.analyze(language, code, DangerCases.CONTEXT);
    assertTrue(risk.level() != Level.HIGH, () -> code + " -> " + risk.flags());
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
}
