package io.interpreter4j.batch.server;

import static io.interpreter4j.batch.BatchFixture.task;
import static io.interpreter4j.batch.BatchFixture.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import io.interpreter4j.batch.BatchFixture;
import io.interpreter4j.batch.TaskResult;
import io.interpreter4j.batch.cli.ReplayBatchEnvironment;
import io.interpreter4j.core.config.Settings;
import io.interpreter4j.runtime.session.SessionManager;
import io.interpreter4j.server.Server;
import io.interpreter4j.server.ServerConfig;
import io.interpreter4j.server.ServerHandle;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batch endpoints of a real server (HTTP on 127.0.0.1, port 0) over {@link LocalBatchService}: tasks run in real
 * sessions (replay cassettes, real bash and python), the batch's files in the data folder, and a batch that a
 * stopped server left running resumes when the next one starts.
 */
class LocalBatchServiceTest {
  private static final String TOKEN = "batch-test-token-0123456789";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path tmp;

  private BatchFixture fixture;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final List<String> log = Collections.synchronizedList(new ArrayList<>());
  private ActorSystem<SessionManager.Command> system;
  private ServerHandle server;

  @BeforeEach
  void start() throws IOException {
    fixture = new BatchFixture(tmp);
    fixture.cassette("resume",
        turn(null, "```bash\nif [ -f resume-marker ]; then echo second; else touch resume-marker; sleep 1000; fi\n```"),
        turn("second", "Resumed."));
    startServer();
  }

  private void startServer() {
    Config config = fixture.config();
    system = ActorSystem.create(SessionManager.create(), "batch-server-test",
        ReplayBatchEnvironment.QUIET.withFallback(config));
    Settings settings = Settings.from(config, fixture.env);
    server = Server.start(system, ServerConfig.defaults().withPort(0).withToken(TOKEN), settings,
        BatchFixture::models, BatchFixture.HOST, (hub, usual) -> usual,
        hub -> LocalBatchService.start(system, config, fixture.env, BatchFixture::models, BatchFixture.HOST, hub,
            log::add));
  }

  private void stopServer() throws Exception {
    server.stop();
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    stopServer();
  }

  @Test
  void aValidBatchRunsAndItsResultLinesAreServed() throws Exception {
    String tasks = String.join("\n", task("a", "ok"), task("b", "talk"), task("c", "fail"), task("d", "heal")) + "\n";
    HttpResponse<String> answer = post(tasks, Map.of("yes", "true", "parallel", "2", "name", "four"));
    assertEquals(201, answer.statusCode(), answer.body());
    JsonNode accepted = JSON.readTree(answer.body());
    String id = accepted.get("id").asText();
    assertEquals(4, accepted.get("total").asInt());
    assertEquals(0, accepted.get("skipped").size());
    assertEquals("/api/batches/" + id + "/results", accepted.get("results").asText());

    JsonNode done = awaitDone(id);
    assertEquals("four", done.get("name").asText());
    assertEquals(4, done.get("total").asInt());
    assertEquals(4, done.get("finished").asInt());
    assertEquals(4, done.get("results").asInt());
    assertEquals(3, done.get("counts").get("done").asInt());
    assertEquals(0, done.get("running_tasks").size());
    assertEquals(1, done.get("counts").get("gave_up").asInt());
    assertEquals(1, done.get("summary").get("exit_code").asInt());

    HttpResponse<String> results = get("/api/batches/" + id + "/results");
    assertEquals(200, results.statusCode());
    assertTrue(results.headers().firstValue("Content-Type").orElse("").startsWith("application/x-ndjson"),
        results.headers().toString());
    Map<String, String> statuses = new LinkedHashMap<>();
    for (String line : results.body().lines().toList()) {
      TaskResult r = TaskResult.fromJsonLine(line);
      assertEquals(null, statuses.put(r.id(), r.status().wireName()), "task " + r.id() + " once");
    }
    assertEquals(Map.of("a", "done", "b", "done", "c", "gave_up", "d", "done"), statuses);
    List<String> all = results.body().lines().toList();
    assertEquals(all.subList(2, 4), get("/api/batches/" + id + "/results?from=2").body().lines().toList());
    assertEquals("", get("/api/batches/" + id + "/results?from=4").body());

    // the same lines as the batch's results file, in the data folder
    assertEquals(results.body(),
        Files.readString(fixture.data.resolve("batches").resolve(id).resolve("results.jsonl")));
    // every task's session is in the hub; the batch is on the board
    JsonNode sessions = JSON.readTree(get("/api/sessions").body());
    for (String line : all) {
      String session = TaskResult.fromJsonLine(line).session();
      assertTrue(sessions.toString().contains(session), "session " + session + " listed: " + sessions);
    }
    JsonNode board = JSON.readTree(get("/api/batches").body());
    assertTrue(board.toString().contains(id), board.toString());
  }

