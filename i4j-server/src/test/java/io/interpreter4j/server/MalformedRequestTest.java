package io.interpreter4j.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests the HTTP layer refuses before any route runs (too large, too long, malformed) are answered like every
 * other error: the JSON body and the security headers. Sent over a raw socket, since HTTP clients refuse to send them.
 */
class MalformedRequestTest {
  @TempDir static Path tmp;
  private static TestServer server;

  @BeforeAll
  static void start() throws IOException {
    server = new TestServer(tmp);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A raw response: status, headers (names in lower case) and body. */
  private record Raw(int status, Map<String, String> headers, String body) {
    JsonNode json() throws IOException {
      return EventCodec.mapper().readTree(body);
    }
  }

  private static Raw exchange(String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.handle.port())) {
      s.setSoTimeout((int) TestServer.WAIT.toMillis());
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int end = response.indexOf("\r\n\r\n");
      assertTrue(end > 0, "no complete response: " + response);
      String[] lines = response.substring(0, end).split("\r\n");
      Map<String, String> headers = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
      }
      return new Raw(Integer.parseInt(lines[0].split(" ")[1]), headers, response.substring(end + 4));
    }
  }

  private static void assertJsonError(Raw r, int status, String error) throws IOException {
    assertEquals(status, r.status(), r.toString());
    assertTrue(r.headers().getOrDefault("content-type", "").startsWith("application/json"), r.toString());
    assertEquals(error, r.json().path("error").asText(), r.body());
    assertFalse(r.json().path("detail").asText().isBlank(), r.body());
    assertEquals("nosniff", r.headers().get("x-content-type-options"), r.toString());
    assertEquals("DENY", r.headers().get("x-frame-options"), r.toString());
    assertEquals("no-referrer", r.headers().get("referrer-policy"), r.toString());
  }

  private static String get(String target, String extraHeaders) {
    return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestServer.TOKEN + "\r\n"
        + extraHeaders + "Connection: close\r\n\r\n";
  }

  @Test
  void aHeaderSectionTooLargeIs431() throws Exception {
    assertJsonError(exchange(get("/api/sessions", "X-Big: " + "a".repeat(20_000) + "\r\n")), 431,
        "request_header_fields_too_large");
  }

  @Test
  void tooManyHeadersAre400() throws Exception {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      many.append("X-Header-").append(i).append(": ").append(i).append("\r\n");
    }
    assertJsonError(exchange(get("/api/sessions", many.toString())), 400, "bad_request");
  }

  @Test
  void aUriTooLongIs414() throws Exception {
    assertJsonError(exchange(get("/api/sessions?after=" + "1".repeat(10_000), "")), 414, "uri_too_long");
  }

  @Test
  void aMalformedRequestIs400() throws Exception {
    assertJsonError(exchange(get("/api/sessions", "Not a header line\r\n")), 400, "bad_request");
    assertJsonError(exchange("GET /api/<sessions> HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), 400, "bad_request");
  }
}
