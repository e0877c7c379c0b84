package io.interpreter4j.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A node script of a test folder with its own {@code package.json} and lockfile (real clients nobody here wrote:
 * the OpenAI SDK, the MCP SDK), run as a child process: argv as a value, stdout and stderr drained concurrently, a
 * deadline after which its whole process tree is killed. The folder's packages come from {@code npm ci}, which
 * {@code .ci/run} runs; where node or the packages are missing, {@link #need} skips the test (fails it in CI).
 */
public final class NodeScript {
  private final Path folder;

  /** What a finished script said. */
  public record Result(int exit, String stdout, String stderr) {
    /** The last line of stdout (the scripts print their findings there as one JSON line). */
    public String lastLine() {
      String[] lines = stdout.strip().split("\n");
      return lines[lines.length - 1];
    }
  }

  private NodeScript(Path folder) {
    this.folder = folder.toAbsolutePath().normalize();
  }

  /**
   * The scripts of {@code folder}, once node is on the PATH and {@code module} is installed under its
   * {@code node_modules}; else the test is skipped (failed in CI) saying how to install them.
   */
  public static NodeScript need(Path folder, String module) {
    RequiredTool.assume(onPath("node"), "node", "apt-get install nodejs");
    RequiredTool.assume(Files.isDirectory(folder.resolve("node_modules").resolve(module)),
        "the npm package " + module + " in " + folder, "(cd " + folder + " && npm ci)");
    return new NodeScript(folder);
  }

  /** Runs {@code node SCRIPT ARGS} in the folder with {@code env} added; kills its tree after {@code within}. */
  public Result run(String script, Map<String, String> env, Duration within, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("node", script));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(folder.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    if (!p.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("node " + script + " " + String.join(" ", args) + " did not finish within " + within
          + "; its stderr: " + err.getNow(""));
    }
    return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
  }

  public Path folder() {
    return folder;
  }

  private static boolean onPath(String command) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  private static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
