package io.interpreter4j.bench.startup;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.bench.Samples;
import io.interpreter4j.bench.Tools;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code startup}: {@code i4j --version} ({@code java -jar i4j.jar --version}, and through the {@code ./i4j}
 * launcher with its AppCDS archive), and the time until an interactive chat shows its prompt on a terminal (run
 * under {@code script}, so it has a pty). Beside them the floor: a JVM that only starts ({@code java -version}), and
 * the chat started as a plain {@code java -jar} with the JVM's defaults (no class archive, C2, G1).
 */
public final class StartupSection {

  private static final String BANNER = "interpreter4j \u00b7";
  /** The chat's prompt character (a plain "> " on terminals without it). */
  private static final String PROMPT = "\u276f";

  private StartupSection() {}

  public static ObjectNode run(boolean quick, Path root) throws Exception {
    int runs = quick ? 3 : 11;
    Path jar = root.resolve("i4j-cli/target/i4j.jar");
    Path launcher = root.resolve("i4j");
    Path dir = Files.createTempDirectory("i4j-bench-startup");
    try {
      Map<String, String> env = Map.of("I4J_HOME", dir.resolve("home").toString(),
          "XDG_CONFIG_HOME", dir.resolve("config").toString());
      // the launcher builds nothing here (run.sh just did) and dumps its class archive if it has none yet
      time(List.of(launcher.toString(), "--version"), env, 1);

      ObjectNode node = JsonNodeFactory.instance.objectNode();
      node.put("what", "seconds from starting the process to its exit (--version) or to the chat's prompt");
      Samples floor = time(List.of("java", "-version"), env, runs);
      Samples jarVersion = time(List.of("java", "-jar", jar.toString(), "--version"), env, runs);
      Samples launcherVersion = time(List.of(launcher.toString(), "--version"), env, runs);
      ObjectNode version = node.putObject("version");
      version.set("java_jar", seconds(jarVersion));
      version.set("launcher_with_cds", seconds(launcherVersion));
      version.set("floor_jvm_only", seconds(floor));
      version.put("over_floor_median", Samples.round(jarVersion.medianMs() / floor.medianMs()));

      String model = "replay:" + root.resolve("examples/hello.json");
      Prompt cds = prompt(List.of(launcher.toString(), "--model", model), env, root, runs);
      Prompt plain = prompt(List.of("java", "-jar", jar.toString(), "--model", model), env, root, runs);
      ObjectNode prompt = node.putObject("prompt");
      prompt.put("command", "the chat on the offline demo model (--model replay:examples/hello.json), on a pty");
      prompt.set("launcher_with_cds", seconds(cds.prompt()));
      prompt.set("launcher_with_cds_banner", seconds(cds.banner()));
      prompt.set("java_jar_jvm_defaults", seconds(plain.prompt()));
      prompt.put("speedup_vs_java_jar_median", Samples.speedup(plain.prompt().medianMs(), cds.prompt().medianMs()));
      return node;
    } finally {
      Tools.deleteTree(dir);
    }
  }

  private static ObjectNode seconds(Samples samples) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("median_s", Samples.round(samples.medianMs() / 1000));
    node.put("min_s", Samples.round(samples.quantileMs(0) / 1000));
    node.put("max_s", Samples.round(samples.quantileMs(1) / 1000));
    node.put("n", samples.size());
    return node;
  }

  /** Runs a command to its exit {@code runs} times (output discarded); its wall times. */
  private static Samples time(List<String> argv, Map<String, String> env, int runs) throws Exception {
    Samples samples = new Samples(runs);
    for (int i = 0; i < runs; i++) {
      ProcessBuilder builder = new ProcessBuilder(argv).redirectInput(new File("/dev/null"))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
      builder.environment().putAll(env);
      long start = System.nanoTime();
      Process p = builder.start();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("did not exit within 5 minutes: " + argv);
      }
      samples.add(System.nanoTime() - start);
      if (p.exitValue() != 0) {
        throw new IllegalStateException(argv + " exited " + p.exitValue());
      }
    }
    return samples;
  }

  /** Times to the banner line and to the prompt after it. */
  private record Prompt(Samples banner, Samples prompt) {}

  /**
   * Starts the chat under {@code script} (a pty of 120x40: JLine draws nothing useful on a 0-column terminal) and
   * waits for the banner, then for the {@code "> "} prompt after it; then ends the chat with Ctrl-D.
   */
  private static Prompt prompt(List<String> argv, Map<String, String> env, Path cwd, int runs) throws Exception {
    Samples banner = new Samples(runs);
    Samples prompt = new Samples(runs);
    String command = "stty cols 120 rows 40 2>/dev/null; exec " + String.join(" ", argv.stream()
        .map(a -> "'" + a.replace("'", "'\\''") + "'").toList());
    for (int i = 0; i < runs; i++) {
      ProcessBuilder builder = new ProcessBuilder("script", "-qfec", command, "/dev/null").directory(cwd.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD);
      builder.environment().putAll(env);
      builder.environment().put("TERM", "xterm-256color");
      long start = System.nanoTime();
      Process p = builder.start();
      try {
        long[] at = watch(p.getInputStream(), start);
        banner.add(at[0]);
        prompt.add(at[1]);
        p.getOutputStream().write(4); // Ctrl-D: the chat exits
        p.getOutputStream().flush();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the chat did not exit on Ctrl-D");
        }
      } finally {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
      }
    }
    return new Prompt(banner, prompt);
  }

  /** Reads the terminal output until the prompt follows the banner; nanoseconds from start to each. */
  private static long[] watch(InputStream out, long start) throws Exception {
    CompletableFuture<long[]> seen = CompletableFuture.supplyAsync(() -> {
      StringBuilder text = new StringBuilder();
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      long bannerAt = -1;
      try {
        int n;
        while ((n = out.read(buffer)) >= 0) {
          bytes.write(buffer, 0, n); // decoded whole: a read may end inside a multi-byte character
          text.setLength(0);
          text.append(bytes.toString(StandardCharsets.UTF_8));
          int b = text.indexOf(BANNER);
          if (b >= 0 && bannerAt < 0) {
            bannerAt = System.nanoTime() - start;
          }
          if (b >= 0 && (text.indexOf("> ", b) >= 0 || text.indexOf(PROMPT, b) >= 0)) {
            return new long[] {bannerAt, System.nanoTime() - start};
          }
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      throw new IllegalStateException("the chat ended before its prompt: " + text);
    });
    return seen.get(60, TimeUnit.SECONDS);
  }

}
