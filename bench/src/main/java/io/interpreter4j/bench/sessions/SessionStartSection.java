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
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.repl.PythonForkServer;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.session.SessionSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * {@code session_start}: a new session's first python block, from asking the session manager for the session to the
 * block's {@code exec_finished} (a replayed model whose first reply is {@code print(1)}, auto-approval): the session,
 * the model call and the python interpreter's start. Sessions one after another in a warm runtime, {@value #RUNS}
 * runs, each interleaving three kinds of session: unsandboxed with the python fork server (the figure), unsandboxed
 * with it off (python spawned, as before the fork server), and in the auto-run sandbox (bwrap here, spawned: the
 * fork server does not fork into a sandbox). Beside them, in the same runs, a fresh {@code python3 -c} per block.
 */
public final class SessionStartSection {

  static final int RUNS = 3;
  static final String CODE = "print(1)";

  /** The three kinds of session, in the order each round starts them. */
  private enum Kind { FORKED, SPAWNED, SANDBOXED }

  private SessionStartSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    int perRun = quick ? 8 : 20;
    Path dir = Files.createTempDirectory("i4j-bench-start");
    ActorSystem<SessionManager.Command> system = null;
    boolean forkServer = PythonForkServer.enabled();
    try {
      Path work = Files.createDirectories(dir.resolve("work"));
      var config = SessionKit.config(dir.resolve("data"), work, Map.of());
      Settings settings = SessionKit.settings(config);
      Cassette cassette = new Cassette("bench-start", List.of(
          new Cassette.Turn(null, "```python\n" + CODE + "\n```\n", 64, 0), new Cassette.Turn(null, "Done.", 64, 0)));
      system = SessionKit.system("bench-start", config);
      for (int i = 0; i < 3; i++) {
        for (Kind kind : Kind.values()) {
          first(system, settings, cassette, kind, "warm-" + kind + "-" + i); // classes, JIT, the python probes
        }
      }
      Map<Kind, List<Samples>> runs = new EnumMap<>(Kind.class);
      Map<Kind, List<Samples>> interpreters = new EnumMap<>(Kind.class);
      List<Samples> fresh = new ArrayList<>();
      for (int r = 1; r <= RUNS; r++) {
        Map<Kind, Samples> total = new EnumMap<>(Kind.class);
        Map<Kind, Samples> interpreter = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
          total.put(kind, new Samples(perRun));
          interpreter.put(kind, new Samples(perRun));
        }
        for (int i = 0; i < perRun; i++) {
          for (Kind kind : Kind.values()) {
            long[] first = first(system, settings, cassette, kind, "r" + r + "-" + kind + "-" + i);
            total.get(kind).add(first[0]);
            interpreter.get(kind).add(first[1]);
          }
        }
        for (Kind kind : Kind.values()) {
          runs.computeIfAbsent(kind, k -> new ArrayList<>()).add(total.get(kind));
          interpreters.computeIfAbsent(kind, k -> new ArrayList<>()).add(interpreter.get(kind));
        }
        fresh.add(FreshProcess.measure(List.of(Tools.python(), "-c"), CODE, "1\n", 1, perRun));
      }
      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("what", "a new session's first python block: create -> exec_finished of print(1), sessions one after "
          + "another, unsandboxed with the python fork server, unsandboxed without it, and in the auto-run sandbox, "
          + "interleaved; the median (and spread) of " + RUNS + " runs of " + perRun + " each; milliseconds");
      node.set("i4j_median_ms", spread(runs.get(Kind.FORKED)));
      node.set("exec_started_to_exec_finished_median_ms", spread(interpreters.get(Kind.FORKED)));
      node.set("fork_server_off_median_ms", spread(runs.get(Kind.SPAWNED)));
      node.set("fork_server_off_exec_started_to_exec_finished_median_ms", spread(interpreters.get(Kind.SPAWNED)));
      node.set("sandboxed_median_ms", spread(runs.get(Kind.SANDBOXED)));
      node.set("sandboxed_exec_started_to_exec_finished_median_ms", spread(interpreters.get(Kind.SANDBOXED)));
      node.set("fresh_python_process_median_ms", spread(fresh));
      node.put("ratio_vs_fresh_process", Samples.round(middle(runs.get(Kind.FORKED)) / middle(fresh)));
      node.put("ratio_fork_server_on_vs_off",
          Samples.round(middle(runs.get(Kind.FORKED)) / middle(runs.get(Kind.SPAWNED))));
      ObjectNode idle = node.putObject("idle_session_interpreter");
      idle.set("fork_server_on", idleInterpreter(system, settings, cassette, Kind.FORKED));
      idle.set("fork_server_off", idleInterpreter(system, settings, cassette, Kind.SPAWNED));
      idle.set("jupyter_kernel_idle", ConcurrentSessionsSection.kernelMemory(dir));
      return node;
    } finally {
      PythonForkServer.setEnabled(forkServer);
      if (system != null) {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
      Tools.deleteTree(dir);
    }
  }

  /** A session of {@code kind}: the fork server turned on or off for it, and its sandbox. */
  private static CompletableFuture<ActorRef<Session.Command>> create(ActorSystem<SessionManager.Command> system,
      String id, Settings settings, Cassette cassette, Kind kind, Consumer<Event> watch) {
    PythonForkServer.setEnabled(kind == Kind.FORKED);
    SessionSpec spec = new SessionSpec(id, settings, new ReplayModelProvider("replay:bench-start", cassette),
        Approver.NOBODY, SessionKit.HOST, List.of(watch));
    if (kind != Kind.SANDBOXED) {
      spec = spec.withSandbox(Sandbox.none());
    }
    SessionSpec made = spec;
    return AskPattern.<SessionManager.Command, SessionManager.Created>ask(system,
            replyTo -> new SessionManager.Create(made, replyTo), Duration.ofSeconds(60), system.scheduler())
        .thenApply(created -> {
          if (created.error() != null) {
            throw new IllegalStateException(created.error());
          }
          return created.session();
        }).toCompletableFuture();
  }

  /** One new session's first block: {create -> exec_finished, exec_started -> exec_finished} in nanoseconds. */
  private static long[] first(ActorSystem<SessionManager.Command> system, Settings settings, Cassette cassette,
      Kind kind, String name) throws Exception {
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
    ActorRef<Session.Command> session = create(system, "bench-start-" + name, settings, cassette, kind, watch)
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
   * One unsandboxed session left idle after its first python block: the PSS of its interpreter's processes
   * (smaps_rollup), to add to the heap per idle session of the {@code sessions} section. With the fork server, the
   * interpreter shares its pages with the server, whose PSS is given apart: one server serves every session.
   */
  private static ObjectNode idleInterpreter(ActorSystem<SessionManager.Command> system, Settings settings,
      Cassette cassette, Kind kind) throws Exception {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    if (!awaitOnlyForkServer(java.time.Duration.ofSeconds(30))) {
      node.put("skipped", "the interpreters of the sessions before did not stop");
      return node;
    }
    CompletableFuture<TurnStatus> done = new CompletableFuture<>();
    ActorRef<Session.Command> session = create(system, "bench-start-idle-" + kind, settings, cassette, kind,
        event -> {
          if (event.payload() instanceof EventPayload.TurnFinished t) {
            done.complete(t.status());
          }
        }).get(60, TimeUnit.SECONDS);
    try {
      session.tell(new Session.UserMessage("print one"));
      done.get(2, TimeUnit.MINUTES);
      long server = PythonForkServer.runningPid().orElse(-1L);
      long pss = 0;
      long rss = 0;
      int processes = 0;
      var commands = node.putArray("commands");
      for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
        long processPss = Machine.kb(Path.of("/proc/" + p.pid() + "/smaps_rollup"), "Pss:");
        if (p.pid() == server) {
          node.put("fork_server_pss_kib", processPss);
          node.put("fork_server_rss_kib", Machine.kb(Path.of("/proc/" + p.pid() + "/status"), "VmRSS:"));
          continue;
        }
        commands.add(p.info().command().orElse("?") + " (" + processPss + " KiB PSS)");
        pss += Math.max(0, processPss);
        rss += Math.max(0, Machine.kb(Path.of("/proc/" + p.pid() + "/status"), "VmRSS:"));
        processes++;
      }
      node.put("processes", processes);
      node.put("pss_kib", pss);
      node.put("rss_kib", rss);
      return node;
    } finally {
      session.tell(Session.Stop.INSTANCE);
    }
  }

  /** Waits until this JVM's only child process, if any, is the python fork server (the sessions' REPLs stopped). */
  private static boolean awaitOnlyForkServer(java.time.Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      long server = PythonForkServer.runningPid().orElse(-1L);
      if (ProcessHandle.current().descendants().allMatch(p -> p.pid() == server)) {
        return true;
      }
      Thread.sleep(250);
    }
    return false;
  }

  private static ObjectNode spread(List<Samples> runs) {
    return Samples.spread(runs.stream().mapToDouble(Samples::medianMs).toArray());
  }

  private static double middle(List<Samples> runs) {
    double[] medians = runs.stream().mapToDouble(Samples::medianMs).sorted().toArray();
    return medians[(medians.length - 1) / 2];
  }
}
