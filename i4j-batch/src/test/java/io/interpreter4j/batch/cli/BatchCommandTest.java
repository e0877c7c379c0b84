package io.interpreter4j.batch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command as a user runs it (in this JVM, signals left alone), with replay cassettes and real processes. */
class BatchCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Path work;
  private Map<String, String> env;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() throws Exception {
    work = Files.createDirectories(tmp.resolve("work"));
    env = new HashMap<>();
    env.put("XDG_CONFIG_HOME", tmp.resolve("no-config").toString());
    env.put("I4J_HOME", tmp.resolve("data").toString());
    Files.writeString(tmp.resolve("talk.json"), "{\"turns\": [{\"reply\": \"Nothing to run: 42.\"}]}");
    Files.writeString(tmp.resolve("echo.json"), "{\"turns\": [{\"reply\": \"```bash\\necho hi\\n```\"},"
        + " {\"expect\": \"exit code 0\", \"reply\": \"Said hi.\"}]}");
  }

  private int run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--workdir", work.toString()));
    BatchCommand command = new BatchCommand(new ReplayBatchEnvironment(env,
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false));
    return new CommandLine(command).execute(all.toArray(String[]::new));
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private Path tasks(String... lines) throws Exception {
    Path file = tmp.resolve("tasks.jsonl");
    Files.writeString(file, String.join("\n", lines) + "\n");
    return file;
  }

  @Test
  @Timeout(60)
  void invalidLinesAreReportedWithTheirNumbersAndNothingStarts() throws Exception {
    Path file = tasks(
        "{\"id\": \"a\", \"prompt\": \"fine\", \"cassette\": \"talk.json\"}",
        "{\"id\": \"b\", \"prompt\": ",
        "",
        "{\"id\": \"a\", \"prompt\": \"dup\", \"cassette\": \"talk.json\"}",
        "{\"id\": \"c\", \"prompt\": \"x\", \"cassette\": \"gone.json\", \"timeout_s\": -1}");
    Path results = tmp.resolve("results.jsonl");
    int code = run(file.toString(), "-y", "--out", results.toString());
    assertEquals(2, code, stderr());
    String e = stderr();
    assertTrue(e.contains(file + ":2: not valid JSON"), e);
    assertTrue(e.contains(file + ":4: duplicate id \"a\" (first used on line 1)"), e);
    assertTrue(e.contains(file + ":5: cassette file"), e);
    assertTrue(e.contains(file + ":5: \"timeout_s\" must be more than 0"), e);
    assertTrue(e.contains("3 invalid line(s)"), e);
    assertTrue(e.contains("--skip-invalid"), e);
    assertFalse(Files.exists(results), "nothing started, nothing written");
    assertFalse(Files.exists(tmp.resolve("data").resolve("batches")), "no journal either");
  }

  @Test
  @Timeout(60)
  void skipInvalidRunsTheValidTasks() throws Exception {
    Path file = tasks(
        "{\"id\": \"a\", \"prompt\": \"fine\", \"cassette\": \"talk.json\"}",
        "{\"id\": \"b\", \"prompt\": 5}",
        "{\"id\": \"c\", \"prompt\": \"also fine\", \"cassette\": \"echo.json\"}");
    Path results = tmp.resolve("results.jsonl");
    int code = run(file.toString(), "-y", "--skip-invalid", "--out", results.toString());
    assertTrue(stderr().contains(file + ":2: \"prompt\" must be a string"), stderr());
    assertEquals(1, code, "a skipped line is a task not done");
    List<String> ids = Files.readAllLines(results).stream().map(l -> read(l).get("id").asText()).sorted().toList();
    assertEquals(List.of("a", "c"), ids);
    assertTrue(stdout().contains("Batch finished: 2 tasks"), stdout());
    assertTrue(stdout().contains("invalid lines skipped 1"), stdout());
  }

  @Test
  @Timeout(60)
  void jsonPutsOnlyEventsOnStdoutEndingWithTheSummary() throws Exception {
    Path file = tasks(
        "{\"id\": \"a\", \"prompt\": \"fine\", \"cassette\": \"talk.json\"}",
        "{\"id\": \"c\", \"prompt\": \"echo\", \"cassette\": \"echo.json\"}");
    int code = run(file.toString(), "-y", "--json", "--out", tmp.resolve("r.jsonl").toString());
    assertEquals(0, code, stderr());
    List<JsonNode> events = stdout().lines().map(BatchCommandTest::read).toList();
    List<String> types = events.stream().map(n -> n.get("type").asText()).toList();
    assertEquals(2, types.stream().filter("task_started"::equals).count(), types.toString());
    assertEquals(2, types.stream().filter("task_finished"::equals).count(), types.toString());
    assertEquals("batch_finished", types.get(types.size() - 1));
    JsonNode summary = events.get(events.size() - 1).get("summary");
    assertEquals(2, summary.get("counts").get("done").asInt());
    assertEquals(0, summary.get("exit_code").asInt());
    JsonNode finished = events.stream().filter(n -> n.get("type").asText().equals("task_finished")).findFirst()
        .orElseThrow();
    assertTrue(finished.get("result").has("final_message"));
    assertTrue(stderr().contains("Batch finished"), "the summary text goes to stderr with --json");
  }

  @Test
  @Timeout(60)
  void aPlainTextFileIsOnePromptALineForTheBatchsModel() throws Exception {
    Path file = tmp.resolve("prompts.txt");
    Files.writeString(file, "say something\n\nsay something else\n");
    Path results = tmp.resolve("results.jsonl");
    int code = run(file.toString(), "-m", "replay:" + tmp.resolve("talk.json"), "--out", results.toString());
    assertEquals(0, code, stderr());
    List<String> ids = Files.readAllLines(results).stream().map(l -> read(l).get("id").asText()).sorted().toList();
    assertEquals(List.of("1", "3"), ids);
  }

  @Test
  @Timeout(60)
  void highRiskBlocksAreDeniedUnderYesUnlessDangerouslyAllowAll() throws Exception {
    Files.writeString(tmp.resolve("risky.json"), "{\"turns\": [{\"reply\": \"```bash\\nunset HISTFILE\\n```\"},"
        + " {\"reply\": \"Understood.\"}]}");
    Path file = tasks("{\"id\": \"r\", \"prompt\": \"hide it\", \"cassette\": \"risky.json\"}");
    Path denied = tmp.resolve("denied.jsonl");
    assertEquals(0, run(file.toString(), "-y", "--out", denied.toString()), stderr());
    JsonNode result = read(Files.readAllLines(denied).get(0));
    assertEquals("done", result.get("status").asText(), "the model was told and answered");
    assertEquals(0, result.get("blocks").asInt(), "the block did not run");
    Path allowed = tmp.resolve("allowed.jsonl");
    assertEquals(0, run(file.toString(), "-y", "--dangerously-allow-all", "--out", allowed.toString()), stderr());
    assertEquals(1, read(Files.readAllLines(allowed).get(0)).get("blocks").asInt());
  }

  @Test
  @Timeout(120)
  void visionOffHidesTheImagesFromTheReplayModel() throws Exception {
    // the python3 on the PATH writes a 3x2 PNG with the standard library and shows it; turn 2 expects the image
    String block = "import struct, zlib\n"
        + "def chunk(kind, data):\n"
        + "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))\n"
        + "rows = b''.join(b'\\x00' + b'\\xff\\x00\\x00' * 3 for _ in range(2))\n"
        + "open('red.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 3, 2, 8, 2,"
        + " 0, 0, 0)) + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))\n"
        + "display('red.png')\n";
    Files.writeString(tmp.resolve("plot.json"), JSON.writeValueAsString(Map.of("turns", List.of(
        Map.of("reply", "```python\n" + block + "```"),
        Map.of("expect_images", 1, "reply", "A red picture.")))));
    Path file = tasks("{\"id\": \"p\", \"prompt\": \"draw\", \"cassette\": \"plot.json\"}");

    Path seeing = tmp.resolve("seeing.jsonl");
    assertEquals(0, run(file.toString(), "-y", "--out", seeing.toString()), stderr());
    assertEquals("done", read(Files.readAllLines(seeing).get(0)).get("status").asText());

    Path blind = tmp.resolve("blind.jsonl");
    assertEquals(1, run(file.toString(), "-y", "--vision", "off", "--out", blind.toString()), stderr());
    JsonNode result = read(Files.readAllLines(blind).get(0));
    assertEquals("failed", result.get("status").asText(), result.toString());
    assertTrue(result.toString().contains("expected 1 image(s), got 0"), result.toString());
  }

  @Test
  void usageProblemsExitTwo() throws Exception {
    assertEquals(2, run(tmp.resolve("missing.jsonl").toString()));
    assertTrue(stderr().contains("task file not found"), stderr());
    Path file = tasks("{\"id\": \"a\", \"prompt\": \"no model\"}");
    assertEquals(2, run(file.toString()));
    assertTrue(stderr().contains("no model for the tasks on line(s) 1"), stderr());
    assertEquals(2, run(file.toString(), "--parallel", "0"));
    assertEquals(2, run(file.toString(), "--no-such-flag"));
  }

  private static JsonNode read(String line) {
    try {
      return JSON.readTree(line);
    } catch (Exception e) {
      throw new AssertionError("not JSON on stdout: " + line, e);
    }
  }

  @Test
  void withServerTheOptionsTheServerDecidesAreRefusedAndUsageErrorsExitTwo() throws Exception {
    Path file = tasks("{\"id\": \"a\", \"prompt\": \"fine\", \"cassette\": \"talk.json\"}");
    String url = "http://127.0.0.1:9";
    Map<String, List<String>> refused = new java.util.LinkedHashMap<>();
    refused.put("--journal", List.of("--journal", tmp.resolve("j").toString()));
    refused.put("--sandbox", List.of("--sandbox=none"));
    refused.put("--sandbox-network", List.of("--sandbox-network=off"));
    refused.put("--retry-failed", List.of("--retry-failed"));
    refused.put("--drain", List.of("--drain"));
    refused.put("--dashboard", List.of("--dashboard"));
    refused.put("--config", List.of("--config", tmp.resolve("c.conf").toString()));
    refused.put("--vision", List.of("--vision", "off"));
    refused.put("--workdir", List.of("--workdir", work.toString()));
    env.put("I4J_TOKEN", "a-token-for-the-test-0123456789");
    for (Map.Entry<String, List<String>> c : refused.entrySet()) {
      err.reset();
      List<String> args = new ArrayList<>(List.of(file.toString(), "--server", url));
      args.addAll(c.getValue());
      assertEquals(2, runWithout(args), c.getKey() + ": " + stderr());
      assertTrue(stderr().contains("i4j batch: " + c.getKey() + " cannot be used with --server: "),
          c.getKey() + ": " + stderr());
    }
    err.reset();
    assertEquals(2, runWithout(List.of(file.toString(), "--server", "localhost:8717")), stderr());
    assertTrue(stderr().contains("is not an http(s) URL with a host"), stderr());
    err.reset();
    env.remove("I4J_TOKEN");
    assertEquals(2, runWithout(List.of(file.toString(), "--server", url)), stderr());
    assertTrue(stderr().contains("--server needs the server's API token in I4J_TOKEN"), stderr());
  }

  /** The command without the {@code --workdir} {@link #run} adds. */
  private int runWithout(List<String> args) {
    BatchCommand command = new BatchCommand(new ReplayBatchEnvironment(env,
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false));
    return new CommandLine(command).execute(args.toArray(String[]::new));
  }
}
