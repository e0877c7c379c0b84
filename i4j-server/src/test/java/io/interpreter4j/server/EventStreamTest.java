package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.WAIT;
import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import io.interpreter4j.core.event.EventCodec;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The event streams: replay from the first event, resume with Last-Event-ID, the all-sessions stream, slow clients. */
class EventStreamTest {
  @TempDir static Path tmp;
  private static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer(tmp, c -> c.withKeepAlive(Duration.ofMillis(200)), ConfigFactory.empty());
    server.cassette("default", "Nothing to run.");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A session streaming many small deltas with a pause between them, so a reconnect lands mid-session. */
  private static String chattySession(TestServer on, String name) throws Exception {
    String model = on.cassette(name, 3, 2,
        "Working on it, step by step, with plenty of words to stream.\n\n```bash\necho streamed\n```\n",
        "The block printed streamed, and that is the end of this rather chatty answer.");
    return on.createSession(body("message", "chat", "model", model, "autoRun", true));
  }

  @Test
  void aNewSubscriberGetsEveryEventFromTheFirstThenLiveOnes() throws Exception {
    String id = chattySession(server, "from-first");
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      assertEquals(200, events.status());
      assertTrue(events.response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
      List<SseClient.Frame> frames = events.until("turn_finished", WAIT);
      SseClient.assertConsecutive(frames, 1);
      assertEquals("session_started", frames.get(0).type());
      assertTrue(frames.stream().anyMatch(f -> f.type().equals("assistant_delta")), "live deltas are streamed");
      for (SseClient.Frame f : frames) {
        assertNull(f.event(), "no event: field, so onmessage sees every event");
        assertEquals(id, f.json().path("session").asText());
      }
    }
  }

  @Test
  void resumingWithLastEventIdHasNoGapAndNoDuplicate() throws Exception {
    String id = chattySession(server, "resume");
    List<SseClient.Frame> seen = new ArrayList<>();
    try (SseClient first = server.events("/api/sessions/" + id + "/events", null)) {
      seen.addAll(first.take(7, WAIT));
    }
    SseClient.assertConsecutive(seen, 1);
    String lastId = seen.get(seen.size() - 1).id();
    assertEquals("7", lastId);
    try (SseClient resumed = server.events("/api/sessions/" + id + "/events", lastId)) {
      List<SseClient.Frame> rest = resumed.until("turn_finished", WAIT);
      SseClient.assertConsecutive(rest, 8);
      seen.addAll(rest);
    }
    SseClient.assertConsecutive(seen, 1);
    assertTrue(seen.stream().anyMatch(f -> f.type().equals("output")
        && f.json().path("text").asText().contains("streamed")));

    try (SseClient again = server.events("/api/sessions/" + id + "/events", Long.toString(seen.size() - 2))) {
      List<SseClient.Frame> tail = again.take(2, WAIT);
      SseClient.assertConsecutive(tail, seen.size() - 1);
      assertTrue(again.awaitComment(WAIT), "an idle stream gets keep-alive comments");
    }
    try (SseClient bad = server.events("/api/sessions/" + id + "/events", "seven")) {
      assertEquals(400, bad.status());
    }
  }

  @Test
  void olderEventsComeFromTheJournalWhenTheRingNoLongerHasThem(@TempDir Path own) throws Exception {
    try (TestServer small = new TestServer(own, c -> c.withRingSize(4), ConfigFactory.empty())) {
      String id = chattySession(small, "journal");
      try (SseClient live = small.events("/api/sessions/" + id + "/events", null)) {
        live.until("turn_finished", WAIT);
      }
      Path journal = small.dataDir.resolve("sessions").resolve(id).resolve("events.jsonl");
      List<Long> journalSeqs = new ArrayList<>();
      for (String line : Files.readAllLines(journal)) {
        journalSeqs.add(EventCodec.mapper().readTree(line).path("seq").asLong());
      }
      assertFalse(journalSeqs.isEmpty());
      try (SseClient replay = small.events("/api/sessions/" + id + "/events", "2")) {
        List<SseClient.Frame> frames = replay.until("turn_finished", WAIT);
        List<Long> seqs = frames.stream().map(SseClient.Frame::seq).toList();
        for (int i = 1; i < seqs.size(); i++) {
          assertTrue(seqs.get(i) > seqs.get(i - 1), "strictly increasing: " + seqs);
        }
        List<Long> nonDelta = frames.stream().filter(f -> !f.type().equals("assistant_delta"))
            .map(SseClient.Frame::seq).toList();
        assertEquals(journalSeqs.stream().filter(s -> s > 2).toList(), nonDelta,
            "every journaled event after 2, once, in order");
        assertEquals(journalSeqs.get(journalSeqs.size() - 1), seqs.get(seqs.size() - 1));
      }
    }
  }

