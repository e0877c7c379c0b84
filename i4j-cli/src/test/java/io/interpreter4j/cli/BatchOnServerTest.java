package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code i4j batch FILE --server URL} against a real {@code i4j serve} (both child JVMs, HTTP on 127.0.0.1): the
 * batch runs in the server (replay cassettes, real bash and python), the client prints its progress, writes
 * {@code --out} and exits as a local batch would; a bad file, a wrong token or no server are clear errors.
 */
class BatchOnServerTest {
  private static final String TOKEN = "batch-on-server-token-0123456789";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SERVING = Pattern.compile("i4j: serving on (http://\\S+)");
  private static final Duration WITHIN = Duration.ofSeconds(180);

  @TempDir static Path tmp;
  private static Path data;
  private static Path config;
  private static Path work;
  private static Process serve;
  private static String url;
  private static final StringBuffer serveLog = new StringBuffer();

  @BeforeAll
  static void startServer() throws Exception {
    data = Files.createDirectories(tmp.resolve("data"));
    config = Files.createDirectories(tmp.resolve("config"));
    work = Files.createDirectories(tmp.resolve("work"));
    cassette("ok", turn(null, "Checking.\n\n```bash\necho ok\n```\n"),
        turn("Block 1 \\(bash\\) finished with exit code 0\\.\\nOutput:\\n```output\\nok\\n", "All good."));
    cassette("python", turn(null, "```python\nprint(sum(range(10)))\n```"), turn("45", "The sum is 45."));
    cassette("fail", turn(null, "```bash\nls /no/such/folder\n```"),
        turn("exit code 2", "```bash\nls /no/such/folder\n```"), turn(null, "never reached"));
    cassette("hang", turn(null, "```bash\nsleep 1000\n```"), turn(null, "never reached"));
    serve = CliProcess.start(work, data, config, Map.of("I4J_TOKEN", TOKEN), "serve", "--port", "0");
    serve.getOutputStream().close();
    CompletableFuture<String> found = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(serve.getErrorStream(),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          serveLog.append(line).append('\n');
          Matcher m = SERVING.matcher(line);
          if (m.find()) {
            found.complete(m.group(1));
          }
        }
      } catch (IOException e) {
        // the server is gone
      }
      found.complete(null);
    }, "serve-log");
    reader.setDaemon(true);
    reader.start();
    url = found.get(120, TimeUnit.SECONDS);
    assertTrue(url != null, "i4j serve ended before serving: " + serveLog);
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (serve != null) {
      serve.toHandle().destroy();
      if (!serve.waitFor(60, TimeUnit.SECONDS)) {
        serve.descendants().forEach(ProcessHandle::destroyForcibly);
        serve.destroyForcibly();
      }
    }
  }

  @Test
  void everyTaskDoneExitsZeroWithEveryResultInOut() throws Exception {
    Path tasks = taskFile("all-done.jsonl", task("a", "ok"), task("b", "python"), task("c", "ok"));
    Path out = tmp.resolve("all-done-results.jsonl");
    CliProcess.Result r = batch(Map.of("I4J_TOKEN", TOKEN), tasks.toString(), "--server", url, "-y",
        "--parallel", "2", "--out", out.toString());
    assertEquals(0, r.exit(), r.stderr());
    assertTrue(r.stderr().contains("3 task(s) submitted to " + url), r.stderr());
    assertTrue(r.stdout().contains("Batch finished: 3 tasks"), r.stdout());
    assertTrue(r.stdout().contains("done 3"), r.stdout());
    List<String> ids = new ArrayList<>();
    for (String line : Files.readAllLines(out)) {
      JsonNode result = JSON.readTree(line);
      assertEquals("done", result.get("status").asText(), line);
      ids.add(result.get("id").asText());
    }
    assertEquals(List.of("a", "b", "c"), ids.stream().sorted().toList());

    // the same --out again: refused, nothing submitted, the results kept
    String kept = Files.readString(out);
    CliProcess.Result again = batch(Map.of("I4J_TOKEN", TOKEN), tasks.toString(), "--server", url, "-y", "--out",
        out.toString());
    assertEquals(2, again.exit(), again.stderr());
    assertTrue(again.stderr().contains("already holds results"), again.stderr());
    assertEquals(kept, Files.readString(out));
  }

  @Test
  void aTaskNotDoneExitsOneAndJsonGivesEveryResult() throws Exception {
    Path tasks = taskFile("some-fail.jsonl", task("good", "ok"), task("bad", "fail"));
    Path out = tmp.resolve("some-fail-results.jsonl");
    CliProcess.Result r = batch(Map.of("I4J_TOKEN", TOKEN), tasks.toString(), "--server", url, "-y", "--json",
        "--out", out.toString());
    assertEquals(1, r.exit(), r.stderr());
    List<String> finished = new ArrayList<>();
    Map<String, String> started = new java.util.HashMap<>();
    JsonNode last = null;
    for (String line : r.stdout().split("\n")) {
      last = JSON.readTree(line);
      if (last.get("type").asText().equals("task_started")) {
        assertEquals(null, started.put(last.get("id").asText(), last.get("session").asText()), "started once");
      }
      if (last.get("type").asText().equals("task_finished")) {
        String id = last.get("result").get("id").asText();
        assertEquals(started.get(id), last.get("result").get("session").asText(), "task_started came first: "
            + r.stdout());
        finished.add(id + " " + last.get("result").get("status").asText());
      }
    }
    assertEquals(List.of("bad gave_up", "good done"), finished.stream().sorted().toList());
    assertEquals("batch_finished", last.get("type").asText(), r.stdout());
    assertEquals(1, last.get("summary").get("exit_code").asInt());
    assertEquals(2, Files.readAllLines(out).size());
    assertTrue(r.stderr().contains("Batch finished: 2 tasks"), "the summary goes to stderr with --json: " + r.stderr());
  }

  @Test
  void anInvalidFileExitsTwoWithTheServersProblemsAsFileLineMessage() throws Exception {
    Path tasks = taskFile("invalid.jsonl", task("a", "ok"), "{\"id\": \"b\"}", "{oops");
    CliProcess.Result r = batch(Map.of("I4J_TOKEN", TOKEN), tasks.toString(), "--server", url, "-y", "--out",
        tmp.resolve("invalid-results.jsonl").toString());
    assertEquals(2, r.exit(), r.stderr());
    assertTrue(r.stderr().contains("i4j batch: " + tasks + ":2: missing \"prompt\""), r.stderr());
    assertTrue(r.stderr().contains("i4j batch: " + tasks + ":3: not valid JSON"), r.stderr());
    assertTrue(r.stderr().contains("2 invalid line(s) in " + tasks + " was rejected by the server; nothing was "
        + "started"), r.stderr());
  }

  @Test
  void aWrongTokenOrNoServerExitsThreeWithOneClearLine() throws Exception {
    Path tasks = taskFile("token.jsonl", task("a", "ok"));
    CliProcess.Result wrong = batch(Map.of("I4J_TOKEN", "not-the-token"), tasks.toString(), "--server", url);
    assertEquals(3, wrong.exit(), wrong.stderr());
    assertTrue(wrong.stderr().contains("refused the token (401 unauthorized): set I4J_TOKEN"), wrong.stderr());

    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    CliProcess.Result none = batch(Map.of("I4J_TOKEN", TOKEN), tasks.toString(), "--server",
        "http://127.0.0.1:" + closed);
    assertEquals(3, none.exit(), none.stderr());
    assertTrue(none.stderr().contains("cannot reach the server at http://127.0.0.1:" + closed), none.stderr());

    CliProcess.Result noToken = batch(Map.of("I4J_TOKEN", ""), tasks.toString(), "--server", url);
    assertEquals(2, noToken.exit(), noToken.stderr());
    assertTrue(noToken.stderr().contains("--server needs the server's API token in I4J_TOKEN"), noToken.stderr());

    CliProcess.Result local = batch(Map.of("I4J_TOKEN", TOKEN), tasks.toString(), "--server", url, "--journal",
        tmp.resolve("j").toString());
    assertEquals(2, local.exit(), local.stderr());
    assertTrue(local.stderr().contains("--journal cannot be used with --server"), local.stderr());
  }

  @Test
  void stoppingTheClientLeavesTheBatchRunningOnTheServer() throws Exception {
    Path tasks = taskFile("long.jsonl", task("slow", "hang", "timeout_s", 4));
    Process p = CliProcess.start(work, data, config, Map.of("I4J_TOKEN", TOKEN), "batch", tasks.toString(),
        "--server", url, "-y", "--out", tmp.resolve("long-results.jsonl").toString());
    p.getOutputStream().close();
    CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    StringBuilder err = new StringBuilder();
    String id = null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      Pattern submitted = Pattern.compile("submitted to \\S+ as batch (\\S+);");
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        err.append(line).append('\n');
        Matcher m = submitted.matcher(line);
        if (m.find() && id == null) {
          id = m.group(1);
          p.toHandle().destroy(); // SIGTERM, as Ctrl-C's SIGINT: the client stops following
        }
      }
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client exits: " + err);
    stdout.get(10, TimeUnit.SECONDS);
    assertEquals(130, p.exitValue(), err.toString());
    assertTrue(id != null, err.toString());
    assertTrue(err.toString().contains("stopped following; batch " + id + " goes on on the server"), err.toString());
    assertTrue(err.toString().contains("api/batches/" + id + "/results"), err.toString());
    // the server still has it, and runs it to its end: the task times out there after 4 s
    JsonNode state = progress(id);
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (!state.get("state").asText().equals("done") && System.nanoTime() < deadline) {
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // awaitAssert-style
      state = progress(id);
    }
    assertEquals("done", state.get("state").asText(), state.toString());
    assertEquals(1, state.get("counts").get("timeout").asInt(), state.toString());
    assertEquals(1, state.get("results").asInt(), state.toString());
  }

  private static JsonNode progress(String id) throws Exception {
    HttpResponse<String> answer = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url + "/api/batches/" + id)).header("Authorization", "Bearer " + TOKEN)
            .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, answer.statusCode(), answer.body());
    return JSON.readTree(answer.body());
  }

  // ---- helpers ----

  private static CliProcess.Result batch(Map<String, String> env, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("batch"));
    all.addAll(List.of(args));
    Process p = CliProcess.start(work, data, config, env, all.toArray(String[]::new));
    return CliProcess.finish(p, null, WITHIN);
  }

  private static Path taskFile(String name, String... lines) throws IOException {
    Path file = tmp.resolve(name);
    Files.writeString(file, String.join("\n", lines) + "\n");
    return file;
  }

  private static String task(String id, String cassette, Object... extra) {
    ObjectNode t = JSON.createObjectNode();
    t.put("id", id);
    t.put("prompt", "task " + id);
    t.put("cassette", cassette + ".json");
    for (int i = 0; i < extra.length; i += 2) {
      t.set((String) extra[i], JSON.valueToTree(extra[i + 1]));
    }
    return t.toString();
  }

  private static ObjectNode turn(String expect, String reply) {
    ObjectNode t = JSON.createObjectNode();
    if (expect != null) {
      t.put("expect", expect);
    }
    t.put("reply", reply);
    t.put("chunk_chars", 64);
    return t;
  }

  private static void cassette(String name, ObjectNode... turns) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode array = root.putArray("turns");
    for (ObjectNode t : turns) {
      array.add(t);
    }
    Files.writeString(tmp.resolve(name + ".json"), root.toString());
  }

  private static String read(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
