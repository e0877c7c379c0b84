package io.interpreter4j.bench.repl;

import io.interpreter4j.bench.Quiet;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.runtime.repl.ReplConfig;
import io.interpreter4j.runtime.repl.ReplWorker;
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
 */
public final class WorkerRoundTrip {

  private WorkerRoundTrip() {}

  /** Runs warmup + iterations blocks of {@code code}; every block must exit 0 and print {@code expected}. */
  static Samples measure(String language, String code, String expected, int warmup, int iterations, Path dir)
      throws Exception {
    java.nio.file.Files.createDirectories(dir);
    return measure(ReplConfig.defaults(language, dir, dir), code, expected, warmup, iterations);
  }

  /** The same through a worker of {@code config} (its folders must exist). */
  public static Samples measure(ReplConfig config, String code, String expected, int warmup, int iterations)
      throws Exception {
    String language = config.language();
    Samples samples = new Samples(iterations);
    CompletableFuture<String> done = new CompletableFuture<>();
    Behavior<Void> root = Behaviors.setup(ctx -> {
      ActorRef<ReplWorker.Command> worker = ctx.spawn(ReplWorker.create(config), "repl-" + language);
      ctx.spawn(driver(worker, code, expected, warmup, iterations, samples, done), "driver");
      return Behaviors.empty();
    });
    ActorSystem<Void> system = ActorSystem.create(root, "bench-repl-" + language, Quiet.CONFIG);
    try {
      String failure = done.get(10, TimeUnit.MINUTES);
      if (failure != null) {
        throw new IllegalStateException(language + " worker: " + failure);
      }
      return samples;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static Behavior<ReplWorker.Reply> driver(ActorRef<ReplWorker.Command> worker, String code, String expected,
      int warmup, int iterations, Samples samples, CompletableFuture<String> done) {
    return Behaviors.setup(ctx -> {
      Duration timeout = Duration.ofSeconds(30);
      int[] block = {1};
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
            if (block[0] > warmup) {
              samples.add(elapsed);
            }
            if (block[0] == warmup + iterations) {
              done.complete(null);
              return Behaviors.stopped();
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
