package io.interpreter4j.bench.repl;

import io.interpreter4j.bench.Quiet;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.runtime.repl.ReplConfig;
import io.interpreter4j.runtime.repl.ReplWorker;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Blocks through a warm {@link ReplWorker}, driven the way a session drives it: an actor sends {@code Execute},
 * collects the {@code Output}s and, on {@code Finished}, records the round trip and sends the next block.
 *
 * <p>Warm means the interpreter and the JIT: after the given warm-up, blocks go on in rounds of
 * {@value #ROUND} until a round passes without the JIT compiling anything (at most {@value #MAX_WARMUP} blocks).
 * The per-block path is compiled by C2 only after some thousand blocks, and each compile takes one of this
 * machine's two cores for milliseconds: measured inside that window, the p99 is C2's, not the round trip's. That
 * window is reported too ({@link Run#duringJit}).
 */
public final class WorkerRoundTrip {

  /** Blocks per warm-up round between two looks at the JIT's total compilation time. */
  static final int ROUND = 500;
  /** The warm-up's bound: past it the samples are taken whatever the JIT does (and the report says so). */
  static final int MAX_WARMUP = 30_000;
  /** The window reported as {@link Run#duringJit}: the blocks after the first round, while C2 compiles. */
  static final int JIT_WINDOW = 1000;

  private WorkerRoundTrip() {}

  /**
   * A measured run: the samples once warm, the blocks the warm-up took, whether the JIT went quiet within
   * {@link #MAX_WARMUP}, and the {@link #JIT_WINDOW} blocks after the first warm-up round (empty if the warm-up
   * ended before them).
   */
  public record Run(Samples samples, int warmupBlocks, boolean jitQuiet, Samples duringJit) {

    /** The warm-up's figures for a report. */
    public com.fasterxml.jackson.databind.node.ObjectNode warmupJson() {
      var node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
      node.put("blocks", warmupBlocks);
      node.put("jit_quiet", jitQuiet);
      if (duringJit.size() > 0) {
        node.set("blocks_" + (ROUND + 1) + "_to_" + (ROUND + JIT_WINDOW) + "_while_jit_compiles", duringJit.toJson());
      }
      return node;
    }
  }

  /** Runs at least warmup + iterations blocks of {@code code}; every block must exit 0 and print {@code expected}. */
  static Run measure(String language, String code, String expected, int warmup, int iterations, Path dir)
      throws Exception {
    java.nio.file.Files.createDirectories(dir);
    return measure(ReplConfig.defaults(language, dir, dir), code, expected, warmup, iterations);
  }

  /** The same through a worker of {@code config} (its folders must exist). */
  public static Run measure(ReplConfig config, String code, String expected, int warmup, int iterations)
      throws Exception {
    String language = config.language();
    Samples samples = new Samples(iterations);
    Samples duringJit = new Samples(JIT_WINDOW);
    int[] warmupBlocks = new int[1];
    boolean[] jitQuiet = new boolean[1];
    CompletableFuture<String> done = new CompletableFuture<>();
    Behavior<Void> root = Behaviors.setup(ctx -> {
      ActorRef<ReplWorker.Command> worker = ctx.spawn(ReplWorker.create(config), "repl-" + language);
      ctx.spawn(driver(worker, code, expected, new Plan(warmup, iterations, samples, duringJit, warmupBlocks,
          jitQuiet), done), "driver");
      return Behaviors.empty();
    });
    ActorSystem<Void> system = ActorSystem.create(root, "bench-repl-" + language, Quiet.CONFIG);
    try {
      String failure = done.get(10, TimeUnit.MINUTES);
      if (failure != null) {
        throw new IllegalStateException(language + " worker: " + failure);
      }
      return new Run(samples, warmupBlocks[0], jitQuiet[0], duringJit);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** What the driver does and where it puts what it measures. */
  private record Plan(int warmup, int iterations, Samples samples, Samples duringJit, int[] warmupBlocks,
      boolean[] jitQuiet) {}

  private static Behavior<ReplWorker.Reply> driver(ActorRef<ReplWorker.Command> worker, String code, String expected,
      Plan plan, CompletableFuture<String> done) {
    return Behaviors.setup(ctx -> {
      Duration timeout = Duration.ofSeconds(30);
      CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
      boolean canAskJit = jit != null && jit.isCompilationTimeMonitoringSupported();
      int[] block = {1};
      // 0 while warming up, else the block number of the first measured block
      int[] measuringFrom = {0};
      long[] jitAtRound = {canAskJit ? jit.getTotalCompilationTime() : 0};
      long[] start = {System.nanoTime()};
      StringBuilder output = new StringBuilder();
      worker.tell(new ReplWorker.Execute(block[0], code, timeout, ctx.getSelf()));
      return Behaviors.receive(ReplWorker.Reply.class)
          .onMessage(ReplWorker.Output.class, o -> {
            output.append(o.text());
            return Behaviors.same();
          })
          .onMessage(ReplWorker.Finished.class, f -> {
            long elapsed = System.nanoTime() - start[0];
            if (f.result().exitCode() != 0 || !output.toString().equals(expected)) {
              done.complete("block " + f.block() + " exited " + f.result().exitCode() + " with output '" + output
                  + "' (" + f.result().notice() + ")");
              return Behaviors.stopped();
            }
            if (measuringFrom[0] > 0) {
              plan.samples().add(elapsed);
              if (block[0] - measuringFrom[0] + 1 == plan.iterations()) {
                done.complete(null);
                return Behaviors.stopped();
              }
            } else {
              if (block[0] > ROUND && block[0] <= ROUND + JIT_WINDOW) {
                plan.duringJit().add(elapsed);
              }
              if (block[0] >= plan.warmup() && block[0] % ROUND == 0) {
                long jitNow = canAskJit ? jit.getTotalCompilationTime() : 0;
                boolean quiet = jitNow == jitAtRound[0];
                jitAtRound[0] = jitNow;
                if (quiet || block[0] >= MAX_WARMUP) {
                  plan.warmupBlocks()[0] = block[0];
                  plan.jitQuiet()[0] = quiet;
                  measuringFrom[0] = block[0] + 1;
                }
              }
            }
            output.setLength(0);
            block[0]++;
            start[0] = System.nanoTime();
            worker.tell(new ReplWorker.Execute(block[0], code, timeout, ctx.getSelf()));
            return Behaviors.same();
          })
          .build();
    });
  }
}
