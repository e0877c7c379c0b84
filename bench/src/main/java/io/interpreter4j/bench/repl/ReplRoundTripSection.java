package io.interpreter4j.bench.repl;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code repl_roundtrip}: a trivial python block ({@code print(1)}) and bash block ({@code echo 1}) through a
 * warm i4j worker, beside a Jupyter kernel (python), a fresh process per block, and a bare persistent pipe.
 */
public final class ReplRoundTripSection {

  /** Blocks before the first series may be measured: past C2's thresholds for the per-block path. */
  static final int JIT_WARMUP = 10_000;

  private ReplRoundTripSection() {}

  public static ObjectNode run(boolean quick) throws Exception {
    // the least warm-up: past it, blocks go on until the JIT is quiet (see WorkerRoundTrip)
    int warmup = quick ? 500 : 2000;
    int iterations = quick ? 1000 : 5000;
    Path dir = Files.createTempDirectory("i4j-bench-repl");
    try {
      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("what", "one trivial block per round trip through a warm interpreter; milliseconds");
      // each block's output goes to a new file, so how fast this disk creates one shows in the round trip
      node.set("disk_new_file", newFile(dir.resolve("disk-probe")).toJson());
      node.put("disk_new_file_what", "creating and writing a 2-byte file in the outputs' folder, 1 ms apart "
          + "(as blocks create theirs: after a pause, when this VM's disk is slowest)");
      node.set("python", python(dir, warmup, iterations, quick));
      node.set("bash", bash(dir, warmup, iterations, quick));
      return node;
    } finally {
      Tools.deleteTree(dir);
    }
  }

  /** Creating (and writing two bytes to) a new file in the folder the outputs go to. */
  private static Samples newFile(Path dir) throws java.io.IOException {
    Files.createDirectories(dir);
    Samples samples = new Samples(500);
    for (int i = 0; i < 500; i++) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      long start = System.nanoTime();
      Files.writeString(dir.resolve("f-" + i + ".txt"), "1\n");
      samples.add(System.nanoTime() - start);
    }
    return samples;
  }

  private static ObjectNode python(Path dir, int warmup, int iterations, boolean quick) throws Exception {
    String code = "print(1)";
    // the first series warms this JVM's JIT past C2's thresholds (a method is compiled by C2 after ~5,000 calls, and
    // one quiet warm-up round can come between C1's compiles and C2's): the series after it share the compiled path
    WorkerRoundTrip.Run run = WorkerRoundTrip.measure("python", code, "1\n", Math.max(warmup, JIT_WARMUP), iterations,
        dir.resolve("python"));
    Samples i4j = run.samples();
    // the same with the session folder in memory (tmpfs): the runtime's own cost, without this disk's
    Path shm = Path.of("/dev/shm");
    Samples inMemory = null;
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      Path memoryDir = Files.createTempDirectory(shm, "i4j-bench-repl");
      try {
        inMemory = WorkerRoundTrip.measure("python", code, "1\n", warmup, iterations, memoryDir).samples();
      } finally {
        Tools.deleteTree(memoryDir);
      }
    }
    Samples floor = PipeFloor.measure(PipeFloor.python(dir), code, "1\n", warmup, iterations);
    Samples fresh = FreshProcess.measure(List.of(Tools.python(), "-c"), code, "1\n", 3, quick ? 20 : 50);
    JupyterBaseline.Result jupyter = JupyterBaseline.measure(code, quick ? 100 : 300, quick ? 300 : 1000, dir);
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("code", code);
    node.put("interpreter", Tools.python());
    node.set("i4j", i4j.toJson());
    node.set("i4j_warmup", run.warmupJson());
    if (inMemory != null) {
      node.set("i4j_outputs_in_memory", inMemory.toJson());
    }
    if (jupyter.samples() != null) {
      ObjectNode j = jupyter.samples().toJson();
      j.put("interpreter", JupyterBaseline.PYTHON + " " + jupyter.python() + ", ipykernel " + jupyter.ipykernel());
      node.set("jupyter_kernel", j);
    } else {
      node.putObject("jupyter_kernel").put("skipped", jupyter.skipped());
    }
    node.set("fresh_process", fresh.toJson());
    node.set("pipe_floor", floor.toJson());
    ObjectNode ratios = node.putObject("ratios");
    if (jupyter.samples() != null) {
      ratios.put("speedup_vs_jupyter_median", Samples.speedup(jupyter.samples().medianMs(), i4j.medianMs()));
      ratios.put("speedup_vs_jupyter_p99", Samples.speedup(jupyter.samples().p99Ms(), i4j.p99Ms()));
    }
    ratios.put("speedup_vs_fresh_process_median", Samples.speedup(fresh.medianMs(), i4j.medianMs()));
    ratios.put("over_floor_median", Samples.round(i4j.medianMs() / floor.medianMs()));
    if (inMemory != null && jupyter.samples() != null) {
      ratios.put("outputs_in_memory_speedup_vs_jupyter_median",
          Samples.speedup(jupyter.samples().medianMs(), inMemory.medianMs()));
    }
    return node;
  }

  private static ObjectNode bash(Path dir, int warmup, int iterations, boolean quick) throws Exception {
    String code = "echo 1";
    WorkerRoundTrip.Run run = WorkerRoundTrip.measure("bash", code, "1\n", warmup, iterations, dir.resolve("bash"));
    Samples i4j = run.samples();
    Samples floor = PipeFloor.measure(PipeFloor.bash(dir), code, "1\n", warmup, iterations);
    Samples fresh = FreshProcess.measure(List.of("bash", "--noprofile", "--norc", "-c"), code, "1\n", 3,
        quick ? 50 : 200);
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("code", code);
    node.set("i4j", i4j.toJson());
    node.set("i4j_warmup", run.warmupJson());
    node.set("fresh_process", fresh.toJson());
    node.set("pipe_floor", floor.toJson());
    ObjectNode ratios = node.putObject("ratios");
    ratios.put("speedup_vs_fresh_process_median", Samples.speedup(fresh.medianMs(), i4j.medianMs()));
    ratios.put("over_floor_median", Samples.round(i4j.medianMs() / floor.medianMs()));
    return node;
  }
}
