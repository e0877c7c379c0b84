package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A python block (the python3 on the PATH) shows a PNG it wrote with the standard library: the image event, the
 * text the model reads in the next request (checked by the cassette's expect), and
 * {@code GET /api/sessions/{id}/images/{n}}.
 */
class ImageApiTest {
  @TempDir static Path tmp;
  private static TestServer server;
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** Writes a 3x2 red PNG with zlib and struct, then shows it. */
  static final String BLOCK = """
      import struct, zlib
      def chunk(kind, data):
          return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
      rows = b"".join(b"\\x00" + b"\\xff\\x00\\x00" * 3 for _ in range(2))
      with open("red.png", "wb") as f:
          f.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 3, 2, 8, 2, 0, 0, 0))
                  + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
      display("red.png")
      """;

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer(tmp);
    server.cassette("default", "Nothing to run here.");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A replay model that runs BLOCK, then expects the image's line in the result it is given. */
  static String cassette(String name) {
    ObjectNode root = EventCodec.mapper().createObjectNode();
    var turns = root.putArray("turns");
    turns.addObject().put("reply", "Here it is.\n\n```python\n" + BLOCK + "```\n");
    turns.addObject().put("expect", "\\[image 3x2 PNG: /.+/outputs/block-1-1\\.png\\]").put("reply", "A red image.");
    return server.putCassette(name, root.toString());
  }

  @Test
  void anImageIsAnEventTheModelReadsAboutAndTheApiServes() throws Exception {
    String id = server.createSession(body("message", "show me red", "model", cassette("red"), "autoRun", true));
    List<SseClient.Frame> frames;
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      frames = events.until("turn_finished", WAIT);
    }
    assertEquals("done", frames.get(frames.size() - 1).json().path("status").asText(), frames.toString());
    JsonNode image = frames.stream().filter(f -> f.type().equals("image")).findFirst().orElseThrow().json();
    assertEquals(1, image.path("block").asInt());
    assertEquals("image/png", image.path("mime").asText());
    assertEquals(3, image.path("width").asInt());
    assertEquals(2, image.path("height").asInt());
    assertEquals("display", image.path("source").asText());
    Path file = Path.of(image.path("path").asText());
    assertTrue(file.isAbsolute() && file.startsWith(server.dataDir.resolve("sessions").resolve(id).resolve("outputs")
        .toRealPath()), file.toString());

    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<byte[]> served = http.send(server.request("/api/sessions/" + id + "/images/1").GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, served.statusCode());
    assertEquals("image/png", served.headers().firstValue("Content-Type").orElse(""));
    assertArrayEquals(Files.readAllBytes(file), served.body());

    HttpResponse<String> none = server.get("/api/sessions/" + id + "/images/2");
    assertEquals(404, none.statusCode());
    assertEquals("not_found", json(none).path("error").asText());
    assertEquals("session '" + id + "' has no image 2", json(none).path("detail").asText());
    assertEquals(404, server.get("/api/sessions/" + id + "/images/0").statusCode());
    assertEquals(404, server.get("/api/sessions/nope/images/1").statusCode());
    HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(java.net.URI.create(
        server.base() + "/api/sessions/" + id + "/images/1")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, anonymous.statusCode());

    Files.delete(file);
    Files.createSymbolicLink(file, tmp.resolve("outside.png"));
    Files.write(tmp.resolve("outside.png"), Files.readAllBytes(server.cassetteFile("red")));
    HttpResponse<String> escaped = server.get("/api/sessions/" + id + "/images/1");
    assertEquals(404, escaped.statusCode(), "a link out of the session's folder is not followed");
    assertTrue(json(escaped).path("detail").asText().contains("not inside the session's folder"), escaped.body());
  }
}
