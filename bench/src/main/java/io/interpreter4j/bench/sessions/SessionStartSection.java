package io.interpreter4j.bench.sessions;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Machine;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.SessionKit;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.bench.repl.FreshProcess;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code session_start}: a new session's first python block, from asking the session manager for the session to the
 * block's {@code exec_finished} (a replayed model whose first reply is {@code print(1)}, auto-approval): the session,
 * the model call and the python interpreter's start. Sessions one after another in a warm runtime, {@value #RUNS}
 * runs; beside it, in the same run, a fresh {@code python3 -c} per block.
 */
public final class SessionStartSection {

  static final int RUNS = 3;
  static final String CODE = "print(1)";

  private SessionStartSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    int perRun = quick ? 8 : 20;
    Path dir = Files.createTempDirectory("i4j-bench-start");
    ActorSystem<SessionManager.Command> system = null;
    try {
      Path work = Files.createDirectories(dir.resolve("work"));
      var config = SessionKit.config(dir.resolve("data"), work, Map.of());
      Settings settings = SessionKit.settings(config);
      Cassette cassette = new Cassette("bench-start", List.of(
          new Cassette.Turn(null, "```python\n" + CODE + "\n```\n", 64, 0), new Cassette.Turn(null, "Done.", 64, 0)));
      system = SessionKit.system("bench-start", config);
      for (int i = 0; i < 3; i++) {
        first(system, settings, cassette, "warm-" + i); // classes, JIT, the python probes of the first session
      }
      List<Samples> runs = new ArrayList<>();
      List<Samples> interpreters = new ArrayList<>();
      List<Samples> fresh = new ArrayList<>();
      for (int r = 1; r <= RUNS; r++) {
        Samples total = new Samples(perRun);
        Samples interpreter = new Samples(perRun);
        for (int i = 0; i < perRun; i++) {
          long[] first = first(system, settings, cassette, "r" + r + "-" + i);
          total.add(first[0]);
          interpreter.add(first[1]);
        }
        runs.add(total);
        interpreters.add(interpreter);
        fresh.add(FreshProcess.measure(List.of(Tools.python(), "-c"), CODE, "1\n", 1, perRun));
      }
      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("what", "a new session's first python block: create -> exec_finished of print(1), sessions one after "
          + "another; the median (and spread) of " + RUNS + " runs of " + perRun + "; milliseconds");
      node.set("i4j_median_ms", spread(runs));
      node.set("exec_started_to_exec_finished_median_ms", spread(interpreters));
      node.set("fresh_python_process_median_ms", spread(fresh));
      node.put("ratio_vs_fresh_process", Samples.round(middle(runs) / middle(fresh)));
      node.set("idle_session_interpreter", idleInterpreter(system, settings, cassette, dir));
      return node;
    } finally {
      if (system != null) {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      Tools.deleteTree(dir);
    }
  }

  /** One new session's first block: {create -> exec_finished, exec_started -> exec_finished} in nanoseconds. */
  private static long[] first(ActorSystem<SessionManager.Command> system, Settings settings, Cassette cassette,
      String name) throws Exception {
    long[] at = new long[2];
    CompletableFuture<TurnStatus> done = new CompletableFuture<>();
    Consumer<Event> watch = event -> {
      if (event.payload() instanceof EventPayload.ExecStarted) {
        at[0] = System.nanoTime();
      } else if (event.payload() instanceof EventPayload.ExecFinished) {
        at[1] = System.nanoTime();
      } else if (event.payload() instanceof EventPayload.TurnFinished t) {
        done.complete(t.status());
      }
    };
    long start = System.nanoTime();
    ActorRef<Session.Command> session = SessionKit.create(system, "bench-start-" + name, settings,
        new ReplayModelProvider("replay:bench-start", cassette), List.of(watch)).toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
    try {
      session.tell(new Session.UserMessage("print one"));
      TurnStatus status = done.get(2, TimeUnit.MINUTES);
      if (status != TurnStatus.DONE || at[1] == 0) {
        throw new IllegalStateException("the session's first turn ended " + status);
      }
      synchronized (at) {
        return new long[] {at[1] - start, at[1] - at[0]};
      }
    } finally {
      session.tell(Session.Stop.INSTANCE);
    }
  }

  /**
   * One session left idle after its first python block: the PSS of its interpreter's processes (smaps_rollup), to
   * add to the heap per idle session of the {@code sessions} section; beside it an idle Jupyter kernel's RSS.
   */
  private static ObjectNode idleInterpreter(ActorSystem<SessionManager.Command> system, Settings settings,
      Cassette cassette, Path dir) throws Exception {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    if (ProcessHandle.current().children().findAny().isPresent()
        && !ConcurrentSessionsSection.awaitNoRepl(java.time.Duration.ofSeconds(30))) {
      node.put("skipped", "the interpreters of the sessions before did not stop");
      return node;
    }
    CompletableFuture<TurnStatus> done = new CompletableFuture<>();
    ActorRef<Session.Command> session = SessionKit.create(system, "bench-start-idle", settings,
        new ReplayModelProvider("replay:bench-start", cassette), List.of(event -> {
          if (event.payload() instanceof EventPayload.TurnFinished t) {
            done.complete(t.status());
          }
        })).toCompletableFuture().get(60, TimeUnit.SECONDS);
    try {
      session.tell(new Session.UserMessage("print one"));
      done.get(2, TimeUnit.MINUTES);
      long pss = 0;
      long rss = 0;
      int processes = 0;
      var commands = node.putArray("commands");
      for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
        String command = p.info().command().orElse("?");
        commands.add(command + " (" + Machine.kb(Path.of("/proc/" + p.pid() + "/smaps_rollup"), "Pss:") + " KiB PSS)");
        pss += Math.max(0, Machine.kb(Path.of("/proc/" + p.pid() + "/smaps_rollup"), "Pss:"));
        rss += Math.max(0, Machine.kb(Path.of("/proc/" + p.pid() + "/status"), "VmRSS:"));
        processes++;
      }
      node.put("processes", processes);
      node.put("pss_kib", pss);
      node.put("rss_kib", rss);
      node.set("jupyter_kernel_idle", ConcurrentSessionsSection.kernelMemory(dir));
      return node;
    } finally {
      session.tell(Session.Stop.INSTANCE);
    }
  }

  private static ObjectNode spread(List<Samples> runs) {
    return Samples.spread(runs.stream().mapToDouble(Samples::medianMs).toArray());
  }

  private static double middle(List<Samples> runs) {
    double[] medians = runs.stream().mapToDouble(Samples::medianMs).sorted().toArray();
    return medians[(medians.length - 1) / 2];
  }
}
