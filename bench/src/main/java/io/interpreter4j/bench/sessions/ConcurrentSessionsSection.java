package io.interpreter4j.bench.sessions;

import io.interpreter4j.core.event.TurnStatus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Machine;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.SessionKit;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.replay.Cassette;
import io.interpreter4j.runtime.sandbox.Containment;
import io.interpreter4j.runtime.llm.ReplayModelProvider;
import io.interpreter4j.runtime.repl.PythonForkServer;
import io.interpreter4j.runtime.session.Session;
import io.interpreter4j.runtime.session.SessionManager;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code sessions}: N sessions at once in one JVM, each replaying a 5-turn cassette (two python and two bash blocks,
 * then an answer) under auto-approval, each with its own python and bash REPL. Wall time, blocks per second, peak
 * RSS, heap per idle session (after GC, with every session idle after its turn and its REPLs still up: the Java side
 * of the REPLs counts, the processes' own memory does not) and peak REPL processes. Beside it: the same mix of blocks
 * run the naive way (a fresh {@code python3 -c} or {@code bash -c} per block, one lane per core), and the memory of
 * one idle Jupyter kernel, which Open Interpreter starts for each session's python. The lanes run just before the N
 * sessions start, with the warm-up round's interpreters gone. The sessions run unconfined, as
 * the lanes do ({@code -Dbench.sessions.sandbox=auto-run} runs them in the sandbox auto-approval gets by default).
 */
public final class ConcurrentSessionsSection {

  /** One block of the cassette: its language, its code, and what it prints. */
  record Block(String language, String code, String expected) {}

  /** Four blocks that use each interpreter's state (python, bash, python, bash), then an answer without a block. */
  static final List<Block> BLOCKS = List.of(
      new Block("python", "answer = 6 * 7\nprint('set', answer)", "set 42\n"),
      new Block("bash", "answer=$((6 * 7)); echo \"set $answer\"", "set 42\n"),
      new Block("python", "print('answer is', answer)", "answer is 42\n"),
      new Block("bash", "echo \"answer is $answer\"", "answer is 42\n"));
  static final List<String> REPLIES = List.of(
      "I'll start by setting a variable in python.\n\n```python\n" + BLOCKS.get(0).code() + "\n```\n",
      "And the same in the shell.\n\n```bash\n" + BLOCKS.get(1).code() + "\n```\n",
      "Now I'll use it from the same python.\n\n```python\n" + BLOCKS.get(2).code() + "\n```\n",
      "And from the same shell.\n\n```bash\n" + BLOCKS.get(3).code() + "\n```\n",
      "All four steps worked: the answer is **42**.");

  private ConcurrentSessionsSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    int n = Integer.getInteger("bench.sessions", quick ? 100 : 1000);
    Duration deadline = Duration.ofMinutes(quick ? 2 : 10);
    Path dir = Files.createTempDirectory("i4j-bench-sessions");
    ActorSystem<SessionManager.Command> system = null;
    ProcessSampler sampler = new ProcessSampler();
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("what", n + " concurrent sessions, each a 5-turn replay cassette with 4 blocks (python, bash, python, "
        + "bash), auto-approval");
    node.put("sessions", n);
    Tally tally = null;
    try {
      Path work = Files.createDirectories(dir.resolve("work"));
      // the default idle timeout (10 min): every session keeps its shell through the run and after it
      // unconfined by default, as the fresh-process lanes beside them are (-Dbench.sessions.sandbox=auto-run: under
      // the sandbox a session gets by default under auto-approval, where each interpreter is a fresh bwrap process)
      String sandbox = System.getProperty("bench.sessions.sandbox", "none");
      node.put("sandbox", sandbox);
      var config = SessionKit.config(dir.resolve("data"), work, Map.of("interpreter4j.sandbox.kind", sandbox));
      Settings settings = SessionKit.settings(config);
      Containment containment = SessionKit.containment(config);
      Cassette cassette = Cassette.parse(cassetteJson(), "bench-sessions");
      system = SessionKit.system("bench-sessions", config);

      // a round of sessions first, so one-time costs (classes, caches, JIT compilation) are not charged to the N:
      // the figures are those of a warm runtime, as a long-running i4j serve is
      int warmN = Integer.getInteger("bench.sessions.warmup", quick ? 20 : 200);
      node.put("warmup_sessions", warmN);
      Tally warm = new Tally(warmN);
      startAll(system, settings, containment, cassette, "warm", warmN, warm);
      boolean warmFinished = warm.await(deadline);
      if (!warmFinished || warm.done.get() != warmN) {
        node.set("warmup", warm.report(warmFinished));
        throw new IllegalStateException("the warm-up round did not end with all sessions done: " + warm.report(
            warmFinished));
      }
      stopAll(system, "warm", warmN);
      awaitNoRepl(Duration.ofSeconds(60));
      // the lanes beside the sessions, run while this JVM holds no interpreter: run after the N sessions, beside their
      // idle interpreters (thousands of open pipes, which every process the JVM starts closes first), they were half
      // as fast, which flattered the ratio. A rate: 400 blocks measure it as well as 2000.
      ObjectNode naive = naiveBlocks(Math.min(4 * n, quick ? 200 : 400));
      long baseline = heapAfterGc();

      tally = new Tally(n);
      sampler.start();
      long start = System.nanoTime();
      String created = startAll(system, settings, containment, cassette, "s", n, tally);
      if (created != null) {
        node.put("create_error", created);
      }
      boolean finished = tally.await(deadline);
      long wallNanos = (finished ? tally.lastFinish.get() : System.nanoTime()) - start;
      sampler.stop();
      double peakRss = Machine.peakRssMib();
      node.setAll(tally.report(finished));
      node.put("peak_repl_processes", sampler.peak.get());
      node.put("peak_rss_mib", Samples.round(peakRss));
      double wall = wallNanos / 1e9;
      node.put("wall_s", Samples.round(wall));
      double blocksPerSecond = tally.blocks.get() / wall;
      node.put("blocks_per_s", Samples.round(blocksPerSecond));
      if (!finished) {
        return node; // the figures below need every session idle; what happened is above
      }
      // every session is idle now (its turn done), each with its bash REPL still up, waiting for a next message
      long heapIdle = heapAfterGc();
      pauseForInspection("idle");
      node.put("heap_baseline_mib", Samples.round(baseline / 1048576.0));
      // Java heap only: the REPL processes' own memory is not in it (the objects that talk to them are)
      node.put("heap_per_idle_session_kib", Samples.round((heapIdle - baseline) / 1024.0 / n));

      node.set("naive_fresh_process_per_block", naive);
      ObjectNode kernel = kernelMemory(dir);
      node.set("jupyter_kernel_idle", kernel);
      ObjectNode ratios = node.putObject("ratios");
      ratios.put("blocks_per_s_vs_fresh_processes",
          Samples.round(blocksPerSecond / naive.path("blocks_per_s").asDouble()));
      JsonNode kernelKib = kernel.path("rss_kib");
      if (kernelKib.isNumber()) {
        ratios.put("idle_session_heap_vs_jupyter_kernel_rss",
            Samples.round(kernelKib.asDouble() / ((heapIdle - baseline) / 1024.0 / n)));
      }
      return node;
    } catch (Exception e) {
      // what went wrong goes beside what was measured until then, never in its place
      node.put("error", e.toString());
      if (tally != null && !node.has("done")) {
        node.setAll(tally.report(false));
      }
      return node;
    } finally {
      sampler.stop();
      if (system != null) {
        // stopping every session, then the system, is timed: its interpreters go with it
        long t0 = System.nanoTime();
        stopAll(system, "s", n);
        system.terminate();
        try {
          system.getWhenTerminated().toCompletableFuture().get(120, TimeUnit.SECONDS);
          node.put("shutdown_s", Samples.round((System.nanoTime() - t0) / 1e9));
        } catch (Exception e) {
          node.put("shutdown_error", "the actor system did not end within 120 s: " + e);
        }
      }
      Tools.deleteTree(dir);
    }
  }

  /** Turn statuses and block counts, from the sessions' events. */
  static final class Tally {
    final CountDownLatch latch;
    final AtomicInteger done = new AtomicInteger();
    final AtomicInteger blocks = new AtomicInteger();
    final AtomicInteger failedBlocks = new AtomicInteger();
    final AtomicLong lastFinish = new AtomicLong();
    final Map<String, Integer> others = new ConcurrentHashMap<>();
    final Map<String, Integer> failedCodes = new ConcurrentHashMap<>();
    /** Each session's latest event type, until its turn finishes: where the unfinished ones stand. */
    final Map<String, String> lastEvent = new ConcurrentHashMap<>();
    final AtomicInteger createErrors = new AtomicInteger();

    final int n;

    Tally(int n) {
      this.n = n;
      latch = new CountDownLatch(n);
    }

    void accept(Event event) {
      if (!(event.payload() instanceof EventPayload.TurnFinished)) {
        lastEvent.put(event.session(), event.type());
      } else {
        lastEvent.remove(event.session());
      }
      if (event.payload() instanceof EventPayload.ExecFinished f) {
        blocks.incrementAndGet();
        if (f.exit_code() != 0) {
          failedBlocks.incrementAndGet();
          failedCodes.merge(Integer.toString(f.exit_code()), 1, Integer::sum);
        }
      } else if (event.payload() instanceof EventPayload.TurnFinished t) {
        if (t.status() == TurnStatus.DONE) {
          done.incrementAndGet();
        } else {
          others.merge(t.status() + ": " + t.reason(), 1, Integer::sum);
        }
        lastFinish.accumulateAndGet(System.nanoTime(), Math::max);
        latch.countDown();
      }
    }

    boolean await(Duration within) throws InterruptedException {
      return latch.await(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Statuses and blocks so far; with the sessions not finished by then, by the last event each one had. */
    ObjectNode report(boolean finished) {
      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("all_done", finished && done.get() == n);
      node.put("done", done.get());
      node.set("other_statuses", EventCodec.mapper().valueToTree(others));
      node.put("unfinished", latch.getCount());
      node.put("create_errors", createErrors.get());
      if (latch.getCount() > 0) {
        Map<String, Integer> stuck = new java.util.TreeMap<>();
        lastEvent.values().forEach(type -> stuck.merge(type, 1, Integer::sum));
        node.set("unfinished_by_last_event", EventCodec.mapper().valueToTree(stuck));
      }
      node.put("blocks", blocks.get());
      node.put("failed_blocks", failedBlocks.get());
      node.set("failed_exit_codes", EventCodec.mapper().valueToTree(failedCodes));
      return node;
    }

    @Override
    public String toString() {
      return report(latch.getCount() == 0).toString();
    }
  }

  /** Creates and starts n sessions; null when all were created, else what went wrong (the others run on). */
  private static String startAll(ActorSystem<SessionManager.Command> system, Settings settings,
      Containment containment, Cassette cassette,
      String prefix, int n, Tally tally) throws Exception {
    List<CompletableFuture<ActorRef<Session.Command>>> created = new ArrayList<>(n);
    Map<String, Integer> errors = new ConcurrentHashMap<>();
    for (int i = 0; i < n; i++) {
      ReplayModelProvider model = new ReplayModelProvider("replay:bench-sessions", cassette);
      created.add(SessionKit.create(system, String.format("bench-%s-%05d", prefix, i), settings, containment, model,
          List.of(tally::accept)).toCompletableFuture()
          .thenApply(ref -> {
            ref.tell(new Session.UserMessage("Set a variable, use it, count to three and say the answer."));
            return ref;
          })
          .whenComplete((ref, failure) -> {
            if (failure != null) {
              tally.createErrors.incrementAndGet();
              tally.latch.countDown(); // it will never finish: the others are not kept waiting for it
              errors.merge(String.valueOf(failure), 1, Integer::sum);
            }
          }));
    }
    try {
      CompletableFuture.allOf(created.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return errors.isEmpty() ? e.toString() : errors.toString();
    }
    return null;
  }

  private static void stopAll(ActorSystem<SessionManager.Command> system, String prefix, int n) {
    for (int i = 0; i < n; i++) {
      system.tell(new SessionManager.StopSession(String.format("bench-%s-%05d", prefix, i)));
    }
  }

  static String cassetteJson() {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    var turns = root.putArray("turns");
    for (String reply : REPLIES) {
      ObjectNode t = turns.addObject();
      t.put("reply", reply);
      t.put("chunk_chars", 16);
      t.put("delay_ms", 0);
    }
    return root.toString();
  }

  /** With {@code -Dbench.pause=SECONDS}, waits so a heap histogram can be taken (jcmd PID GC.class_histogram). */
  private static void pauseForInspection(String moment) throws InterruptedException {
    int seconds = Integer.getInteger("bench.pause", 0);
    if (seconds > 0) {
      System.err.println("bench: paused " + seconds + " s with the sessions " + moment + ", pid "
          + ProcessHandle.current().pid());
      Thread.sleep(seconds * 1000L);
    }
  }

  /** Used heap after full collections, in bytes. */
  static long heapAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(200);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  /** Waits until this JVM has no child processes left (the REPLs stopped by their idle timeout). */
  static boolean awaitNoRepl(Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      long server = PythonForkServer.runningPid().orElse(-1L); // one per JVM, not a session's
      if (ProcessHandle.current().children().allMatch(p -> p.pid() == server)) {
        return true;
      }
      Thread.sleep(250);
    }
    return false;
  }

  /** This JVM's children, the python fork server counted by the interpreters it forked rather than by itself. */
  static int replProcesses() {
    long server = PythonForkServer.runningPid().orElse(-1L);
    return (int) ProcessHandle.current().children()
        .mapToLong(p -> p.pid() == server ? p.children().count() : 1).sum();
  }

  /** Peak number of REPL processes (this JVM's children), sampled every 500 ms (each sample reads all of /proc). */
  static final class ProcessSampler {
    final AtomicInteger peak = new AtomicInteger();
    private volatile boolean running;
    private Thread thread;

    void start() {
      running = true;
      thread = new Thread(() -> {
        while (running) {
          peak.accumulateAndGet(replProcesses(), Math::max);
          try {
            Thread.sleep(500);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "bench-process-sampler");
      thread.setDaemon(true);
      thread.start();
    }

    void stop() {
      running = false;
    }
  }

  /**
   * The naive runner on the same mix of blocks: a fresh {@code python3 -c} or {@code bash -c} per block, in the
   * cassette's order, one runner per core. Python blocks that use state set it first (a fresh process has none).
   */
  private static ObjectNode naiveBlocks(int blocks) throws Exception {
    int lanes = Runtime.getRuntime().availableProcessors();
    ExecutorService pool = Executors.newFixedThreadPool(lanes);
    AtomicInteger next = new AtomicInteger();
    long start = System.nanoTime();
    try {
      List<Future<?>> lanesDone = new ArrayList<>();
      for (int l = 0; l < lanes; l++) {
        lanesDone.add(pool.submit(() -> {
          int i;
          while ((i = next.getAndIncrement()) < blocks) {
            Block block = BLOCKS.get(i % BLOCKS.size());
            List<String> argv = block.language().equals("python")
                ? List.of(Tools.python(), "-c", "answer = 6 * 7\n" + block.code())
                : List.of("bash", "--noprofile", "--norc", "-c", "answer=$((6 * 7))\n" + block.code());
            Process p = new ProcessBuilder(argv).redirectInput(new File("/dev/null"))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || !out.equals(block.expected())) {
              throw new IllegalStateException("naive " + block.language() + " block failed: " + out);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : lanesDone) {
        f.get(10, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("what", "a fresh python3 -c or bash -c per block, the same mix (half python, half bash), one lane per core");
    node.put("blocks", blocks);
    node.put("lanes", lanes);
    node.put("wall_s", Samples.round(seconds));
    node.put("blocks_per_s", Samples.round(blocks / seconds));
    return node;
  }

  /** RSS of one idle Jupyter kernel (kernel_rss.py), or why it is missing. */
  static ObjectNode kernelMemory(Path dir) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    String out = Tools.output(List.of("/usr/bin/python3", Tools.resource("kernel_rss.py", dir).toString())).strip();
    try {
      JsonNode json = EventCodec.mapper().readTree(out.substring(out.lastIndexOf('\n') + 1));
      node.put("rss_kib", json.path("kernel_rss_kib").asLong());
      node.put("client_rss_kib", json.path("client_rss_kib").asLong());
    } catch (Exception e) {
      node.put("skipped", "could not start a Jupyter kernel under /usr/bin/python3: " + out);
    }
    return node;
  }
}