  @Test
  void theAllSessionsStreamCarriesEverySessionsLiveEvents() throws Exception {
    try (SseClient all = server.events("/api/events", null)) {
      assertEquals(200, all.status());
      String model = server.cassette("global", "```bash\necho global\n```\n", "Done.");
      String a = server.createSession(body("message", "a", "model", model, "autoRun", true));
      String b = server.createSession(body("message", "b", "model", model, "autoRun", true));
      List<String> finished = new ArrayList<>();
      while (finished.size() < 2) {
        SseClient.Frame f = all.next(WAIT);
        assertTrue(f != null, "stream ended");
        assertNull(f.id(), "seqs of different sessions are not one sequence: no id");
        if (f.type().equals("turn_finished")) {
          finished.add(f.json().path("session").asText());
        }
      }
      assertTrue(finished.containsAll(List.of(a, b)), finished.toString());
    }
  }

  @Test
  void aClientThatNeverReadsNeverStallsABusySession(@TempDir Path own) throws Exception {
    try (TestServer busy = new TestServer(own, c -> c.withSseBufferSize(16),
        ConfigFactory.parseString("pekko.http.server.socket-options.so-send-buffer-size = 4096"))) {
      String model = busy.cassette("busy",
          "```bash\nfor i in $(seq 1 20000); do echo \"line $i of a long and busy output\"; done\n```\n",
          "That was a lot of output.");
      String id = busy.createSession(body("message", "be busy", "model", model, "autoRun", true));
      try (Socket stalled = new Socket()) {
        stalled.setReceiveBufferSize(1024);
        stalled.connect(new InetSocketAddress("127.0.0.1", busy.handle.port()));
        OutputStream out = stalled.getOutputStream();
        out.write(("GET /api/sessions/" + id + "/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + TestServer.TOKEN + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        // never read from it

        List<SseClient.Frame> frames = followReconnecting(busy, id);
        assertEquals("done", frames.get(frames.size() - 1).json().path("status").asText());
        String output = frames.stream().filter(f -> f.type().equals("output"))
            .map(f -> f.json().path("text").asText()).collect(Collectors.joining());
        assertTrue(output.contains("line 1 of"), "output streamed to the reading client");
        String metrics = busy.get("/metrics").body();
        assertFalse(metrics.contains("i4j_sse_overflows_total 0\n"), "the stalled client was cut off:\n" + metrics);
      }
      JsonNode session = json(busy.get("/api/sessions/" + id)).path("session");
      assertEquals("done", session.path("status").asText());
    }
  }

  private static long sseClients(TestServer on) throws Exception {
    return on.get("/metrics").body().lines().filter(l -> l.startsWith("i4j_sse_clients "))
        .mapToLong(l -> Long.parseLong(l.substring("i4j_sse_clients ".length()).strip())).findFirst().orElse(-1);
  }

  /** Asks until the gauge shows {@code expected} open streams, for at most WAIT (awaitAssert-style, every 20 ms). */
  private static void awaitSseClients(TestServer on, long expected) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long seen = sseClients(on);
    while (seen != expected && System.nanoTime() < deadline) {
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      seen = sseClients(on);
    }
    assertEquals(expected, seen, "i4j_sse_clients");
  }

  /** Opens an event stream on a raw socket and reads its response head (the stream is then open and counted). */
  private static Socket openStream(TestServer on, String id, String lastEventId, String extraHeaders)
      throws Exception {
    Socket socket = new Socket("127.0.0.1", on.handle.port());
    socket.setSoTimeout((int) WAIT.toMillis());
    socket.getOutputStream().write(("GET /api/sessions/" + id + "/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer " + TestServer.TOKEN + "\r\nLast-Event-ID: " + lastEventId + "\r\n" + extraHeaders
        + "\r\n").getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    java.io.InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      assertTrue(b >= 0, "the server closed the stream: " + head);
      head.append((char) b);
    }
    assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
    return socket;
  }

  @Test
  void heldEventsGoOutAsTheSameBytesAsReplayedOnes(@TempDir Path own) throws Exception {
    // an hour between hand-outs: after the first live event, every later one is held until the session ends
    try (TestServer on = new TestServer(own,
        c -> c.withKeepAlive(Duration.ofMinutes(10)).withSseFlushInterval(Duration.ofHours(1)), ConfigFactory.empty())) {
      on.cassette("default", "Nothing to run.");
      String id = chattySession(on, "held");
      String end = "event: end\ndata: {\"session\":\"" + id + "\",\"reason\":\"ended\"}\n\n";
      try (Socket live = openStream(on, id, "0", "")) {
        awaitStatus(on, id, "done");
        try (Socket replayed = openStream(on, id, "0", ""); Socket resumed = openStream(on, id, "3", "")) {
          // both read their history (from the ring) before the session ends and its ring is let go
          List<String> replayedChunks = chunksUntil(replayed, "\"type\":\"turn_finished\"");
          List<String> resumedChunks = chunksUntil(resumed, "\"type\":\"turn_finished\"");
          int stopped = on.delete("/api/sessions/" + id).statusCode();
          assertTrue(stopped == 200 || stopped == 202, "DELETE: " + stopped);
          List<String> liveChunks = chunksUntil(live, "event: end\n");
          replayedChunks.addAll(chunksUntil(replayed, "event: end\n"));
          resumedChunks.addAll(chunksUntil(resumed, "event: end\n"));

          String liveBody = String.join("", liveChunks);
          assertTrue(liveBody.endsWith(end), liveBody);
          long frames = assertFrames(liveBody.substring(0, liveBody.length() - end.length()));
          assertTrue(frames > 3, "a whole turn: " + frames + " events");
          assertTrue(liveChunks.stream().anyMatch(c -> c.split("\nid: ", -1).length > 2),
              "events held together went out in one chunk: " + liveChunks);
          assertEquals(liveBody, String.join("", replayedChunks), "live and replayed: the same bytes");
          assertEquals(liveBody.substring(liveBody.indexOf("id: 4\n")), String.join("", resumedChunks),
              "resumed after 3: the same bytes from event 4 on");
        }
      }
    }
  }

  /** Checks that {@code body} is SSE frames {@code id: N / data: JSON} of the events 1, 2, 3...; returns how many. */
  private static long assertFrames(String body) throws Exception {
    assertTrue(body.endsWith("\n\n"), body);
    String[] frames = body.substring(0, body.length() - 2).split("\n\n", -1);
    for (int i = 0; i < frames.length; i++) {
      long seq = i + 1;
      assertTrue(frames[i].startsWith("id: " + seq + "\ndata: {"), frames[i]);
      String json = frames[i].substring(("id: " + seq + "\ndata: ").length());
      assertFalse(json.contains("\n"), "one data line: " + frames[i]);
      assertEquals(seq, EventCodec.mapper().readTree(json).path("seq").asLong());
    }
    return frames.length;
  }

  /** Reads the chunks of a chunked response body until one holds {@code marker}. */
  private static List<String> chunksUntil(Socket socket, String marker) throws Exception {
    java.io.InputStream in = socket.getInputStream();
    List<String> chunks = new ArrayList<>();
    while (true) {
      StringBuilder size = new StringBuilder();
      for (int b = in.read(); b != '\n'; b = in.read()) {
        assertTrue(b >= 0, "the stream ended before " + marker + ": " + chunks);
        if (b != '\r') {
          size.append((char) b);
        }
      }
      int length = Integer.parseInt(size.toString().strip(), 16);
      assertTrue(length > 0, "the stream ended before " + marker + ": " + chunks);
      String chunk = new String(in.readNBytes(length), StandardCharsets.UTF_8);
      assertEquals("\r\n", new String(in.readNBytes(2), StandardCharsets.US_ASCII), "a chunk ends with CRLF");
      chunks.add(chunk);
      if (chunk.contains(marker)) {
        return chunks;
      }
    }
  }

  private static void awaitStatus(TestServer on, String id, String status) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String seen = json(on.get("/api/sessions/" + id)).path("session").path("status").asText();
    while (!seen.equals(status) && System.nanoTime() < deadline) {
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      seen = json(on.get("/api/sessions/" + id)).path("session").path("status").asText();
    }
    assertEquals(status, seen, "session " + id);
  }

