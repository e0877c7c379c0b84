package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.testing.FullDisk;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code i4j run} as a real child process: exit codes, the --json protocol, piped approvals, stdin tasks. */
class RunCommandTest {
  @TempDir Path tmp;
  private Path work;

  @BeforeEach
  void setUp() throws IOException {
    work = Files.createDirectories(tmp.resolve("work"));
  }

  private Path cassette(String json) throws IOException {
    Path file = tmp.resolve("cassette-" + System.nanoTime() + ".json");
    Files.writeString(file, json);
    return file;
  }

  private Process start(String... args) throws IOException {
    return start(tmp.resolve("data"), args);
  }

  private Process start(Path data, String... args) throws IOException {
    return CliProcess.start(work, data, tmp.resolve("config"), Map.of(), args);
  }

  private CliProcess.Result finish(Process p, String stdin) throws Exception {
    return CliProcess.finish(p, stdin, Duration.ofSeconds(90));
  }

  private CliProcess.Result run(String stdin, String... args) throws Exception {
    return finish(start(args), stdin);
  }

  @Test
  void jsonModePrintsOnlyEventsAndExitsZeroWhenDone() throws Exception {
    Path c = cassette("{\"turns\": [{\"reply\": \"```python\\nprint(6*7)\\n```\"},"
        + "{\"expect\": \"exit code 0\", \"reply\": \"It is 42.\"}]}");
    CliProcess.Result r = run(null, "run", "-y", "--json", "--model", "replay:" + c, "compute");
    assertEquals(0, r.exit(), r.stderr());
    List<JsonNode> events = r.events();
    assertEquals("session_started", events.get(0).get("type").asText());
    JsonNode last = events.get(events.size() - 1);
    assertEquals("turn_finished", last.get("type").asText());
    assertEquals("done", last.get("status").asText());
    long seq = 0;
    for (JsonNode e : events) {
      assertEquals(++seq, e.get("seq").asLong());
    }
    StringBuilder output = new StringBuilder();
    events.stream().filter(e -> e.get("type").asText().equals("output"))
        .forEach(e -> output.append(e.get("text").asText()));
    assertEquals("42\n", output.toString());
    String id = events.get(0).get("session").asText();
    assertTrue(Files.exists(tmp.resolve("data/sessions").resolve(id).resolve("events.jsonl")));
  }

  @Test
  void givingUpExitsOne() throws Exception {
    Path c = cassette("{\"turns\": [{\"reply\": \"```bash\\nfalse\\n```\"}, {\"reply\": \"```bash\\nfalse\\n```\"}]}");
    CliProcess.Result r = run(null, "run", "-y", "--json", "-m", "replay:" + c, "fail");
    assertEquals(1, r.exit(), r.stderr());
    assertTrue(r.stdout().contains("\"status\":\"gave_up\""));
  }

  @Test
  void usageAndConfigurationErrorsExitTwoWithAClearMessage() throws Exception {
    CliProcess.Result noTask = run(null, "run", "-y");
    assertEquals(2, noTask.exit());
    assertTrue(noTask.stderr().contains("i4j: missing required parameter: 'TASK'"), noTask.stderr());

    CliProcess.Result missing = run(null, "run", "-y", "-m", "replay:nope.json", "x");
    assertEquals(2, missing.exit());
    assertTrue(missing.stderr().contains("cassette not found: nope.json"), missing.stderr());

    CliProcess.Result badTimeout = run(null, "run", "-y", "--timeout", "soon", "-m", "replay:x", "x");
    assertEquals(2, badTimeout.exit());
    assertTrue(badTimeout.stderr().contains("'soon' is not a duration"), badTimeout.stderr());

    CliProcess.Result badConfig = run(null, "run", "-y", "--config", "missing.conf", "x");
    assertEquals(2, badConfig.exit());
    assertTrue(badConfig.stderr().contains("config file not found"), badConfig.stderr());
  }

  @Test
  void pipedAnswersApproveAndDecline() throws Exception {
    Path c = cassette("{\"turns\": [{\"reply\": \"```bash\\necho first\\n```\"},"
        + "{\"expect\": \"exit code 0\", \"reply\": \"```bash\\ntouch declined-file\\n```\"},"
        + "{\"expect\": \"declined to run block 2\", \"reply\": \"OK.\"}]}");
    CliProcess.Result r = run("y\nn\n", "run", "-m", "replay:" + c, "two blocks");
    assertEquals(0, r.exit(), r.stdout() + r.stderr());
    assertTrue(r.stdout().contains("first"), r.stdout());
    assertTrue(r.stdout().contains("Run block 2 (bash)? [y]es / [n]o / [e]dit: n"), r.stdout());
    assertTrue(!Files.exists(work.resolve("declined-file")));
  }

