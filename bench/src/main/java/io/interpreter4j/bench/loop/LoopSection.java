package io.interpreter4j.bench.loop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Machine;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.SessionKit;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.bench.repl.JupyterBaseline;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code loop}: the whole loop, one replayed turn of {@value #BLOCKS} trivial python blocks through a real session
 * under auto-approval: replay model (replies in {@value #CHUNK_CHARS}-character chunks, no delay) -> intercept ->
 * approval -> REPL -> result -> next model call, {@code max-iterations} {@value #MAX_ITERATIONS}. Per block: from one
 * {@code exec_finished} to the next, by the wall clock and by the events' own timestamps; {@value #WARMUP_TURNS}
 * warm-up turns (while C2 compiles the path), then {@value #RUNS} measured turns, each in a new session. Beside it: a
 * Jupyter kernel executing the same blocks alone, {@value #RUNS} passes after one warm-up pass.
 */
public final class LoopSection {

  static final int BLOCKS = 300;
  static final int CHUNK_CHARS = 64;
  static final int MAX_ITERATIONS = 400;
  static final int RUNS = 3;
  /** Turns before the measured ones (-Dbench.loop.warmups=N to compare). */
  static final int WARMUP_TURNS = 3;

  private LoopSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    Path dir = Files.createTempDirectory("i4j-bench-loop");
    ActorSystem<SessionManager.Command> system = null;
    try {
      Path work = Files.createDirectories(dir.resolve("work"));
      var config = SessionKit.config(dir.resolve("data"), work,
          Map.of("interpreter4j.healing.max-iterations", MAX_ITERATIONS));
      Settings settings = SessionKit.settings(config);
      // the auto-run sandbox (bwrap) that auto-approval gets by default, as a user's -y session runs
      Containment containment = SessionKit.containment(config);
      Cassette cassette = cassette();
      system = SessionKit.system("bench-loop", config);

      // warm-up turns: the first turns of a JVM run while C2 compiles the loop's path on the second core
      int warmups = Integer.getInteger("bench.loop.warmups", WARMUP_TURNS);
      for (int i = 1; i <= warmups; i++) {
        turn(system, settings, containment, cassette, "warm-up-" + i);
      }
      List<TurnTrace.Figures> runs = new ArrayList<>();
      runs.add(turn(system, settings, containment, cassette, "run-1"));
      // the baseline between the runs: a change in the machine's load is shared out rather than charged to one side
      Path codes = dir.resolve("blocks.json");
      Files.write(codes, EventCodec.mapper().writeValueAsBytes(codes()));
      JupyterBaseline.Result jupyter = JupyterBaseline.measure("@" + codes, BLOCKS, RUNS * BLOCKS, dir);
      for (int i = 2; i <= RUNS; i++) {
        runs.add(turn(system, settings, containment, cassette, "run-" + i));
      }
      return report(runs, jupyter, warmups);
    } finally {
      if (system != null) {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      Tools.deleteTree(dir);
    }
  }

  /** The blocks in order: block n sets and prints n. */
  static List<String> codes() {
    List<String> codes = new ArrayList<>(BLOCKS);
    for (int n = 1; n <= BLOCKS; n++) {
      codes.add("x = " + n + "\nprint(x)");
    }
    return codes;
  }

  /** One model reply per block, prose then the block (about 100 characters: two chunks), then a closing answer. */
  static Cassette cassette() {
    List<Cassette.Turn> turns = new ArrayList<>(BLOCKS + 1);
    List<String> codes = codes();
    for (int n = 1; n <= BLOCKS; n++) {
      String reply = "Step " + n + " of " + BLOCKS + ": I'll set x and print it to check the REPL.\n\n```python\n"
          + codes.get(n - 1) + "\n```\n";
      turns.add(new Cassette.Turn(null, reply, CHUNK_CHARS, 0));
    }
    turns.add(new Cassette.Turn(null, "All " + BLOCKS + " blocks ran and printed their numbers.", CHUNK_CHARS, 0));
    return new Cassette("bench-loop", turns);
  }

  private static TurnTrace.Figures turn(ActorSystem<SessionManager.Command> system, Settings settings,
      Containment containment, Cassette cassette, String name) throws Exception {
    TurnTrace trace = new TurnTrace();
    ActorRef<Session.Command> session = SessionKit.create(system, "bench-loop-" + name, settings, containment,
        new ReplayModelProvider("replay:bench-loop", cassette), List.of(trace)).toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    try {
      System.err.println("bench: loop " + name + " (load average " + Machine.loadAverage() + ")");
      session.tell(new Session.UserMessage("Run " + BLOCKS + " small python blocks, one at a time."));
      TurnStatus status = trace.finished().get(5, TimeUnit.MINUTES);
      if (status != TurnStatus.DONE) {
        trace.figures(BLOCKS); // names what went wrong
      }
      return trace.figures(BLOCKS);
    } finally {
      session.tell(Session.Stop.INSTANCE);
    }
  }

  private static ObjectNode report(List<TurnTrace.Figures> runs, JupyterBaseline.Result jupyter, int warmups) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("what", "one replayed turn of " + BLOCKS + " trivial python blocks (replies in " + CHUNK_CHARS
        + "-character chunks, auto-approval, max-iterations " + MAX_ITERATIONS + "): per block, exec_finished to "
        + "the next exec_finished; the median (and spread) of " + RUNS + " turns' medians; milliseconds");
    node.put("warmup_turns", warmups);
    ObjectNode i4j = node.putObject("i4j");
    i4j.set("median_ms", spread(runs, f -> f.wall().medianMs()));
    i4j.set("p99_ms", spread(runs, f -> f.wall().p99Ms()));
    i4j.set("mean_ms", spread(runs, f -> f.turnMs() / BLOCKS));
    i4j.set("by_event_timestamps_median_ms", spread(runs, f -> f.eventTs().medianMs()));
    // the JVM's CPU per block (runtime, harness subscriber; not the interpreter): a figure load hardly moves
    i4j.set("jvm_cpu_ms_per_block", spread(runs, TurnTrace.Figures::cpuMsPerBlock));
    ObjectNode steps = i4j.putObject("steps_median_ms");
    steps.set("exec_finished_to_next_assistant_delta", spread(runs, f -> f.resultToNextCall().medianMs()));
    steps.set("same_by_event_timestamps", spread(runs, f -> f.resultToNextCallTs().medianMs()));
    steps.set("assistant_delta_to_code_block", spread(runs, f -> f.callToBlock().medianMs()));
    steps.set("code_block_to_exec_started", spread(runs, f -> f.blockToExec().medianMs()));
    steps.set("exec_started_to_exec_finished", spread(runs, f -> f.exec().medianMs()));
    ArrayNode turns = i4j.putArray("turn_ms");
    runs.forEach(f -> turns.add(Samples.round(f.turnMs())));
    double median = middle(runs, f -> f.wall().medianMs());
    double p99 = middle(runs, f -> f.wall().p99Ms());
    if (jupyter.samples() == null) {
      node.putObject("jupyter_kernel").put("skipped", jupyter.skipped());
      return node;
    }
    List<Samples> passes = passes(jupyter.samples());
    ObjectNode j = node.putObject("jupyter_kernel");
    j.put("what", "the same " + BLOCKS + " blocks executed alone, one after another, in one kernel: "
        + RUNS + " passes after a warm-up pass");
    j.put("interpreter", JupyterBaseline.PYTHON + " " + jupyter.python() + ", ipykernel " + jupyter.ipykernel());
    j.set("median_ms", spread(passes, Samples::medianMs));
    j.set("p99_ms", spread(passes, Samples::p99Ms));
    double jMedian = middle(passes, Samples::medianMs);
    double jP99 = middle(passes, Samples::p99Ms);
    ObjectNode ratios = node.putObject("ratios");
    ratios.put("speedup_vs_jupyter_median", Samples.speedup(jMedian, median));
    ratios.put("speedup_vs_jupyter_p99", Samples.speedup(jP99, p99));
    return node;
  }

  /** The Jupyter samples cut into its passes of {@value #BLOCKS} blocks. */
  private static List<Samples> passes(Samples all) {
    List<Samples> passes = new ArrayList<>();
    long[] nanos = all.toArray();
    for (int start = 0; start + BLOCKS <= nanos.length; start += BLOCKS) {
      Samples pass = new Samples(BLOCKS);
      for (int i = start; i < start + BLOCKS; i++) {
        pass.add(nanos[i]);
      }
      passes.add(pass);
    }
    return passes;
  }

  private static <T> ObjectNode spread(List<T> runs, ToDoubleFunction<T> figure) {
    return Samples.spread(runs.stream().mapToDouble(figure).toArray());
  }

  private static <T> double middle(List<T> runs, ToDoubleFunction<T> figure) {
    double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
    return values.length == 0 ? Double.NaN : values[(values.length - 1) / 2];
  }
}
