package io.interpreter4j.bench.repl;

import io.interpreter4j.bench.Samples;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The naive runner: a fresh interpreter per block ({@code python3 -c CODE}, {@code bash -c CODE}). */
public final class FreshProcess {

  private FreshProcess() {}

  public static Samples measure(List<String> argvBeforeCode, String code, String expected, int warmup, int iterations)
      throws IOException, InterruptedException {
    Samples samples = new Samples(iterations);
    List<String> argv = new ArrayList<>(argvBeforeCode);
    argv.add(code);
    for (int i = 1; i <= warmup + iterations; i++) {
      long start = System.nanoTime();
      Process p = new ProcessBuilder(argv).redirectInput(new File("/dev/null"))
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      // the output is one short line: it fits in the pipe, so reading after the exit cannot deadlock
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("a fresh interpreter hung: " + argv);
      }
      long elapsed = System.nanoTime() - start;
      String text = new String(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0 || !text.equals(expected)) {
        throw new IllegalStateException(argv + " exited " + p.exitValue() + " printing '" + text + "'");
      }
      if (i > warmup) {
        samples.add(elapsed);
      }
    }
    return samples;
  }
}