  @Test
  void endOfInputBeforeAnAnswerEndsBlocked() throws Exception {
    Path c = cassette("{\"turns\": [{\"reply\": \"```bash\\necho hi\\n```\"}]}");
    CliProcess.Result r = run("", "run", "--json", "-m", "replay:" + c, "x");
    assertEquals(1, r.exit());
    assertTrue(r.stdout().contains("\"status\":\"blocked\""), r.stdout());
  }

  @Test
  void editingRunsTheEditedCode() throws Exception {
    Path editor = tmp.resolve("editor.sh");
    Files.writeString(editor, "#!/bin/sh\nsed -i 's/original/edited/' \"$1\"\n");
    editor.toFile().setExecutable(true);
    Path c = cassette("{\"turns\": [{\"reply\": \"```bash\\necho original\\n```\"},"
        + "{\"expect\": \"edited\", \"reply\": \"Done.\"}]}");
    Process p = startWithEnv("EDITOR", editor.toString(), "run", "--json", "-m", "replay:" + c, "x");
    CliProcess.Result r = finish(p, "e\n");
    assertEquals(0, r.exit(), r.stderr());
    assertTrue(r.stdout().contains("\"decision\":\"edited\""), r.stdout());
    assertTrue(r.stdout().contains("\"text\":\"edited"), r.stdout());
  }

  private Process startWithEnv(String key, String value, String... args) throws IOException {
    return CliProcess.start(work, tmp.resolve("data"), tmp.resolve("config"), Map.of(key, value), args);
  }

  @Test
  void aTaskCanComeFromStdin() throws Exception {
    Path c = cassette("{\"turns\": [{\"expect\": \"task from a pipe\", \"reply\": \"Got it.\"}]}");
    CliProcess.Result r = run("task from a pipe\n", "run", "-y", "--json", "-m", "replay:" + c, "-");
    assertEquals(0, r.exit(), r.stderr());
  }

  @Test
  void sigintInterruptsTheRunningBlockAndExits130() throws Exception {
    Path c = cassette("{\"turns\": [{\"reply\": \"```bash\\necho started; sleep 1000\\n```\"}]}");
    Process p = start("run", "-y", "--json", "-m", "replay:" + c, "sleep");
    p.getOutputStream().close();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    String line;
    while ((line = out.readLine()) != null) {
      seen.append(line).append('\n');
      if (line.contains("\"type\":\"output\"")) {
        break;
      }
    }
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    while ((line = out.readLine()) != null) {
      seen.append(line).append('\n');
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(130, p.exitValue(), seen.toString());
    assertTrue(seen.toString().contains("\"status\":\"interrupted\""), seen.toString());
    assertTrue(seen.toString().contains("\"exit_code\":130"), seen.toString());
  }

  @Test
  void underYesADangerousBlockIsDeniedByPolicyAndNeverRuns() throws Exception {
    Path example = Path.of(System.getProperty("user.dir")).getParent().resolve("examples/dangerous.json");
    Files.createDirectories(work.resolve("build"));
    CliProcess.Result r = run(null, "run", "-y", "--json", "-m", "replay:" + example, "clean up");
    assertEquals(0, r.exit(), r.stderr());
    assertTrue(r.stdout().contains("\"decision\":\"denied\",\"by\":\"policy\""), r.stdout());
    assertTrue(r.stdout().contains("\"risk\":\"high\""), r.stdout());
    assertEquals(1, r.stdout().split("\"type\":\"exec_started\"", -1).length - 1, "only the safe block runs");
    assertTrue(r.stdout().contains("cleaned"));
  }

  @Test
  void aJournalOnAFullDiskFailsTheTaskWithTheCauseOnStderr() throws Exception {
    Path c = cassette("{\"turns\": [{\"reply\": \"Hello.\"}]}");
    try (FullDisk disk = FullDisk.mount(tmp.resolve("full"), "1m")) {
      Files.createDirectories(disk.path().resolve("data/sessions"));
      disk.fill();
      CliProcess.Result r = finish(start(disk.path().resolve("data"), "run", "-y", "--json", "-m", "replay:" + c, "hello"), null);
      assertEquals(1, r.exit(), r.stderr());
      assertTrue(r.stderr().contains("i4j: the task failed: ") && r.stderr().contains("No space left on device"),
          r.stderr());
      assertTrue(r.stderr().contains("cannot write the journal " + disk.path().resolve("data/sessions")), r.stderr());
      assertTrue(r.stdout().contains("\"type\":\"error\""), "the error is an event too: " + r.stdout());
    }
  }
}
