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

  private ServeNode(int clusterPort, Process process, String url, Path log) {
    this.clusterPort = clusterPort;
    this.process = process;
    this.url = url;
    this.log = log;
  }

  static ServeNode start(Path folder, Path workdir, int clusterPort, String seeds, String journalUrl,
                         String journalUser, String token) throws Exception {
    Path data = Files.createDirectories(folder.resolve("data"));
    Path config = Files.createDirectories(folder.resolve("config"));
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
    CompletableFuture<String> url = CompletableFuture.supplyAsync(() -> watch(p, log));
    String found = url.get(120, TimeUnit.SECONDS);
    assertTrue(found != null, "node " + clusterPort + " ended before serving: " + Files.readString(log));
    return new ServeNode(clusterPort, p, found, log);
  }

  /** Copies stderr to the log file; returns the URL once it is said (the copying goes on in the background). */
  private static String watch(Process p, Path log) {
    CompletableFuture<String> url = new CompletableFuture<>();
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
    return url.join();
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
      process.destroy(); // SIGTERM: the node leaves
      if (!process.waitFor(40, TimeUnit.SECONDS)) {
        kill();
      }
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
  }
}