  @Test
  void aStreamWhoseClientLeftIsNoLongerCountedEvenWhenIdle(@TempDir Path own) throws Exception {
    // keep-alives too rare to reveal the departed client: only noticing the closed connection can
    try (TestServer quiet = new TestServer(own, c -> c.withKeepAlive(Duration.ofMinutes(10)), ConfigFactory.empty())) {
      quiet.cassette("default", "Nothing to run.");
      String id = quiet.createSession(body("message", "hello", "model", quiet.cassette("idle", "Just words.")));
      assertEquals(0, sseClients(quiet));
      Socket beyondTheEnd = openStream(quiet, id, "100000", "");
      awaitSseClients(quiet, 1);
      beyondTheEnd.close();
      awaitSseClients(quiet, 0);

      Socket fromTheStart = openStream(quiet, id, "0", "");
      awaitSseClients(quiet, 1);
      fromTheStart.close();
      awaitSseClients(quiet, 0);
    }
  }

  @Test
  void aStreamAskingToCloseTheConnectionAfterItIsNotCutShort(@TempDir Path own) throws Exception {
    try (TestServer on = new TestServer(own, c -> c.withKeepAlive(Duration.ofMillis(200)), ConfigFactory.empty())) {
      on.cassette("default", "Nothing to run.");
      String id = on.createSession(body("message", "hello", "model", on.cassette("words", "Just words.")));
      try (Socket closing = openStream(on, id, "0", "Connection: close\r\n")) {
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
            closing.getInputStream(), StandardCharsets.UTF_8));
        boolean finished = false;
        int keepAlivesAfter = 0;
        String line;
        while (keepAlivesAfter < 2 && (line = in.readLine()) != null) {
          finished |= line.contains("\"type\":\"turn_finished\"");
          if (finished && line.contains(": keep-alive")) {
            keepAlivesAfter++;
          }
        }
        assertTrue(finished, "the whole turn arrived");
        assertEquals(2, keepAlivesAfter, "the stream stayed open after it");
      }
    }
  }

  /** Follows a session to its turn_finished as a browser would: reconnecting with Last-Event-ID when cut off. */
  private static List<SseClient.Frame> followReconnecting(TestServer on, String id) throws Exception {
    List<SseClient.Frame> all = new ArrayList<>();
    String last = null;
    for (int connection = 0; connection < 1_000; connection++) {
      try (SseClient events = on.events("/api/sessions/" + id + "/events", last)) {
        List<SseClient.Frame> got = events.until("turn_finished", Duration.ofMinutes(2));
        if (!all.isEmpty() && !got.isEmpty()) {
          assertEquals(all.get(all.size() - 1).seq() + 1, got.get(0).seq(), "no gap, no duplicate on reconnect");
        }
        all.addAll(got);
        if (!all.isEmpty()) {
          last = all.get(all.size() - 1).id();
          if (all.get(all.size() - 1).type().equals("turn_finished")) {
            return all;
          }
        }
      }
    }
    throw new AssertionError("did not reach turn_finished");
  }
}
