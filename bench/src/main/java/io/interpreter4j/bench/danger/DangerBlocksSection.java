package io.interpreter4j.bench.danger;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.jmh.DangerAnalyzerBenchmark;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.DangerAnalyzer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code danger_few_kb}: the cost of one danger analysis of a block of about 4 KB, through {@link DangerAnalyzer}'s
 * public entry only, for a bash and a python block made of the benign rows of {@code danger-cases.tsv}
 * (resources {@code danger/benign-cases.sh|py}, fixed so that runs before and after a change compare).
 *
 * <p>Baseline, measured in the same run on the same block: the regex block list simple tools use
 * ({@link DangerAnalyzerBenchmark#BLOCKLIST}, every pattern searched over the block); beside it, the floor of
 * touching every token once (a word/punctuation tokenizer regex). Costs are CPU time of the measuring thread
 * (other processes on a shared machine do not inflate them), wall time beside. After a warm-up, three runs,
 * each timing the analyser and then the baselines; figures are the median of the three runs and their spread.
 */
public final class DangerBlocksSection {

  /** The context the danger-cases table is judged in: a project under a home, two folders the session made. */
  static final AnalysisContext CONTEXT = new AnalysisContext(
      Path.of("/home/user/project"), Path.of("/home/user"),
      Set.of(Path.of("/tmp/i4j-scratch"), Path.of("/home/user/project/tmpdir")), false);

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|\\d+|\\S");
  private static final int RUNS = 3;

  /** What is timed: one pass over one block. */
  @FunctionalInterface
  private interface Pass {
    Object over(String language, String code);
  }

  private DangerBlocksSection() {}

  public static ObjectNode run(boolean quick) {
    // an analysis of 4 KB costs milliseconds: these counts keep the section under a minute on a loaded 2-core VM
    int warmup = quick ? 150 : 1000;
    int perRun = quick ? 50 : 300;
    DangerAnalyzer analyzer = new DangerAnalyzer();
    Pass i4j = (language, code) -> analyzer.analyze(language, code, CONTEXT);
    Pass regex = (language, code) -> blocklistHits(code);
    Pass tokens = (language, code) -> tokenCount(code);

    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("what", "one danger analysis of a ~4 KB block (benign danger-cases rows), DangerAnalyzer.analyze; "
        + "us of thread CPU per analysis, median of " + RUNS + " runs of " + perRun + " with min..max; baseline: "
        + "the " + DangerAnalyzerBenchmark.BLOCKLIST.size() + "-pattern regex block list over the same block");
    for (String[] block : List.of(new String[] {"bash", resource("benign-cases.sh")},
        new String[] {"python", resource("benign-cases.py")})) {
      String language = block[0];
      String code = block[1];
      for (int i = 0; i < warmup; i++) {
        i4j.over(language, code);
        regex.over(language, code);
        tokens.over(language, code);
      }
      long[][] cpu = new long[3][RUNS];
      long[][] wall = new long[3][RUNS];
      Pass[] passes = {i4j, regex, tokens};
      for (int run = 0; run < RUNS; run++) {
        for (int p = 0; p < passes.length; p++) {
          long[] timed = time(passes[p], language, code, perRun);
          cpu[p][run] = timed[0];
          wall[p][run] = timed[1];
        }
      }
      ObjectNode b = node.putObject(language);
      b.put("bytes", code.getBytes(StandardCharsets.UTF_8).length);
      b.put("level", analyzer.analyze(language, code, CONTEXT).level().name());
      b.set("i4j_us_cpu", Samples.spread(cpu[0], 1000.0));
      b.set("i4j_us_wall", Samples.spread(wall[0], 1000.0));
      b.set("regex_blocklist_us_cpu", Samples.spread(cpu[1], 1000.0));
      b.set("token_floor_us_cpu", Samples.spread(cpu[2], 1000.0));
      long[] ratios = new long[RUNS];
      for (int run = 0; run < RUNS; run++) {
        // in thousandths, so that the spread helper can sort them as longs
        ratios[run] = Math.round(1000.0 * cpu[0][run] / Math.max(1, cpu[1][run]));
      }
      ObjectNode ratio = Samples.spread(ratios, 1000.0);
      b.put("i4j_cost_x_regex_blocklist", ratio.get("median").asDouble());
      b.set("i4j_cost_x_regex_blocklist_spread", ratio);
      b.put("i4j_cost_x_token_floor", Samples.round((double) median(cpu[0]) / Math.max(1, median(cpu[2]))));
    }
    return node;
  }

  /** {cpu, wall} nanoseconds per pass, averaged over {@code count} passes. */
  private static long[] time(Pass pass, String language, String code, int count) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    boolean cpuTime = threads.isCurrentThreadCpuTimeSupported();
    Object sink = null;
    long cpu0 = cpuTime ? threads.getCurrentThreadCpuTime() : 0;
    long wall0 = System.nanoTime();
    for (int i = 0; i < count; i++) {
      sink = pass.over(language, code);
    }
    long wall = System.nanoTime() - wall0;
    long cpu = cpuTime ? threads.getCurrentThreadCpuTime() - cpu0 : wall;
    if (sink == null) {
      throw new IllegalStateException("a timed pass returned nothing");
    }
    return new long[] {cpu / count, wall / count};
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static Integer blocklistHits(String code) {
    int hits = 0;
    for (Pattern p : DangerAnalyzerBenchmark.BLOCKLIST) {
      if (p.matcher(code).find()) {
        hits++;
      }
    }
    return hits;
  }

  private static Integer tokenCount(String code) {
    int count = 0;
    var m = TOKEN.matcher(code);
    while (m.find()) {
      count++;
    }
    return count;
  }

  private static String resource(String name) {
    try (InputStream in = DangerBlocksSection.class.getResourceAsStream("/io/interpreter4j/bench/danger/" + name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is not on the bench classpath (bench/src/main/resources)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
