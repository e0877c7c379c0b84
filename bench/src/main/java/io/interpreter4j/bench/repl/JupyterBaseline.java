package io.interpreter4j.bench.repl;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.Tools;
import io.interpreter4j.core.event.EventCodec;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * How Open Interpreter runs python: a Jupyter kernel (ipykernel) driven by jupyter_client's BlockingKernelClient,
 * execute then wait for the kernel's idle status. Timed inside the client, so process start-up is excluded.
 */
public final class JupyterBaseline {

  /** Debian's python3-jupyter-client and python3-ipykernel live under the system python. */
  public static final String PYTHON = "/usr/bin/python3";

  /** The samples and versions, or why there are none. */
  public record Result(Samples samples, String python, String ipykernel, String skipped) {}

  private JupyterBaseline() {}

  /** Rounds of one block, {@code code}; {@code "@FILE"} runs the blocks of a JSON list in FILE in turn, cycling. */
  public static Result measure(String code, int warmup, int iterations, Path dir) throws InterruptedException {
    if (!Files.isExecutable(Path.of(PYTHON))
        || !Tools.output(List.of(PYTHON, "-c", "import jupyter_client, ipykernel; print('ok')")).strip().equals("ok")) {
      return new Result(null, null, null, "jupyter_client/ipykernel not importable by " + PYTHON
          + " (apt-get install python3-jupyter-client python3-ipykernel)");
    }
    Path script = Tools.resource("jupyter_roundtrip.py", dir);
    ProcessBuilder builder = new ProcessBuilder(PYTHON, script.toString(), code, Integer.toString(warmup),
        Integer.toString(iterations)).redirectInput(new File("/dev/null"))
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("JUPYTER_RUNTIME_DIR", dir.resolve("jupyter-runtime").toString());
    builder.environment().put("PYDEVD_DISABLE_FILE_VALIDATION", "1");
    try {
      Process p = builder.start();
      CompletableFuture<byte[]> out = Tools.drain(p.getInputStream());
      if (!p.waitFor(3, TimeUnit.MINUTES)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        return new Result(null, null, null, "the jupyter round trip did not finish within 3 minutes");
      }
      String text = new String(out.join(), StandardCharsets.UTF_8).strip();
      String last = text.substring(text.lastIndexOf('\n') + 1);
      JsonNode json = EventCodec.mapper().readTree(last);
      Samples samples = new Samples(iterations);
      for (JsonNode ms : json.path("samples_ms")) {
        samples.add(Math.round(ms.asDouble() * 1e6));
      }
      return new Result(samples, json.path("python").asText(), json.path("ipykernel").asText(), null);
    } catch (IOException | RuntimeException e) {
      return new Result(null, null, null, "the jupyter round trip failed: " + e);
    }
  }
}
