package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command with a person's mistakes: unknown flags, bad values, missing and malformed files, a taken port, a
 * bad config file and bad {@code I4J_*} variables. Each must say what is wrong in one line on stderr (and at most
 * the line pointing to the command's help), exit with the documented code, and print no stack trace.
 */
class BadInputTest {

  @TempDir Path tmp;
  private ServerSocket taken;

  /** A mistake: the command line, the environment, the exit code and a part of the one line it must print. */
  private record Case(String name, Map<String, String> env, List<String> args, int exit, String says) {
    static Case of(String name, int exit, String says, String... args) {
      return new Case(name, Map.of(), List.of(args), exit, says);
    }

    Case withEnv(String variable, String value) {
      return new Case(name, Map.of(variable, value), args, exit, says);
    }
  }

  @AfterEach
  void freeThePort() throws IOException {
    if (taken != null) {
      taken.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyCommandSaysWhatIsWrongInOneLine() throws IOException {
    Path work = Files.createDirectories(tmp.resolve("work"));
    Path cassette = Files.writeString(tmp.resolve("hello.json"), "{\"turns\": [{\"reply\": \"Hello.\"}]}");
    Path brokenCassette = Files.writeString(tmp.resolve("broken.json"), "{\"turns\": [{\"reply\": ");
    Path badConf = Files.writeString(tmp.resolve("bad.conf"), "interpreter4j {\n  execution.timeout =\n}}\n");
    Path zeroConf = Files.writeString(tmp.resolve("zero.conf"), "interpreter4j {\n  execution.timeout = 0s\n}\n");
    Path tasks = Files.writeString(tmp.resolve("tasks.jsonl"), "{\"id\": \"t1\", \"prompt\": \"hi\"}\n");
    Path badTasks = Files.writeString(tmp.resolve("bad.jsonl"), "{\"id\": \"t1\", \"prompt\": \n");
    Path folder = Files.createDirectories(tmp.resolve("a-folder"));
    taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    String port = Integer.toString(taken.getLocalPort());
    String model = "replay:" + cassette;

    List<Case> cases = new ArrayList<>(List.of(
        Case.of("i4j: unknown flag", 2, "unknown option: '--bogus-flag'", "--bogus-flag"),
        Case.of("i4j: a flag's value missing", 2, "missing required parameter for option '--model'", "--model"),
        Case.of("i4j: bad profile", 2, "profile 'nope' not found", "--profile", "nope", "-m", model),
        Case.of("i4j: dashboard port taken", 2, "port " + port + " on 127.0.0.1 is already in use (--port 0",
            "--dashboard", "--port", port, "-m", model),
        Case.of("run: no task", 2, "missing required parameter: 'TASK'", "run"),
        Case.of("run: misspelled flag", 2, "unknown option: '--tiemout=5' (did you mean --timeout?)", "run",
            "--tiemout=5", "x"),
        Case.of("run: bad duration", 2, "'abc' is not a duration", "run", "--timeout", "abc", "x"),
        Case.of("run: zero duration", 2, "'0' is not positive", "run", "--timeout", "0", "x"),
        Case.of("run: too little output", 2, "'10' is less than 200", "run", "--max-output", "10", "x"),
        Case.of("run: not a number", 2, "'many' is not a whole number", "run", "--max-iterations", "many", "x"),
        Case.of("run: bad tool calling", 2, "'maybe' is not on, off or auto", "run", "--tool-calling", "maybe", "x"),
        Case.of("run: bad sandbox", 2, "--sandbox", "run", "--sandbox", "cardboard", "x"),
        Case.of("run: missing cassette", 2, "cassette not found", "run", "-m", "replay:" + tmp.resolve("no.json"),
            "x"),
        Case.of("run: a folder as cassette", 2, "cassette not found", "run", "-m", "replay:" + folder, "x"),
        Case.of("run: malformed cassette", 2, "broken.json", "run", "-m", "replay:" + brokenCassette, "x"),
        Case.of("run: missing config", 2, "config file not found", "run", "--config", tmp + "/no.conf", "x"),
        Case.of("run: a folder as config", 2, "config file not found", "run", "--config", folder.toString(), "x"),
        Case.of("run: config syntax", 2, "config file " + badConf + ", line 3: expecting a value, not '}'",
            "run", "--config", badConf.toString(), "x"),
        Case.of("run: config value", 2, zeroConf + ":2: execution.timeout = 0s must be positive",
            "run", "--config", zeroConf.toString(), "-m", model, "x"),
        Case.of("run: missing workdir", 2, "working directory not found", "run", "--workdir", tmp + "/nowhere",
            "-m", model, "x"),
        Case.of("run: I4J_TIMEOUT", 2, "I4J_TIMEOUT=abc is not a duration", "run", "-m", model, "x")
            .withEnv("I4J_TIMEOUT", "abc"),
        Case.of("run: I4J_MAX_OUTPUT", 2, "I4J_MAX_OUTPUT=lots is not a whole number", "run", "-m", model, "x")
            .withEnv("I4J_MAX_OUTPUT", "lots"),
        Case.of("run: I4J_APPROVAL", 2, "I4J_APPROVAL=sometimes must be ask or auto", "run", "-m", model, "x")
            .withEnv("I4J_APPROVAL", "sometimes"),
        Case.of("run: I4J_HOME a file", 2, "cannot keep sessions in " + cassette, "run", "-m", model, "x")
            .withEnv("I4J_HOME", cassette.toString()),
        Case.of("run: I4J_PROFILE", 2, "profile 'ghost' not found", "run", "-m", model, "x")
            .withEnv("I4J_PROFILE", "ghost"),
        Case.of("serve: port taken", 2, "port " + port + " on 127.0.0.1 is already in use (--port 0 picks a free one)",
            "serve", "--port", port, "-m", model),
        Case.of("serve: bad port", 2, "invalid value for option '--port'", "serve", "--port", "eighty"),
        Case.of("serve: no --json", 2, "unknown option: '--json'", "serve", "--json"),
        Case.of("serve: remote without consent", 2, "needs --allow-remote", "serve", "--host", "0.0.0.0", "--port",
            "0", "-m", model),
        Case.of("sessions: bad limit", 2, "invalid value for option '--limit'", "sessions", "-n", "ten"),
        Case.of("sessions: bad config", 2, "line 3: expecting a value", "sessions", "--config", badConf.toString()),
        Case.of("show: no such session", 2, "no sessions yet", "show", "nope"),
        Case.of("show: unknown flag", 2, "unknown option: '--html'", "show", "--html"),
        Case.of("resume: no such session", 2, "no sessions yet", "resume", "nope"),
        Case.of("profiles: unknown flag", 2, "unknown option: '--all'", "profiles", "--all"),
        Case.of("doctor: bad sandbox", 2, "--sandbox", "doctor", "--sandbox", "cardboard"),
        Case.of("doctor: bad config", 2, "line 3: expecting a value", "doctor", "--config", badConf.toString()),
        Case.of("batch: missing tasks", 2, "task file not found", "batch", tmp + "/no.jsonl"),
        Case.of("batch: malformed tasks", 2, "invalid line(s)", "batch", badTasks.toString()),
        Case.of("batch: zero parallel", 2, "--parallel must be at least 1", "batch", tasks.toString(),
            "--parallel", "0"),
        Case.of("batch: zero timeout", 2, "'0' is not positive", "batch", tasks.toString(), "--task-timeout", "0"),
        Case.of("batch: bad config", 2, "line 3: expecting a value", "batch", tasks.toString(), "--config",
            badConf.toString())));
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(work, c)));
  }

  private void check(Path work, Case c) throws Exception {
    CliProcess.Result r = CliProcess.finish(CliProcess.start(work, tmp.resolve("data"), tmp.resolve("config"),
        c.env(), c.args().toArray(String[]::new)), "", Duration.ofSeconds(90));
    String context = "i4j " + String.join(" ", c.args()) + "\nstderr:\n" + r.stderr() + "stdout:\n" + r.stdout();
    assertEquals(c.exit(), r.exit(), context);
    List<String> lines = Arrays.stream(r.stderr().split("\n")).filter(l -> !l.isBlank())
        // the batch command says which lines are invalid before its one line, one line each
        .filter(l -> !l.matches("i4j batch: .*\\.jsonl:\\d+: .*")).toList();
    assertFalse(lines.isEmpty(), context);
    assertTrue(lines.get(0).startsWith("i4j") && lines.get(0).contains(c.says()), "the first line says it: " + context);
    assertTrue(lines.size() == 1 || lines.size() == 2 && lines.get(1).matches("see 'i4j( \\w+)? --help'"),
        "one line, at most followed by the pointer to the help: " + context);
    assertFalse(r.stderr().lines().anyMatch(l -> l.matches("\\s+at .*")), "no stack trace: " + context);
    assertEquals("", r.stdout().strip(), "nothing on stdout: " + context);
  }
}
