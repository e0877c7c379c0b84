package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
 * A python block (the python3 on the PATH) shows an object that has only {@code _repr_html_}: the model reads its
 * text (checked by the cassette's expect), the html event names the saved document, and
 * {@code GET /api/sessions/{id}/html/{n}} serves it under a policy that runs no script and loads nothing.
 */
class HtmlApiTest {
  @TempDir static Path tmp;
  private static TestServer server;
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** The document the block shows: a table and an inline style. */
  static final String DOCUMENT = "<style>td{color:red}</style><table><tr><th>city</th><th>rain</th></tr>"
      + "<tr><td>Lyon</td><td>12 mm</td></tr></table>";

  static final String BLOCK = """
      class Rain:
          def _repr_html_(self):
              return "%s"
      display(Rain())
      """.formatted(DOCUMENT);

  @BeforeAll
  static void start() throws Exception {
    server = new TestServer(tmp);
    server.cassette("default", "Nothing to run here.");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void htmlIsAnEventTheApiServesSandboxedAndTheModelReadsItsText() throws Exception {
    String model = server.expectingCassette("rain", 16, 0, null, "A table:\n\n```python\n" + BLOCK + "```\n",
        "city\\s+rain\\s+Lyon\\s+12 mm", "Lyon had 12 mm.");
    String id = server.createSession(body("message", "show the rain", "model", model, "autoRun", true));
    List<SseClient.Frame> frames;
    try (SseClient events = server.events("/api/sessions/" + id + "/events", null)) {
      frames = events.until("turn_finished", WAIT);
    }
    assertEquals("done", frames.get(frames.size() - 1).json().path("status").asText(), frames.toString());
    JsonNode html = frames.stream().filter(f -> f.type().equals("html")).findFirst().orElseThrow().json();
    assertEquals(1, html.path("block").asInt());
    Path file = Path.of(html.path("path").asText());
    assertTrue(file.startsWith(server.dataDir.resolve("sessions").resolve(id).resolve("outputs").toRealPath()),
        file.toString());
    assertEquals("block-1-1.html", file.getFileName().toString());
    assertEquals(DOCUMENT, Files.readString(file));
    assertEquals(DOCUMENT.length(), html.path("bytes").asLong());

    HttpResponse<String> served = server.get("/api/sessions/" + id + "/html/1");
    assertEquals(200, served.statusCode());
    assertEquals(DOCUMENT, served.body());
    assertEquals("text/html; charset=UTF-8", served.headers().firstValue("Content-Type").orElse(""));
    String policy = served.headers().firstValue("Content-Security-Policy").orElse("");
    for (String directive : List.of("sandbox;", "default-src 'none';", "frame-ancestors 'self'")) {
      assertTrue(policy.contains(directive), policy); // no script, nothing loaded, framed by the dashboard alone
    }
    assertTrue(!policy.contains("script-src") && !policy.contains("allow-"), policy);
    assertEquals(List.of("SAMEORIGIN"), served.headers().allValues("X-Frame-Options"));
    assertEquals("nosniff", served.headers().firstValue("X-Content-Type-Options").orElse(""));

    HttpResponse<String> none = server.get("/api/sessions/" + id + "/html/2");
    assertEquals(404, none.statusCode());
    assertEquals("session '" + id + "' has no HTML document 2", json(none).path("detail").asText());
    HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(java.net.URI.create(
        server.base() + "/api/sessions/" + id + "/html/1")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, anonymous.statusCode());

    Files.delete(file);
    Files.writeString(tmp.resolve("outside.html"), "<p>not the session's</p>");
    Files.createSymbolicLink(file, tmp.resolve("outside.html"));
    HttpResponse<String> escaped = server.get("/api/sessions/" + id + "/html/1");
    assertEquals(404, escaped.statusCode(), "a link out of the session's folder is not followed");
    assertTrue(json(escaped).path("detail").asText().contains("not inside the session's folder"), escaped.body());
  }
}
