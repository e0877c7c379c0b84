package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session API with real sessions: the replay model and real REPL processes, over real HTTP. */
class SessionApiTest {
  @TempDir static Path tmp;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer(tmp);
    server.cassette("default", "Nothing to run here.");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static void assertError(HttpResponse<String> r, int status, String error) throws Exception {
    assertEquals(status, r.statusCode(), r.body());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), r.body());
    JsonNode body = json(r);
    assertEquals(error, body.path("error").asText(), r.body());
    assertFalse(body.path("detail").asText().isBlank(), r.body());
  }

  @Test
  void badRequestsAre400WithAJsonError() throws Exception {
    assertError(server.post("/api/sessions", "{not json"), 400, "bad_request");
    assertError(server.post("/api/sessions", "[1, 2]"), 400, "bad_request");
    assertError(server.post("/api/sessions", ""), 400, "bad_request");
    assertError(server.post("/api/sessions", "{}"), 400, "bad_request");
    assertError(server.post("/api/sessions", body("message", "   ")), 400, "bad_request");
    assertError(server.post("/api/sessions", body("message", 42)), 400, "bad_request");
    assertError(server.post("/api/sessions", body("message", "hi", "maxIterations", 0)), 400, "bad_request");
    assertError(server.post("/api/sessions", body("message", "hi", "maxIterations", "many")), 400, "bad_request");
    assertError(server.post("/api/sessions", body("message", "hi", "autoRun", "yes")), 400, "bad_request");
    assertError(server.post("/api/sessions", body("message", "hi", "workdir", tmp.resolve("missing").toString())),
        400, "bad_request");
    HttpResponse<String> model = server.post("/api/sessions", body("message", "hi", "model", "replay:unknown"));
    assertError(model, 400, "bad_request");
    assertTrue(json(model).path("detail").asText().contains("no such file: " + server.workdir.resolve("unknown")),
        json(model).path("detail").asText());
    assertError(server.get("/api/sessions/x?after=abc"), 404, "not_found");
    HttpResponse<String> form = server.send(server.request("/api/sessions")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body("message", "hi"))).build());
    assertError(form, 415, "unsupported_media_type");
    HttpResponse<String> text = server.send(server.request("/api/sessions").header("Content-Type", "text/plain")
        .POST(HttpRequest.BodyPublishers.ofString(body("message", "hi"))).build());
    assertError(text, 415, "unsupported_media_type");
  }

  @Test
  void unknownIdsAre404AndWrongMethods405() throws Exception {
    assertError(server.get("/api/sessions/nope"), 404, "not_found");
    assertError(server.get("/api/sessions/nope/events"), 404, "not_found");
    assertError(server.post("/api/sessions/nope/messages", body("text", "hi")), 404, "not_found");
    assertError(server.post("/api/sessions/nope/blocks/1/approval", body("decision", "approve")), 404, "not_found");
    assertError(server.post("/api/sessions/nope/interrupt", "{}"), 404, "not_found");
    assertError(server.delete("/api/sessions/nope"), 404, "not_found");
    assertError(server.get("/api/nothing-here"), 404, "not_found");
    HttpResponse<String> put = server.send(server.request("/api/sessions").PUT(HttpRequest.BodyPublishers.noBody())
        .build());
    assertError(put, 405, "method_not_allowed");
    assertTrue(put.headers().firstValue("Allow").orElse("").contains("POST"), put.headers().toString());
    assertError(server.delete("/api/summary"), 405, "method_not_allowed");
  }

  @Test
  void askModeWaitsForApprovalThenRunsTheBlock() throws Exception {
    String model = server.cassette("ask", "Let me check.\n\n```bash\necho approved-$((40 + 2))\n```\n",
        "It printed approved-42.");
    String id = server.createSession(body("message", "run something", "model", model));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      List<SseClient.Frame> first = events.until("approval_requested", WAIT);
      assertEquals("approval_requested", first.get(first.size() - 1).type());

      JsonNode waiting = json(server.get("/api/sessions/" + id)).path("session");
      assertEquals("awaiting_approval", waiting.path("status").asText());
      assertEquals(1, waiting.path("pendingApproval").path("block").asInt());
      assertEquals("bash", waiting.path("pendingApproval").path("language").asText());
      assertTrue(waiting.path("pendingApproval").path("code").asText().contains("echo approved"));
      assertEquals(1, json(server.get("/api/summary")).path("approvalsWaiting").asInt());

      assertError(server.post("/api/sessions/" + id + "/blocks/7/approval", body("decision", "approve")), 404,
          "not_found");
      assertError(server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "maybe")), 400,
          "bad_request");
      HttpResponse<String> ok = server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "approve"));
      assertEquals(200, ok.statusCode(), ok.body());
      assertEquals("approved", json(ok).path("decision").asText());
      assertError(server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "deny")), 409,
          "conflict");

      List<SseClient.Frame> rest = events.until("turn_finished", WAIT);
      String output = rest.stream().filter(f -> f.type().equals("output"))
          .map(f -> f.json().path("text").asText()).collect(Collectors.joining());
      assertTrue(output.contains("approved-42"), output);
      assertEquals("done", rest.get(rest.size() - 1).json().path("status").asText());
      JsonNode approval = rest.stream().filter(f -> f.type().equals("approval")).findFirst().orElseThrow().json();
      assertEquals("approved", approval.path("decision").asText());
      assertEquals("user", approval.path("by").asText());
    }
    assertError(server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "approve")), 409,
        "conflict");
    JsonNode done = json(server.get("/api/sessions/" + id)).path("session");
    assertEquals("done", done.path("status").asText());
    assertTrue(done.path("pendingApproval").isNull());

    HttpResponse<String> out = server.get("/api/sessions/" + id + "/blocks/1/output");
    assertEquals(200, out.statusCode(), out.body());
    assertTrue(out.body().contains("approved-42"));
    assertTrue(out.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    assertError(server.get("/api/sessions/" + id + "/blocks/2/output"), 404, "not_found");
  }

  @Test
  void anEditedBlockRunsTheEditAndADeniedOneDoesNotRun() throws Exception {
    String model = server.cassette("edit", "```bash\necho original\n```\n", "Ran it.",
        "```bash\necho never\n```\n", "Fine, I won't.");
    String id = server.createSession(body("message", "first", "model", model));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      events.until("approval_requested", WAIT);
      assertEquals(200, server.post("/api/sessions/" + id + "/blocks/1/approval",
          body("decision", "approve", "code", "echo edited")).statusCode());
      List<SseClient.Frame> turn = events.until("turn_finished", WAIT);
      assertTrue(turn.stream().anyMatch(f -> f.type().equals("approval")
          && f.json().path("decision").asText().equals("edited")));
      assertTrue(turn.stream().anyMatch(f -> f.type().equals("output")
          && f.json().path("text").asText().contains("edited")));

      assertEquals(202, server.post("/api/sessions/" + id + "/messages", body("text", "second")).statusCode());
      events.until("approval_requested", WAIT);
      assertError(server.post("/api/sessions/" + id + "/messages", body("text", "third")), 409, "conflict");
      assertEquals(200, server.post("/api/sessions/" + id + "/blocks/2/approval",
          body("decision", "deny", "reason", "not today")).statusCode());
      List<SseClient.Frame> second = events.until("turn_finished", WAIT);
      assertTrue(second.stream().noneMatch(f -> f.type().equals("exec_started")));
      JsonNode denied = second.stream().filter(f -> f.type().equals("approval")).findFirst().orElseThrow().json();
      assertEquals("denied", denied.path("decision").asText());
      assertEquals("not today", denied.path("reason").asText());
    }
  }

  @Test
  void autoRunSessionsRunWithoutAskingAndListInTheSessionList() throws Exception {
    String model = server.cassette("auto", "```bash\necho auto-ran\n```\n", "All done.");
    String id = server.createSession(body("message", "Auto title\nsecond line", "model", model, "autoRun", true,
        "maxIterations", 5, "workdir", server.workdir.toString()));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      List<SseClient.Frame> all = events.until("turn_finished", WAIT);
      assertTrue(all.stream().noneMatch(f -> f.type().equals("approval_requested")));
      assertEquals("auto", all.stream().filter(f -> f.type().equals("approval")).findFirst().orElseThrow()
          .json().path("by").asText());
    }
    JsonNode listed = null;
    for (JsonNode s : json(server.get("/api/sessions")).path("sessions")) {
      if (s.path("id").asText().equals(id)) {
        listed = s;
      }
    }
    assertNotNull(listed);
    assertEquals("done", listed.path("status").asText());
    assertEquals("Auto title", listed.path("title").asText());
    assertEquals(model, listed.path("model").asText());
    assertEquals(2, listed.path("iterations").asInt());
    assertTrue(listed.path("inputTokens").asLong() > 0);
    assertTrue(listed.path("outputTokens").asLong() > 0);
    assertTrue(listed.path("runningBlock").isNull());
    for (String field : List.of("started", "lastActivity")) {
      assertFalse(listed.path(field).asText().isBlank(), field);
    }
  }

  @Test
  void transcriptsArePagedFromTheJournal() throws Exception {
    String model = server.cassette("paged", "```bash\necho one\n```\n", "```bash\necho two\n```\n", "Done.");
    String id = server.createSession(body("message", "page me", "model", model, "autoRun", true));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      events.until("turn_finished", WAIT);
    }
    JsonNode all = json(server.get("/api/sessions/" + id));
    JsonNode events = all.path("events");
    assertTrue(events.size() > 6, all.toString());
    assertEquals("session_started", events.get(0).path("type").asText());
    assertEquals("turn_finished", events.get(events.size() - 1).path("type").asText());
    assertEquals(events.get(events.size() - 1).path("seq").asLong(), all.path("nextAfter").asLong());
    assertFalse(all.path("more").asBoolean());
    for (JsonNode e : events) {
      assertFalse(e.path("type").asText().equals("assistant_delta"), "deltas are not journaled");
    }

    JsonNode page1 = json(server.get("/api/sessions/" + id + "?limit=3"));
    assertEquals(3, page1.path("events").size());
    assertTrue(page1.path("more").asBoolean());
    long after = page1.path("nextAfter").asLong();
    JsonNode page2 = json(server.get("/api/sessions/" + id + "?after=" + after + "&limit=3"));
    assertEquals(events.get(3), page2.path("events").get(0));
    assertError(server.get("/api/sessions/" + id + "?limit=0"), 400, "bad_request");
    assertError(server.get("/api/sessions/" + id + "?after=-1"), 400, "bad_request");
    assertEquals(events.size(), json(server.get("/api/sessions/" + id + "?limit=999999")).path("events").size());
  }

  @Test
  void deletingStopsTheSessionAndKeepsItsTranscript() throws Exception {
    String model = server.cassette("stop", "```bash\necho before-stop\n```\n", "Stopped later.");
    String id = server.createSession(body("message", "stop me", "model", model));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      events.until("approval_requested", WAIT);
      HttpResponse<String> deleted = server.delete("/api/sessions/" + id);
      assertEquals(200, deleted.statusCode(), deleted.body());
      assertTrue(json(deleted).path("stopped").asBoolean());
      List<SseClient.Frame> rest = events.until("__none__", WAIT);
      assertEquals("interrupted", rest.stream().filter(f -> "turn_finished".equals(f.event() == null ? f.type() : ""))
          .findFirst().orElseThrow().json().path("status").asText());
      assertEquals("end", rest.get(rest.size() - 1).event(), "a stopped session's stream ends with an end event");
    }
    JsonNode after = json(server.get("/api/sessions/" + id));
    assertEquals("interrupted", after.path("session").path("status").asText());
    assertTrue(after.path("session").path("stopped").asBoolean());
    assertTrue(after.path("session").path("pendingApproval").isNull());
    assertTrue(after.path("events").size() >= 4);
    assertError(server.post("/api/sessions/" + id + "/messages", body("text", "again")), 409, "conflict");
    assertError(server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "approve")), 409,
        "conflict");
    assertTrue(Files.exists(server.dataDir.resolve("sessions").resolve(id).resolve("events.jsonl")));

    try (SseClient replay = server.events("/api/sessions/" + id + "/events", null)) {
      List<SseClient.Frame> frames = replay.until("__none__", WAIT);
      assertEquals("session_started", frames.get(0).type());
      assertEquals("end", frames.get(frames.size() - 1).event());
    }
  }

  @Test
  void interruptEndsAWaitingTurn() throws Exception {
    String model = server.cassette("interrupt", "```bash\necho never-runs\n```\n");
    String id = server.createSession(body("message", "wait", "model", model));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      events.until("approval_requested", WAIT);
      assertEquals(202, server.post("/api/sessions/" + id + "/interrupt", "").statusCode());
      List<SseClient.Frame> rest = events.until("turn_finished", WAIT);
      assertEquals("interrupted", rest.get(rest.size() - 1).json().path("status").asText());
    }
    assertError(server.post("/api/sessions/" + id + "/blocks/1/approval", body("decision", "approve")), 409,
        "conflict");
  }

  @Test
  void metricsAreInPrometheusTextFormat() throws Exception {
    String model = server.cassette("metrics", "```bash\nexit 3\n```\n", "It failed.");
    String id = server.createSession(body("message", "fail", "model", model, "autoRun", true));
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      events.until("turn_finished", WAIT);
    }
    HttpResponse<String> r = server.get("/metrics");
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    String text = r.body();
    for (String expected : List.of("# TYPE i4j_sessions gauge", "i4j_sessions{status=\"done\"}",
        "i4j_blocks_total{language=\"bash\"}", "i4j_block_exit_codes_total{code=\"other\"}",
        "i4j_approvals_total{decision=\"approved\",by=\"auto\"}", "i4j_model_calls_total ",
        "i4j_tokens_total{direction=\"in\"}", "i4j_model_retries_total 0", "i4j_sse_clients ")) {
      assertTrue(text.contains(expected), "missing " + expected + " in\n" + text);
    }
    for (String line : text.split("\n")) {
      assertTrue(line.startsWith("#") || line.matches("[a-z0-9_]+(\\{[a-z]+=\"[^\"]*\"(,[a-z]+=\"[^\"]*\")*})? -?\\d+"),
          "not a Prometheus sample: " + line);
    }
    JsonNode summary = json(server.get("/api/summary"));
    for (String field : List.of("activeSessions", "runningBlocks", "approvalsWaiting")) {
      assertTrue(summary.path(field).isInt(), field);
    }
  }

  @Test
  void aWorkdirIsNeverTheRootOrASystemFolder() throws Exception {
    Path toEtc = Files.createSymbolicLink(tmp.resolve("innocent-looking"), Path.of("/etc"));
    for (String workdir : List.of("/", "/etc", "/usr/share", "/proc/self", "/tmp/../etc", toEtc.toString(),
        "/var/lib")) {
      HttpResponse<String> r = server.post("/api/sessions", body("message", "hi", "workdir", workdir));
      assertError(r, 400, "bad_request");
      String detail = json(r).path("detail").asText();
      assertTrue(detail.contains("must not be"), workdir + ": " + detail);
    }
    String etc = json(server.post("/api/sessions", body("message", "hi", "workdir", toEtc.toString())))
        .path("detail").asText();
    assertTrue(etc.contains("a system folder: /etc"), "judged after the symlink: " + etc);
    assertTrue(json(server.post("/api/sessions", body("message", "hi", "workdir", "/")))
        .path("detail").asText().contains("the root folder /"));
    assertEquals(201, server.post("/api/sessions", body("message", "hi", "workdir", server.workdir.toString()))
        .statusCode());
  }

  @Test
  void workdirRootsLimitTheWorkdir(@TempDir Path own) throws Exception {
    Path allowed = Files.createDirectories(own.resolve("projects"));
    Path project = Files.createDirectories(allowed.resolve("one"));
    Path elsewhere = Files.createDirectories(own.resolve("elsewhere"));
    Path sneaky = Files.createSymbolicLink(allowed.resolve("sneaky"), elsewhere);
    try (TestServer limited = new TestServer(own, c -> c, ConfigFactory.parseString(
        "interpreter4j.server.workdir-roots = [\"" + allowed + "\"]"))) {
      limited.cassette("default", "Nothing to run here.");
      assertEquals(201, limited.post("/api/sessions", body("message", "hi", "workdir", project.toString()))
          .statusCode());
      for (Path outside : List.of(elsewhere, sneaky, allowed.resolve("..").resolve("elsewhere"))) {
        HttpResponse<String> r = limited.post("/api/sessions", body("message", "hi", "workdir", outside.toString()));
        assertError(r, 400, "bad_request");
        assertTrue(json(r).path("detail").asText().contains("interpreter4j.server.workdir-roots"), r.body());
      }
    }
  }

  @Test
  void replayModelsOverTheApiComeOnlyFromTheReplayRootsAndErrorsNeverQuoteThem(@TempDir Path elsewhere)
      throws Exception {
    Path secret = Files.writeString(elsewhere.resolve("shadow"), "root:$6$secret-hash:19000:0:99999:7:::\n");
    for (String spec : List.of("replay:" + secret, "replay:/etc/passwd", "replay:../../../../../../etc/passwd")) {
      HttpResponse<String> r = server.post("/api/sessions", body("message", "hi", "model", spec));
      assertError(r, 400, "bad_request");
      assertTrue(r.body().contains("interpreter4j.server.replay-roots"), r.body());
      assertFalse(r.body().contains("root:") || r.body().contains("'root'"), "no content: " + r.body());
    }
    Path inside = Files.writeString(server.workdir.resolve("notes.txt"), "root:$6$secret-hash:19000\n");
    HttpResponse<String> r = server.post("/api/sessions", body("message", "hi", "model", "replay:notes.txt"));
    assertError(r, 400, "bad_request");
    assertTrue(json(r).path("detail").asText().contains("is not a replay cassette"), r.body());
    assertFalse(r.body().contains("root") || r.body().contains("secret-hash"), "no content: " + r.body());
    Files.delete(inside);
    String own = server.cassette("from-the-data-folder", "Read from the data folder.");
    assertTrue(own.startsWith("replay:" + server.dataDir), own);
    assertEquals(201, server.post("/api/sessions", body("message", "hi", "model", own)).statusCode());
  }

  @Test
  void aBlocksOutputIsRedactedInItsFileAndWhereverItIsServed() throws Exception {
    String secret = "sk-proj-" + "Q1w2E3r4T5y6U7i8O9p0".repeat(2);
    // the second block prints more than max-output: the model gets head and tail, so it gets an output file
    String model = server.cassette("secret-output", "```bash\necho \"the key is " + secret + "\"\n```\n",
        "```bash\necho \"the key is " + secret + "\"; printf 'x%.0s' $(seq 5000)\n```\n", "Done.");
    String id = server.createSession(body("message", "print it", "model", model, "autoRun", true));
    List<SseClient.Frame> frames;
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      frames = events.until("turn_finished", WAIT);
    }
    String shown = frames.stream().filter(f -> f.type().equals("output") && f.json().path("block").asInt() == 1)
        .map(f -> f.json().path("text").asText()).collect(Collectors.joining());
    assertEquals("the key is [REDACTED]\n", shown, "the events");
    List<JsonNode> finished = frames.stream().filter(f -> f.type().equals("exec_finished")).map(SseClient.Frame::json)
        .toList();
    assertTrue(finished.get(0).path("output_file").isNull(), "the whole output is in the events: no file");
    HttpResponse<String> served = server.get("/api/sessions/" + id + "/blocks/1/output");
    assertEquals(200, served.statusCode());
    assertEquals("the key is [REDACTED]\n", served.body(), "the endpoint, from the journal's output events");

    String whole = "the key is [REDACTED]\n" + "x".repeat(5000);
    Path file = Path.of(finished.get(1).path("output_file").asText());
    assertEquals(whole, Files.readString(file), "the file on disk");
    assertEquals(whole, server.get("/api/sessions/" + id + "/blocks/2/output").body(), "the endpoint, from the file");

    // a file written before redaction reached the disk (or by a process that knew other secrets) is served redacted
    Files.writeString(file, "an older run printed " + secret + " and \u00e9t\u00e9 (UTF-8)\n");
    assertEquals("an older run printed [REDACTED] and \u00e9t\u00e9 (UTF-8)\n",
        server.get("/api/sessions/" + id + "/blocks/2/output").body());
  }

}