  @Test
  void anInvalidTaskFileIsRejectedWithEveryProblemAndNothingStarts() throws Exception {
    String tasks = String.join("\n", task("a", "ok"), "{not json", "{\"id\": \"c\", \"prompt\": \"x\", \"colour\": 1}",
        task("a", "talk")) + "\n";
    HttpResponse<String> answer = post(tasks, Map.of("yes", "true"));
    assertEquals(400, answer.statusCode(), answer.body());
    JsonNode body = JSON.readTree(answer.body());
    assertEquals("bad_request", body.get("error").asText());
    List<String> problems = new ArrayList<>();
    body.get("problems").forEach(p -> problems.add(p.get("line").asInt() + ": " + p.get("message").asText()));
    assertEquals(3, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("2: not valid JSON"), problems.toString());
    assertTrue(problems.get(1).startsWith("3: unknown field \"colour\""), problems.toString());
    assertTrue(problems.get(2).startsWith("4: duplicate id \"a\" (first used on line 1)"), problems.toString());
    assertFalse(Files.exists(fixture.data.resolve("batches")) && hasBatchFolders(), "no batch folder made");
    assertEquals(0, JSON.readTree(get("/api/batches").body()).get("batches").size());
  }

  @Test
  void skipInvalidRunsTheValidTasksAndSaysWhichWereSkipped() throws Exception {
    String tasks = String.join("\n", task("a", "ok"), "{not json") + "\n";
    HttpResponse<String> answer = post(tasks, Map.of("yes", "true", "skip_invalid", "true"));
    assertEquals(201, answer.statusCode(), answer.body());
    JsonNode accepted = JSON.readTree(answer.body());
    assertEquals(1, accepted.get("total").asInt());
    assertEquals(2, accepted.get("skipped").get(0).get("line").asInt());
    JsonNode done = awaitDone(accepted.get("id").asText());
    assertEquals(1, done.get("invalid").asInt());
    assertEquals(1, done.get("summary").get("exit_code").asInt(), "a skipped line is not done");
  }

  @Test
  void unknownBatchesAndBadParametersAreClearErrors() throws Exception {
    assertEquals(404, get("/api/batches/no-such-batch").statusCode());
    assertEquals(404, get("/api/batches/no-such-batch/results").statusCode());
    String tasks = task("a", "ok") + "\n";
    Map<Map<String, String>, String> bad = new LinkedHashMap<>();
    bad.put(Map.of("parallel", "0"), "\"parallel\" must be at least 1");
    bad.put(Map.of("parallel", "many"), "\"parallel\" must be a whole number");
    bad.put(Map.of("task_timeout", "-5"), "\"task_timeout\" must be at least 1");
    bad.put(Map.of("yes", "maybe"), "\"yes\" must be true or false");
    bad.put(Map.of("base_dir", "relative/folder"), "\"base_dir\" must be an absolute folder");
    bad.put(Map.of("colour", "red"), "unknown query parameter \"colour\"");
    for (Map.Entry<Map<String, String>, String> c : bad.entrySet()) {
      HttpResponse<String> answer = post(tasks, c.getKey());
      assertEquals(400, answer.statusCode(), c.getKey() + ": " + answer.body());
      assertTrue(answer.body().contains(c.getValue().replace("\"", "\\\"")), c.getKey() + ": " + answer.body());
    }
    HttpResponse<String> empty = postRaw("", Map.of());
    assertEquals(400, empty.statusCode(), empty.body());
    HttpResponse<String> from = get("/api/batches/x/results?from=-1");
    assertEquals(400, from.statusCode(), from.body());
    HttpResponse<String> noToken = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/batches"))
        .POST(HttpRequest.BodyPublishers.ofString(tasks)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, noToken.statusCode());
    assertFalse(hasBatchFolders(), "nothing started");
  }

