package io.interpreter4j.bench.jmh;

import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.DangerAnalyzer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Danger analysis of typical blocks (one op = every block of {@link Corpus#blocks()} once): i4j's
 * {@link DangerAnalyzer} (shell and python parsed, paths judged); beside it, the regex blocklist simple tools use.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DangerAnalyzerBenchmark {

  /** What a blocklist tool matches: destructive, privileged, piped-to-shell, disk and permission commands. */
  public static final List<Pattern> BLOCKLIST = List.of(
      Pattern.compile("\\brm\\s+(-\\w*[rf]\\w*\\s+)+"), Pattern.compile("\\bsudo\\b"),
      Pattern.compile("curl[^|]*\\|\\s*(ba)?sh"), Pattern.compile("wget[^|]*\\|\\s*(ba)?sh"),
      Pattern.compile("\\bmkfs(\\.\\w+)?\\b"), Pattern.compile("\\bdd\\s+if="), Pattern.compile(">\\s*/dev/sd\\w"),
      Pattern.compile("\\bchmod\\s+(-R\\s+)?777\\b"), Pattern.compile("\\bshutdown\\b|\\breboot\\b"),
      Pattern.compile(":\\(\\)\\s*\\{"), Pattern.compile("shutil\\.rmtree"), Pattern.compile("os\\.remove|os\\.unlink"),
      Pattern.compile("subprocess\\.|os\\.system"), Pattern.compile("/etc/(passwd|shadow)"),
      Pattern.compile("requests\\.(post|put)"));

  List<String[]> blocks;
  DangerAnalyzer analyzer;
  AnalysisContext context;

  @Setup
  public void setUp() {
    blocks = Corpus.blocks();
    analyzer = new DangerAnalyzer();
    context = AnalysisContext.of(Path.of("/home/user/project"), Path.of("/home/user"));
  }

  @Benchmark
  public void dangerAnalyzer(Blackhole hole) {
    for (String[] b : blocks) {
      hole.consume(analyzer.analyze(b[0], b[1], context));
    }
  }

  @Benchmark
  public void regexBlocklist(Blackhole hole) {
    for (String[] b : blocks) {
      int hits = 0;
      for (Pattern p : BLOCKLIST) {
        if (p.matcher(b[1]).find()) {
          hits++;
        }
      }
      hole.consume(hits);
    }
  }
}
