package io.interpreter4j.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.cli.Main;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code i4j serve} cluster node in a JVM of its own (this test's class path, a small heap), with its own data
 * folder; its stderr is kept in a file and watched for the line that gives its URL.
 */
final class ServeNode implements AutoCloseable {
  private static final Pattern SERVING = Pattern.compile("i4j: serving on (http://\\S+)");

  final int clusterPort;
  final Process process;
  final String url;
  final Path log;
  private final Thread copier;

  private ServeNode(int clusterPort, Process process, String url, Path log, Thread copier) {
    this.clusterPort = clusterPort;
    this.process = process;
    this.url = url;
    this.log = log;
    this.copier = copier;
  }

  static ServeNode start(Path folder, Path workdir, int clusterPort, String seeds, String journalUrl,
                         String journalUser, String token) throws Exception {
    return start(folder, workdir, clusterPort, seeds, journalUrl, journalUser, token, null);
  }

  /** @param configFile the node's config file (HOCON), or null for none */
  static ServeNode start(Path folder, Path workdir, int clusterPort, String seeds, String journalUrl,
                         String journalUser, String token, String configFile) throws Exception {
    Path data = Files.createDirectories(folder.resolve("data"));
    Path config = Files.createDirectories(folder.resolve("config"));
    if (configFile != null) {
      Files.writeString(Files.createDirectories(config.resolve("interpreter4j")).resolve("config.conf"), configFile);
    }
    Path log = folder.resolve("serve.log");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-Xss512k",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "serve", "--port", "0", "--cluster-port", Integer.toString(clusterPort), "--seed-nodes", seeds,
        "--journal-url", journalUrl, "--journal-user", journalUser));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workdir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(folder.resolve("serve.out").toFile());
    pb.environment().putAll(Map.of("I4J_HOME", data.toString(), "XDG_CONFIG_HOME", config.toString(),
        "I4J_TOKEN", token, "I4J_JOURNAL_PASSWORD", "unused-with-trust"));
    pb.environment().remove("I4J_MODEL");
    Process p = pb.start();
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread copier = watch(p, log, url);
    String found = url.get(120, TimeUnit.SECONDS);
    assertTrue(found != null, "node " + clusterPort + " ended before serving: " + Files.readString(log));
    return new ServeNode(clusterPort, p, found, log, copier);
  }

  /** Copies stderr to the log file, completing {@code url} once it is said (or with null if the node ends first). */
  private static Thread watch(Process p, Path log, CompletableFuture<String> url) {
    Thread copier = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
           var out = Files.newBufferedWriter(log)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          out.write(line);
          out.newLine();
          out.flush();
          Matcher m = SERVING.matcher(line);
          if (m.find()) {
            url.complete(m.group(1));
          }
        }
      } catch (IOException e) {
        // the node is gone
      }
      url.complete(null);
    }, "serve-node-log");
    copier.setDaemon(true);
    copier.start();
    return copier;
  }

  /**
   * SIGTERM, then waits for the node to exit; returns its exit code. The signal goes through the process's handle:
   * {@code Process.destroy()} would also close our end of its stdout and stderr, and what the node says while it
   * leaves would be lost.
   */
  int terminate() throws InterruptedException {
    process.toHandle().destroy();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      kill();
      throw new AssertionError("node " + clusterPort + " did not exit within 120 s of SIGTERM");
    }
    copier.join(TimeUnit.SECONDS.toMillis(30)); // its last lines are in the log
    return process.exitValue();
  }

  /** What the node wrote on stderr and stdout. */
  String log() throws IOException {
    Path out = log.resolveSibling("serve.out");
    return Files.readString(log) + (Files.exists(out) ? "\n--- stdout:\n" + Files.readString(out) : "");
  }

  /** SIGKILL: no leaving, no hand-over. */
  void kill() throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.toHandle().destroy(); // SIGTERM: the node leaves (its output still read, see terminate)
      if (!process.waitFor(40, TimeUnit.SECONDS)) {
        kill();
      }
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
  }
}
