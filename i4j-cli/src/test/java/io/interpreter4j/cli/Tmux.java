package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A terminal for tests: a tmux server on its own socket running a plain bash in one pane. Tests type into it
 * ({@code send-keys}) and read the screen ({@code capture-pane}). tmux has no event to wait on, so
 * {@link #await} polls the screen until the text appears or a deadline passes.
 */
final class Tmux implements AutoCloseable {
  static final int COLUMNS = 110;
  static final int ROWS = 50;
  private static final Duration POLL = Duration.ofMillis(100);

  private final String socket = "i4jtest-" + UUID.randomUUID().toString().substring(0, 8);
  private final Map<String, String> env;

  private Tmux(Map<String, String> env) {
    this.env = env;
  }

  static boolean installed() {
    try {
      Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Starts the server with {@code env} added to the environment and a bash without rc files in {@code dir}. */
  static Tmux start(Path dir, Map<String, String> env) throws Exception {
    Tmux t = new Tmux(env);
    t.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", String.valueOf(COLUMNS), "-y",
        String.valueOf(ROWS), "-c", dir.toString(), "bash --norc --noprofile");
    t.run("set-option", "-g", "history-limit", "10000");
    t.line("PS1='$ '; clear");
    t.await("^\\$\\z", Duration.ofSeconds(10));
    return t;
  }

  /** Types text literally, then Enter. */
  void line(String text) throws Exception {
    type(text);
    key("Enter");
  }

  void type(String text) throws Exception {
    run("send-keys", "-t", "t", "-l", text);
  }

  /** Presses a key by its tmux name: Enter, C-c, C-d, Tab. */
  void key(String name) throws Exception {
    run("send-keys", "-t", "t", name);
  }

  /** The process id of the shell in the pane. */
  long shellPid() throws Exception {
    return Long.parseLong(run("display-message", "-p", "-t", "t", "#{pane_pid}").strip());
  }

  /** The pane with its scrollback, wrapped lines joined, trailing blank lines dropped. */
  String screen() throws Exception {
    return run("capture-pane", "-p", "-J", "-t", "t", "-S", "-10000").stripTrailing();
  }

  /** Waits until {@code regex} (MULTILINE: ^ and $ match at lines) is found on the screen; fails with the screen if not. */
  String await(String regex, Duration within) throws Exception {
    return awaitCount(regex, 1, within);
  }

  /** Waits until {@code regex} is found at least {@code count} times. */
  String awaitCount(String regex, int count, Duration within) throws Exception {
    Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
    long deadline = System.nanoTime() + within.toNanos();
    String screen;
    while (true) {
      screen = screen();
      Matcher m = pattern.matcher(screen);
      int found = 0;
      while (found < count && m.find()) {
        found++;
      }
      if (found >= count) {
        return screen;
      }
      if (System.nanoTime() > deadline) {
        fail("not on the screen " + count + " time(s) within " + within + ": /" + regex + "/\n--- screen ---\n"
            + screen + "\n--------------");
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private String run(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    // Only what the test sets: none of the developer's own I4J_* settings or NO_COLOR.
    pb.environment().keySet().removeIf(k -> k.startsWith("I4J_") || k.equals("NO_COLOR") || k.equals("TMUX"));
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("tmux " + String.join(" ", args) + " did not return");
    }
    if (p.exitValue() != 0) {
      fail("tmux " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    List<String> cmd = List.of("tmux", "-L", socket, "kill-server");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    p.waitFor(20, TimeUnit.SECONDS);
  }
}
