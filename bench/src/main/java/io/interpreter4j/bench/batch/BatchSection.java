package io.interpreter4j.bench.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Machine;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.core.event.EventCodec;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code batch}: {@code i4j batch} through the {@code ./i4j} launcher, {@value #PARALLEL} tasks at a time, each a
 * replayed model writing a python block, then a bash block, then an answer, under {@code -y} without a sandbox. Tasks
 * per second (launch to exit) and the batch JVM's peak RSS ({@code VmHWM}, polled), with the peak RSS of the whole
 * process tree (the JVM and its interpreters) beside it. Beside it, in the same run: the naive runner, a fresh
 * {@code python3 -c} and a fresh {@code bash -c} per task on as many lanes.
 */
public final class BatchSection {

  static final int PARALLEL = 16;
  static final String PYTHON_BLOCK = "x = 6 * 7\nprint(x)";
  static final String BASH_BLOCK = "echo $((6 * 7))";

  private BatchSection() {}

  public static ObjectNode run(boolean quick, Path root) throws Exception {
    // issue 20's figure is 500 tasks, in --quick too (about 4 s); with --quick the two baselines beside it, the
    // fork server off and the naive runner, are rates taken on 100 (a fork-server-off batch of 500 takes 15 s)
    int tasks = Integer.getInteger("bench.batch.tasks", 500);
    int baselineTasks = Integer.getInteger("bench.batch.baseline-tasks", quick ? Math.min(100, tasks) : tasks);
    Path dir = Files.createTempDirectory("i4j-bench-batch");
    try {
      Path work = Files.createDirectories(dir.resolve("work"));
      Path cassette = dir.resolve("two-blocks.json");
      Files.writeString(cassette, cassetteJson());
      Path taskFile = dir.resolve("tasks.jsonl");
      StringBuilder lines = new StringBuilder();
      int baselineEnd = 0; // the end of the first baselineTasks lines
      for (int i = 1; i <= tasks; i++) {
        ObjectNode task = EventCodec.mapper().createObjectNode();
        task.put("id", "t" + i);
        task.put("prompt", "Compute 6 * 7 in python, then in the shell.");
        task.put("cassette", cassette.toString());
        lines.append(task).append('\n');
        if (i == baselineTasks) {
          baselineEnd = lines.length();
        }
      }
      Files.writeString(taskFile, lines);
      Path baselineFile = dir.resolve("baseline-tasks.jsonl");
      Files.writeString(baselineFile, lines.substring(0, baselineEnd));
      // One task first, not measured: the launcher makes its batch class archive at the first batch of a build (a
      // minute of dumping classes on a loaded machine), which a user pays once, not per batch.
      Path primeFile = dir.resolve("prime.jsonl");
      Files.writeString(primeFile, lines.substring(0, lines.indexOf("\n") + 1));
      launch(root, dir, work, primeFile, 1, quick, true, "prime");
      // fork server off first, then on: the same tasks back to back, in the same conditions
      ObjectNode off = launch(root, dir, work, baselineFile, baselineTasks, quick, false, "off");
      ObjectNode node = launch(root, dir, work, taskFile, tasks, quick, true, "on");
      node.put("what", tasks + " tasks of two blocks (python, then bash; a replayed model) through ./i4j batch -y "
          + "--sandbox=none --parallel " + PARALLEL + ": wall time from launch to exit; python from the fork server, "
          + "and beside it the same batch (its first " + baselineTasks + " tasks) with "
          + "interpreter4j.repl.python.fork-server = off just before");
      node.set("fork_server_off", off);
      node.put("ratio_fork_server_on_vs_off_tasks_per_s",
          Samples.round(node.path("tasks_per_s").asDouble() / off.path("tasks_per_s").asDouble()));
      ObjectNode naive = naive(baselineTasks, dir);
      node.set("naive_fresh_processes", naive);
      node.putObject("ratios").put("tasks_per_s_vs_naive",
          Samples.round(node.path("tasks_per_s").asDouble() / naive.path("tasks_per_s").asDouble()));
      return node;
    } finally {
      Tools.deleteTree(dir);
    }
  }

  /**
   * One {@code i4j batch} run of the task file, with the python fork server on or off (a config file says which);
   * its files are named after {@code label}.
   */
  private static ObjectNode launch(Path root, Path dir, Path work, Path taskFile, int tasks, boolean quick,
      boolean forkServer, String label) throws Exception {
    String mode = forkServer ? "on" : "off";
    Path out = dir.resolve("results-" + label + ".jsonl");
    Path config = dir.resolve("config-" + label);
    Files.createDirectories(config.resolve("interpreter4j"));
    Files.writeString(config.resolve("interpreter4j").resolve("config.conf"),
        "interpreter4j.repl.python.fork-server = " + mode + "\n");
    List<String> argv = List.of(root.resolve("i4j").toString(), "batch", taskFile.toString(), "-y",
        "--sandbox=none", "--parallel", Integer.toString(PARALLEL), "--out", out.toString());
    Path stderr = dir.resolve("stderr-" + label + ".txt");
    ProcessBuilder builder = new ProcessBuilder(argv).directory(work.toFile())
        .redirectInput(new File("/dev/null"))
        .redirectOutput(dir.resolve("stdout-" + label + ".txt").toFile()).redirectError(stderr.toFile());
    builder.environment().put("I4J_HOME", dir.resolve("data-" + label).toString());
    builder.environment().put("XDG_CONFIG_HOME", config.toString());
    long cpuBefore = childrenCpuMs();
    long start = System.nanoTime();
    Process batch = builder.start();
    Peaks peaks = new Peaks();
    while (!batch.waitFor(100, TimeUnit.MILLISECONDS)) {
      peaks.sample(batch.toHandle());
      if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(quick ? 3 : 10)) {
        batch.descendants().forEach(ProcessHandle::destroyForcibly);
        batch.destroyForcibly();
        throw new IllegalStateException("i4j batch did not finish in time; stderr: " + Files.readString(stderr));
      }
    }
    double wall = (System.nanoTime() - start) / 1e9;
    long cpu = childrenCpuMs() - cpuBefore;
    Map<String, Integer> statuses = new TreeMap<>();
    if (Files.exists(out)) {
      for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
        JsonNode result = EventCodec.mapper().readTree(line);
        statuses.merge(result.path("status").asText(), 1, Integer::sum);
      }
    }
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("fork_server", mode);
    node.put("tasks", tasks);
    node.put("exit_code", batch.exitValue());
    node.set("statuses", EventCodec.mapper().valueToTree(statuses));
    node.put("all_done", statuses.getOrDefault("done", 0) == tasks);
    node.put("wall_s", Samples.round(wall));
    node.put("tasks_per_s", Samples.round(tasks / wall));
    node.put("cpu_ms_per_task", Samples.round((double) cpu / tasks));
    node.put("peak_rss_mib", Samples.round(peaks.jvmKib / 1024.0));
    node.put("peak_tree_rss_mib", Samples.round(peaks.treeKib / 1024.0));
    node.put("peak_processes", peaks.processes);
    return node;
  }

  /** The model: the python block, the bash block, the answer (64-character chunks, no delay). */
  static String cassetteJson() {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    var turns = root.putArray("turns");
    for (String reply : List.of("First in python.\n\n```python\n" + PYTHON_BLOCK + "\n```\n",
        "Now in the shell.\n\n```bash\n" + BASH_BLOCK + "\n```\n", "Both say **42**.")) {
      turns.addObject().put("reply", reply).put("chunk_chars", 64).put("delay_ms", 0);
    }
    return root.toString();
  }

  /** The batch JVM's VmHWM and the peak sum of VmRSS over it and its descendants, polled. */
  static final class Peaks {
    long jvmKib;
    long treeKib;
    int processes;

    void sample(ProcessHandle batch) {
      // the launcher execs java, so the process is the JVM itself
      jvmKib = Math.max(jvmKib, Machine.kb(Path.of("/proc/" + batch.pid() + "/status"), "VmHWM:"));
      long tree = Math.max(0, Machine.kb(Path.of("/proc/" + batch.pid() + "/status"), "VmRSS:"));
      int count = 1;
      for (ProcessHandle child : batch.descendants().toList()) {
        tree += Math.max(0, Machine.kb(Path.of("/proc/" + child.pid() + "/status"), "VmRSS:"));
        count++;
      }
      treeKib = Math.max(treeKib, tree);
      processes = Math.max(processes, count);
    }
  }

  /**
   * CPU time (user + system) of this JVM's waited-for children and their waited-for descendants, in milliseconds
   * ({@code cutime + cstime} of /proc/self/stat, 100 ticks a second): its difference around a run is the run's CPU,
   * a figure that other work on the machine inflates far less than wall time.
   */
  static long childrenCpuMs() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * 10;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** A fresh {@code python3 -c} and a fresh {@code bash -c} per task, {@value #PARALLEL} lanes. */
  private static ObjectNode naive(int tasks, Path dir) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
    AtomicInteger next = new AtomicInteger();
    long cpuBefore = childrenCpuMs();
    long start = System.nanoTime();
    try {
      List<Future<?>> lanes = new ArrayList<>();
      for (int l = 0; l < PARALLEL; l++) {
        lanes.add(pool.submit(() -> {
          while (next.getAndIncrement() < tasks) {
            check(List.of(Tools.python(), "-c", PYTHON_BLOCK), dir);
            check(List.of("bash", "--noprofile", "--norc", "-c", BASH_BLOCK), dir);
          }
          return null;
        }));
      }
      for (Future<?> lane : lanes) {
        lane.get(10, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("tasks", tasks);
    node.put("cpu_ms_per_task", Samples.round((double) (childrenCpuMs() - cpuBefore) / tasks));
    node.put("lanes", PARALLEL);
    node.put("wall_s", Samples.round(seconds));
    node.put("tasks_per_s", Samples.round(tasks / seconds));
    return node;
  }

  private static void check(List<String> argv, Path dir) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectInput(new File("/dev/null"))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || !out.equals("42\n")) {
      p.destroyForcibly();
      throw new IllegalStateException(argv.get(0) + " block failed: " + out);
    }
  }
}
