package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code i4j} command run as a child JVM on this test's class path, as a person runs {@code ./i4j}: in a working
 * folder, with its own data and config folders and no model from the environment; what it printed is collected.
 */
public final class CliProcess {

  private CliProcess() {}

  /** What a finished child said. */
  public record Result(int exit, String stdout, String stderr) {
    /** The events of {@code --json}, one a line. */
    List<JsonNode> events() throws IOException {
      List<JsonNode> out = new ArrayList<>();
      for (String line : stdout.split("\n")) {
        out.add(EventCodec.mapper().readTree(line));
      }
      return out;
    }

    /** The text of the output events (with --json). */
    String output() throws IOException {
      StringBuilder text = new StringBuilder();
      for (JsonNode event : events()) {
        if (event.get("type").asText().equals("output")) {
          text.append(event.get("text").asText());
        }
      }
      return text.toString();
    }
  }

  /** Starts {@code i4j ARGS} in {@code workdir}; {@code env} is added last (it may override the folders). */
  public static Process start(Path workdir, Path data, Path config, Map<String, String> env, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(workdir.toFile());
    pb.environment().put("I4J_HOME", data.toString());
    pb.environment().put("XDG_CONFIG_HOME", config.toString());
    pb.environment().remove("I4J_MODEL");
    pb.environment().putAll(env);
    return pb.start();
  }

  /** Feeds {@code stdin} (null: none), closes it and waits at most {@code within} for the child to exit. */
  public static Result finish(Process p, String stdin, Duration within) throws Exception {
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    if (stdin != null) {
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    p.getOutputStream().close();
    assertTrue(p.waitFor(within.toSeconds(), TimeUnit.SECONDS), "i4j did not exit within " + within);
    return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
  }

  private static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
