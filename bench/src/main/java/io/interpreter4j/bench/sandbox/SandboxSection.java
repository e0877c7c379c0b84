package io.interpreter4j.bench.sandbox;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.SessionKit;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.bench.repl.WorkerRoundTrip;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.repl.ReplConfig;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.sandbox.MaskedPaths;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.sandbox.SandboxSettings;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code sandbox}: what bwrap costs a python block. A warm block ({@code print(1)}) through a worker whose
 * interpreter runs under bwrap, against the same worker unsandboxed; and a new session's first python block (create
 * -> {@code exec_finished}) with {@code sandbox.kind = bwrap} against {@code none}. The two sides alternate, three runs
 * each, in the same minutes; each figure is the median of the runs' medians with the spread. Skipped, with the
 * reason, where bwrap cannot run.
 */
public final class SandboxSection {

  static final int RUNS = 3;
  static final String CODE = "print(1)";

  private SandboxSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    Path dir = Files.createTempDirectory("i4j-bench-sandbox");
    // the paths a session hides from its code, as a session's own bwrap does
    Sandbox bwrap = Sandbox.of(SandboxSettings.DEFAULT.withKind(SandboxSettings.Kind.BWRAP),
        MaskedPaths.standard(System.getenv(), dir.resolve("data"), List.of()));
    Optional<String> problem = bwrap.availability();
    if (problem.isPresent()) {
      Tools.deleteTree(dir);
      node.put("skipped", "bwrap cannot run here: " + problem.get());
      return node;
    }
    int warmup = quick ? 300 : 1000;
    int iterations = quick ? 300 : 1000;
    int sessionsPerRun = quick ? 5 : 15;
    try {
      node.put("what", "print(1) under bwrap against unsandboxed: a warm worker's round trip, and a new session's "
          + "first block (create -> exec_finished); " + RUNS + " alternating runs each; milliseconds");
      double[] warmBwrap = new double[RUNS];
      double[] warmNone = new double[RUNS];
      for (int r = 0; r < RUNS; r++) {
        warmNone[r] = warm(dir.resolve("warm-none-" + r), Sandbox.none(), warmup, iterations).medianMs();
        warmBwrap[r] = warm(dir.resolve("warm-bwrap-" + r), bwrap, warmup, iterations).medianMs();
      }
      ObjectNode warm = node.putObject("warm_block_median_ms");
      warm.set("bwrap", Samples.spread(warmBwrap));
      warm.set("unsandboxed", Samples.spread(warmNone));

      double[] firstBwrap = new double[RUNS];
      double[] firstNone = new double[RUNS];
      Path work = Files.createDirectories(dir.resolve("work"));
      var config = SessionKit.config(dir.resolve("data"), work, Map.of());
      Settings settings = SessionKit.settings(config);
      Containment none = SessionKit.containment(SessionKit.config(dir.resolve("data"), work,
          Map.of("interpreter4j.sandbox.kind", "none")));
      Containment sandboxed = SessionKit.containment(SessionKit.config(dir.resolve("data"), work,
          Map.of("interpreter4j.sandbox.kind", "bwrap")));
      Cassette cassette = new Cassette("bench-sandbox", List.of(
          new Cassette.Turn(null, "```python\n" + CODE + "\n```\n", 64, 0), new Cassette.Turn(null, "Done.", 64, 0)));
      ActorSystem<SessionManager.Command> system = SessionKit.system("bench-sandbox", config);
      try {
        for (int i = 0; i < 2; i++) { // classes, JIT and the first session's probes, on both sides
          firstBlock(system, settings, none, cassette, "warm-none-" + i);
          firstBlock(system, settings, sandboxed, cassette, "warm-bwrap-" + i);
        }
        for (int r = 0; r < RUNS; r++) {
          Samples n = new Samples(sessionsPerRun);
          Samples b = new Samples(sessionsPerRun);
          for (int i = 0; i < sessionsPerRun; i++) {
            n.add(firstBlock(system, settings, none, cassette, "none-" + r + "-" + i));
            b.add(firstBlock(system, settings, sandboxed, cassette, "bwrap-" + r + "-" + i));
          }
          firstNone[r] = n.medianMs();
          firstBwrap[r] = b.medianMs();
        }
      } finally {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      node.set("first_block_median_ms", Samples.spread(firstBwrap));
      node.set("first_block_unsandboxed_median_ms", Samples.spread(firstNone));
      node.put("first_block_sessions_per_run", sessionsPerRun);
      ObjectNode ratios = node.putObject("ratios");
      ratios.put("sandboxed_over_unsandboxed_median", Samples.round(middle(warmBwrap) / middle(warmNone)));
      ratios.put("first_block_sandboxed_over_unsandboxed", Samples.round(middle(firstBwrap) / middle(firstNone)));
      return node;
    } finally {
      Tools.deleteTree(dir);
    }
  }

  private static Samples warm(Path dir, Sandbox sandbox, int warmup, int iterations) throws Exception {
    Path work = Files.createDirectories(dir.resolve("work"));
    ReplConfig config = ReplConfig.defaults("python", Files.createDirectories(dir.resolve("session")), work)
        .withSandbox(sandbox);
    return WorkerRoundTrip.measure(config, CODE, "1\n", warmup, iterations).samples();
  }

  /** One new session's first block, create -> exec_finished, in nanoseconds; the session is stopped after its turn. */
  private static long firstBlock(ActorSystem<SessionManager.Command> system, Settings settings,
      Containment containment, Cassette cassette,
      String name) throws Exception {
    long[] finished = new long[1];
    CompletableFuture<TurnStatus> done = new CompletableFuture<>();
    Consumer<Event> watch = event -> {
      if (event.payload() instanceof EventPayload.ExecFinished f && f.exit_code() == 0) {
        finished[0] = System.nanoTime();
      } else if (event.payload() instanceof EventPayload.TurnFinished t) {
        done.complete(t.status());
      }
    };
    long start = System.nanoTime();
    ActorRef<Session.Command> session = SessionKit.create(system, "bench-sandbox-" + name, settings, containment,
        new ReplayModelProvider("replay:bench-sandbox", cassette), List.of(watch)).toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    try {
      session.tell(new Session.UserMessage("print one"));
      TurnStatus status = done.get(2, TimeUnit.MINUTES);
      synchronized (finished) {
        if (status != TurnStatus.DONE || finished[0] == 0) {
          throw new IllegalStateException("session " + name + "'s first turn ended " + status
              + (finished[0] == 0 ? " without a block that exited 0" : ""));
        }
        return finished[0] - start;
      }
    } finally {
      session.tell(Session.Stop.INSTANCE);
    }
  }

  private static double middle(double[] runs) {
    double[] sorted = runs.clone();
    java.util.Arrays.sort(sorted);
    return sorted[(sorted.length - 1) / 2];
  }
}
