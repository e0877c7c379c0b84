package io.interpreter4j.bench.repl;

import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.Tools;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The physical floor of a block round trip: a bare persistent interpreter on a pipe, no runtime, driven from one
 * Java thread with blocking reads and the same framing i4j's drivers use ({@code <marker> <nbytes>\n<code>}).
 */
final class PipeFloor {

  private PipeFloor() {}

  static Samples measure(List<String> argv, String code, String expected, int warmup, int iterations)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("LC_ALL", "C"); // bash's read -N counts characters; make them bytes
    Process process = builder.start();
    try {
      OutputStream in = process.getOutputStream();
      InputStream out = process.getInputStream();
      byte[] codeBytes = code.getBytes(StandardCharsets.UTF_8);
      byte[] buffer = new byte[8192];
      Samples samples = new Samples(iterations);
      for (int i = 1; i <= warmup + iterations; i++) {
        String marker = "m" + i;
        byte[] end = ("\u0002" + marker + " 0 -\n").getBytes(StandardCharsets.US_ASCII);
        long start = System.nanoTime();
        in.write((marker + " " + codeBytes.length + "\n").getBytes(StandardCharsets.US_ASCII));
        in.write(codeBytes);
        in.flush();
        StringBuilder seen = new StringBuilder();
        while (!endsWith(seen, end)) {
          int n = out.read(buffer);
          if (n < 0) {
            throw new IOException("the floor interpreter exited: " + argv);
          }
          seen.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
        long elapsed = System.nanoTime() - start;
        String text = seen.substring(0, seen.length() - end.length);
        if (!text.equals(expected)) {
          throw new IllegalStateException("floor printed '" + text + "', expected '" + expected + "'");
        }
        if (i > warmup) {
          samples.add(elapsed);
        }
      }
      return samples;
    } finally {
      process.getOutputStream().close();
      process.destroyForcibly();
      process.waitFor();
    }
  }

  static List<String> python(Path dir) {
    return List.of(Tools.python(), "-u", Tools.resource("pipe_floor.py", dir).toString());
  }

  static List<String> bash(Path dir) {
    return List.of("bash", "--noprofile", "--norc", Tools.resource("pipe_floor.sh", dir).toString());
  }

  private static boolean endsWith(StringBuilder seen, byte[] end) {
    if (seen.length() < end.length) {
      return false;
    }
    int offset = seen.length() - end.length;
    for (int i = 0; i < end.length; i++) {
      if (seen.charAt(offset + i) != end[i]) {
        return false;
      }
    }
    return true;
  }
}
