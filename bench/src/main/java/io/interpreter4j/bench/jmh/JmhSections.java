package io.interpreter4j.bench.jmh;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code scanner_throughput} and {@code danger_rules}: the JMH benchmarks of the pure parts, run in a forked JVM
 * (one fork; quick: 1 warm-up and 3 measured iterations of 1 s, to keep {@code --quick} under 3 minutes; full: 3 and
 * 5 of 2 s).
 */
public final class JmhSections {

  private JmhSections() {}

  public static ObjectNode scanner(boolean quick) throws Exception {
    Map<String, Double> ops = run(FenceScannerBenchmark.class, quick);
    double bytes = Corpus.answer().getBytes(StandardCharsets.UTF_8).length;
    double ours = ops.get("fenceScanner") * bytes / 1e6;
    double oi = ops.get("openInterpreterAccumulate") * bytes / 1e6;
    double floor = ops.get("floorIndexOf") * bytes / 1e6;
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("what", "a " + (int) bytes + "-byte model answer (5 fences) streamed in 4-character chunks; MB/s "
        + "(JMH, FenceScannerBenchmark)");
    node.put("i4j_mb_per_s", Samples.round(ours));
    node.put("open_interpreter_style_mb_per_s", Samples.round(oi));
    node.put("floor_indexof_mb_per_s", Samples.round(floor));
    ObjectNode ratios = node.putObject("ratios");
    ratios.put("vs_open_interpreter_style", Samples.round(ours / oi));
    ratios.put("of_floor", Samples.round(ours / floor));
    return node;
  }

  public static ObjectNode danger(boolean quick) throws Exception {
    Map<String, Double> ops = run(DangerAnalyzerBenchmark.class, quick);
    int blocks = Corpus.blocks().size();
    double ours = ops.get("dangerAnalyzer") * blocks;
    double regex = ops.get("regexBlocklist") * blocks;
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("what", blocks + " typical python and bash blocks; analyses per second (JMH, DangerAnalyzerBenchmark)");
    node.put("i4j_analyses_per_s", Math.round(ours));
    node.put("regex_blocklist_per_s", Math.round(regex));
    node.put("i4j_us_per_analysis", Samples.round(1e6 / ours));
    node.putObject("ratios").put("vs_regex_blocklist", Samples.round(ours / regex));
    return node;
  }

  /** Runs every benchmark method of a class; their scores (ops/s) by method name. */
  private static Map<String, Double> run(Class<?> benchmark, boolean quick) throws Exception {
    Options options = new OptionsBuilder()
        .include("^" + benchmark.getName().replace(".", "\\.") + "\\.")
        .forks(1)
        .warmupIterations(quick ? 1 : 3)
        .warmupTime(TimeValue.seconds(quick ? 1 : 2))
        .measurementIterations(quick ? 3 : 5)
        .measurementTime(TimeValue.seconds(quick ? 1 : 2))
        .jvmArgsAppend("-Xms512m", "-Xmx512m")
        .verbosity(VerboseMode.SILENT)
        .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, Double> scores = new HashMap<>();
    for (RunResult r : results) {
      String label = r.getParams().getBenchmark();
      scores.put(label.substring(label.lastIndexOf('.') + 1), r.getPrimaryResult().getScore());
    }
    return scores;
  }
}