  @Test
  void relativePathsAreResolvedAgainstBaseDir() throws Exception {
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Files.copy(tmp.resolve("ok.json"), elsewhere.resolve("own.json"));
    String tasks = "{\"id\": \"x\", \"prompt\": \"p\", \"cassette\": \"own.json\"}\n";
    HttpResponse<String> missing = postRaw(tasks, Map.of("yes", "true"));
    assertEquals(400, missing.statusCode(), "own.json is not in the server's working folder: " + missing.body());
    HttpResponse<String> answer = post(tasks, Map.of("yes", "true", "base_dir", elsewhere.toString()));
    assertEquals(201, answer.statusCode(), answer.body());
    JsonNode done = awaitDone(JSON.readTree(answer.body()).get("id").asText());
    assertEquals(1, done.get("counts").get("done").asInt(), done.toString());
  }

  @Test
  void resultsSurviveARestartAndABatchLeftRunningResumesFromItsJournal() throws Exception {
    String tasks = String.join("\n", task("a", "ok"), task("r", "resume")) + "\n";
    HttpResponse<String> answer = post(tasks, Map.of("yes", "true", "parallel", "2"));
    assertEquals(201, answer.statusCode(), answer.body());
    String id = JSON.readTree(answer.body()).get("id").asText();
    TestProbe<Void> probe = TestProbe.create(system);
    // a has finished, r is in its first run (it made the marker and sleeps)
    probe.awaitAssert(WAIT, () -> {
      JsonNode p = progress(id);
      assertEquals(1, p.get("results").asInt(), p.toString());
      assertTrue(Files.exists(fixture.work.resolve("resume-marker")));
      assertEquals("r", p.get("running_tasks").get(0).get("id").asText(), p.toString());
      return null;
    });
    String firstA = get("/api/batches/" + id + "/results").body();
    stopServer();

    startServer();
    JsonNode done = awaitDone(id);
    assertEquals(2, done.get("results").asInt(), done.toString());
    assertEquals(2, done.get("counts").get("done").asInt(), done.toString());
    List<String> lines = get("/api/batches/" + id + "/results").body().lines().toList();
    assertEquals(firstA.strip(), lines.get(0), "a's line kept as it was, not run again");
    assertEquals("r", TaskResult.fromJsonLine(lines.get(1)).id());
    assertTrue(log.stream().anyMatch(l -> l.startsWith("resumed 1 batch")), log.toString());

    // a third start lists the ended batch with its results, and runs nothing
    stopServer();
    startServer();
    JsonNode again = progress(id);
    assertEquals("done", again.get("state").asText());
    assertEquals(lines, get("/api/batches/" + id + "/results").body().lines().toList());
    long started = Files.readAllLines(fixture.data.resolve("batches").resolve(id).resolve("journal.jsonl")).stream()
        .filter(l -> l.contains("\"type\":\"task_started\"")).count();
    assertEquals(3, started, "a once, r twice (the first run was cut by the stop)");
  }

  // ---- helpers ----

  private boolean hasBatchFolders() throws IOException {
    Path batches = fixture.data.resolve("batches");
    if (!Files.isDirectory(batches)) {
      return false;
    }
    try (Stream<Path> s = Files.list(batches)) {
      return s.findAny().isPresent();
    }
  }

  private JsonNode awaitDone(String id) {
    TestProbe<Void> probe = TestProbe.create(system);
    return probe.awaitAssert(WAIT, () -> {
      JsonNode p = progress(id);
      assertEquals("done", p.get("state").asText(), p.toString());
      return p;
    });
  }

  private JsonNode progress(String id) {
    try {
      HttpResponse<String> answer = get("/api/batches/" + id);
      assertEquals(200, answer.statusCode(), answer.body());
      return JSON.readTree(answer.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Posts a task file as the client does from the fixture's folder (where the cassettes are): base_dir given. */
  private HttpResponse<String> post(String body, Map<String, String> query) throws IOException, InterruptedException {
    Map<String, String> withBase = new LinkedHashMap<>(query);
    withBase.putIfAbsent("base_dir", tmp.toString());
    return postRaw(body, withBase);
  }

  private HttpResponse<String> postRaw(String body, Map<String, String> query)
      throws IOException, InterruptedException {
    StringBuilder q = new StringBuilder();
    query.forEach((k, v) -> q.append(q.isEmpty() ? "?" : "&").append(k).append('=')
        .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/api/batches" + q))
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "text/plain; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
        .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
