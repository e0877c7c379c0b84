package io.interpreter4j.bench.jmh;

import io.interpreter4j.core.intercept.FenceScanner;
import io.interpreter4j.core.intercept.Segment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Fence scanning of one ~4 KB model answer streamed in small chunks: i4j's {@link FenceScanner}; beside it, the way
 * Open Interpreter's text runner finds blocks (re-search the accumulated text for a fence after every chunk), and
 * the floor (only look for a fence in each chunk, with no state and no output).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FenceScannerBenchmark {

  /** Characters per streamed chunk: 4 is about one token. */
  @Param({"4"})
  public int chunk;

  List<String> chunks;

  @Setup
  public void setUp() {
    chunks = Corpus.chunks(Corpus.answer(), chunk);
  }

  @Benchmark
  public void fenceScanner(Blackhole hole) {
    FenceScanner scanner = new FenceScanner("python", 1);
    for (String c : chunks) {
      List<Segment> segments = scanner.feed(c);
      hole.consume(segments);
    }
    hole.consume(scanner.finish());
  }

  /**
   * Open Interpreter's run_text_llm, per block: append the chunk, skip when it ends with a backtick, else look for
   * "```" in everything accumulated; on entering a block keep what follows the fence; on leaving it, start over.
   */
  @Benchmark
  public void openInterpreterAccumulate(Blackhole hole) {
    StringBuilder accumulated = new StringBuilder();
    boolean inside = false;
    int blocks = 0;
    for (String c : chunks) {
      accumulated.append(c);
      if (accumulated.charAt(accumulated.length() - 1) == '`') {
        continue;
      }
      String text = accumulated.toString();
      if (!inside && text.contains("```")) {
        inside = true;
        String[] parts = text.split("```", -1);
        accumulated.setLength(0);
        accumulated.append(parts[1]);
        text = accumulated.toString();
      }
      if (inside && text.contains("```")) {
        blocks++;
        inside = false;
        accumulated.setLength(0);
      }
    }
    hole.consume(blocks);
  }

  /** The floor: one search for a fence per chunk, nothing kept, nothing emitted. */
  @Benchmark
  public void floorIndexOf(Blackhole hole) {
    int found = 0;
    for (String c : chunks) {
      found += c.indexOf('`');
    }
    hole.consume(found);
  }
}
