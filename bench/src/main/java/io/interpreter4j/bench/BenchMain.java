package io.interpreter4j.bench;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.batch.BatchSection;
import io.interpreter4j.bench.cluster.ClusterJournalSection;
import io.interpreter4j.bench.danger.DangerBlocksSection;
import io.interpreter4j.bench.intercept.InterceptLatencySection;
import io.interpreter4j.bench.jmh.JmhSections;
import io.interpreter4j.bench.loop.LoopSection;
import io.interpreter4j.bench.repl.ReplRoundTripSection;
import io.interpreter4j.bench.sandbox.SandboxSection;
import io.interpreter4j.bench.sessions.ConcurrentSessionsSection;
import io.interpreter4j.bench.sessions.SessionStartSection;
import io.interpreter4j.bench.sse.SseFanoutSection;
import io.interpreter4j.bench.startup.StartupSection;
import io.interpreter4j.core.event.EventCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The end-to-end harness behind {@code bench/run.sh}: runs each section, reports progress on stderr, and prints
 * one JSON object as the last line of stdout (also written to {@code bench/results/<timestamp>.json}).
 *
 * <p>{@code --quick} shortens every section; {@code --only a,b} runs some sections; {@code --root DIR} is the
 * repository (for the CLI jar and examples); {@code --results DIR} where the JSON file goes.
 */
public final class BenchMain {

  /** One section: its JSON object, or an exception that is reported in its place. */
  @FunctionalInterface
  interface Section {
    ObjectNode run(Context context) throws Exception;
  }

  /** What the sections share. */
  public record Context(boolean quick, Path root) {}

  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    boolean quick = false;
    List<String> only = new ArrayList<>();
    Path root = Path.of("").toAbsolutePath();
    Path results = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> quick = true;
        case "--only" -> only.addAll(List.of(args[++i].split(",")));
        case "--root" -> root = Path.of(args[++i]).toAbsolutePath();
        case "--results" -> results = Path.of(args[++i]);
        default -> {
          System.err.println("usage: BenchMain [--quick] [--only section,...] [--root DIR] [--results DIR]");
          System.exit(2);
        }
      }
    }
    Context context = new Context(quick, root);
    Map<String, Section> sections = new LinkedHashMap<>();
    sections.put("repl_roundtrip", c -> ReplRoundTripSection.run(c.quick()));
    sections.put("intercept_latency", c -> InterceptLatencySection.run(c.quick()));
    sections.put("loop", c -> LoopSection.run(c.quick()));
    sections.put("sessions", c -> ConcurrentSessionsSection.run(c.quick()));
    sections.put("session_start", c -> SessionStartSection.run(c.quick()));
    sections.put("sandbox", c -> SandboxSection.run(c.quick()));
    sections.put("scanner_throughput", c -> JmhSections.scanner(c.quick()));
    sections.put("danger_rules", c -> JmhSections.danger(c.quick()));
    sections.put("danger_few_kb", c -> DangerBlocksSection.run(c.quick()));
    sections.put("startup", c -> StartupSection.run(c.quick(), c.root()));
    sections.put("sse_fanout", c -> SseFanoutSection.run(c.quick()));
    sections.put("batch", c -> BatchSection.run(c.quick(), c.root()));
    sections.put("cluster_journal", c -> ClusterJournalSection.run(c.quick()));

    Instant started = Instant.now();
    ObjectNode report = JsonNodeFactory.instance.objectNode();
    report.put("benchmark", "interpreter4j");
    report.put("mode", quick ? "quick" : "full");
    report.put("started", started.toString());
    report.set("machine", Machine.describe());
    for (Map.Entry<String, Section> section : sections.entrySet()) {
      if (!only.isEmpty() && !only.contains(section.getKey())) {
        continue;
      }
      // each section starts on a collected heap: the garbage of the one before is not charged to its pauses
      System.gc();
      long t0 = System.nanoTime();
      String loadBefore = Machine.loadAverage();
      System.err.println("bench: " + section.getKey() + " ... (load average " + loadBefore + ")");
      ObjectNode value;
      try {
        value = section.getValue().run(context);
      } catch (Exception | Error e) {
        e.printStackTrace();
        value = JsonNodeFactory.instance.objectNode().put("error", e.toString());
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      value.put("section_seconds", Samples.round(seconds));
      // other work on the machine shows in every latency: the load averages around the section say how much
      value.put("load_average_before", loadBefore);
      value.put("load_average_after", Machine.loadAverage());
      System.err.printf("bench: %s done in %.1f s%n", section.getKey(), seconds);
      report.set(section.getKey(), value);
    }
    report.put("total_seconds", Samples.round(java.time.Duration.between(started, Instant.now()).toMillis() / 1000.0));
    ObjectNode targets = Targets.evaluate(report);
    if (quick && only.isEmpty()) {
      Targets.quickRun(targets, report.path("total_seconds"));
    }
    report.set("targets", targets);
    System.err.print(Targets.table(targets));
    String line = EventCodec.mapper().copy().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
    if (results != null) {
      Files.createDirectories(results);
      String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(started);
      Path file = results.resolve(stamp + ".json");
      Files.writeString(file, line + "\n");
      System.err.println("bench: wrote " + file);
    }
    System.out.println(line);
    Tools.deleteLater();
    System.exit(0);
  }
}
