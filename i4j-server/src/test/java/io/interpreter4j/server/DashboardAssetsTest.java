package io.interpreter4j.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's static files over real HTTP, requests written byte for byte on a socket (no client tidies the
 * path): every module under {@code dashboard/}, sub-folders included, as JavaScript with its validators, the page's
 * Content-Security-Policy, and nothing outside the folder, however the path is spelled.
 */
class DashboardAssetsTest {
  @TempDir static Path tmp;
  private static TestServer server;

  /** The dashboard's files in the source tree (the tests run from the module's folder). */
  private static final Path SOURCES = Path.of("src", "main", "resources", "dashboard");

  @BeforeAll
  static void start() throws IOException {
    server = new TestServer(tmp);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** One response: status code, headers (lower-case names), body. */
  record Raw(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
    }
  }

  /** Sends {@code GET target} exactly as written, with extra header lines, and reads the whole answer. */
  private static Raw get(String target, String... headerLines) throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.handle.port())) {
      s.setSoTimeout((int) TestServer.WAIT.toMillis());
      StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:"
          + server.handle.port() + "\r\nConnection: close\r\n");
      for (String line : headerLines) {
        request.append(line).append("\r\n");
      }
      OutputStream out = s.getOutputStream();
      out.write(request.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = s.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int end = response.indexOf("\r\n\r\n");
      String[] head = response.substring(0, end).split("\r\n");
      Map<String, String> headers = new TreeMap<>();
      for (int i = 1; i < head.length; i++) {
        int colon = head[i].indexOf(':');
        headers.put(head[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), head[i].substring(colon + 1).strip());
      }
      return new Raw(Integer.parseInt(head[0].split(" ")[1]), headers, response.substring(end + 4));
    }
  }

  @Test
  void everyStyleSheetIsServedAsCssFromItsFolder() throws IOException {
    List<Path> sheets;
    try (Stream<Path> files = Files.walk(SOURCES)) {
      sheets = files.filter(f -> f.toString().endsWith(".css")).toList();
    }
    assertFalse(sheets.isEmpty());
    for (Path sheet : sheets) {
      String path = "/assets/" + SOURCES.relativize(sheet).toString().replace('\\', '/');
      Raw r = get(path);
      assertEquals(200, r.status(), path);
      assertTrue(r.header("Content-Type").startsWith("text/css"), path + ": " + r.header("Content-Type"));
      assertEquals(Files.readString(sheet), r.body(), path);
    }
  }

  @Test
  void everyModuleIsServedAsJavaScriptFromItsFolder() throws IOException {
    List<Path> modules;
    try (Stream<Path> files = Files.walk(SOURCES)) {
      modules = files.filter(f -> f.toString().endsWith(".js")).toList();
    }
    assertTrue(modules.stream().anyMatch(m -> SOURCES.relativize(m).getNameCount() > 1),
        "some modules live in a sub-folder: " + modules);
    for (Path module : modules) {
      String path = "/assets/" + SOURCES.relativize(module).toString().replace('\\', '/');
      Raw r = get(path);
      assertEquals(200, r.status(), path);
      String type = r.header("Content-Type");
      assertTrue(type.startsWith("text/javascript") || type.startsWith("application/javascript"),
          path + " must have a JavaScript type for a module script, not " + type);
      assertEquals(Files.readString(module), r.body(), path);
    }
  }

  @Test
  void assetsKeepTheirValidatorsAndAnswerConditionalRequests() throws IOException {
    for (String path : List.of("/assets/app.js", "/assets/views/session.js", "/assets/styles/base.css")) {
      Raw first = get(path);
      String etag = first.header("ETag");
      assertFalse(etag.isEmpty(), path + " has an ETag: " + first.headers());
      assertFalse(first.header("Last-Modified").isEmpty(), path);
      Raw again = get(path, "If-None-Match: " + etag);
      assertEquals(304, again.status(), path);
      assertEquals("", again.body());
    }
  }

  @Test
  void nothingOutsideTheDashboardFolderIsServed() throws IOException {
    assertEquals(200, get("/assets/index.html").status());
    List<String> attempts = List.of(
        "/assets/../reference.conf",
        "/assets/%2e%2e/reference.conf",
        "/assets/%2E%2E/reference.conf",
        "/assets/views/../../reference.conf",
        "/assets/views/%2e%2e/%2e%2e/reference.conf",
        "/assets/..%2freference.conf",
        "/assets/views%2f..%2f..%2freference.conf",
        "/assets/..%5creference.conf",
        "/assets/%252e%252e/reference.conf",
        "/assets//reference.conf",
        "/assets/%2freference.conf",
        "/assets//etc/passwd",
        "/assets/%2fetc%2fpasswd",
        "/assets/file:/etc/passwd",
        "/assets/views",
        "/assets/views/",
        "/assets/");
    for (String target : attempts) {
      // With the token, so that a path tidied out of /assets/ (/assets/../x is /x) is not merely refused as unauthenticated.
      Raw r = get(target, "Authorization: Bearer " + TestServer.TOKEN);
      assertEquals(404, r.status(), target + " -> " + r.body());
      assertFalse(r.body().contains("interpreter4j {"), target + " leaked reference.conf");
      assertFalse(r.body().contains("root:"), target + " leaked /etc/passwd");
    }
  }

  @Test
  void thePageAllowsOnlyItsOwnScripts() throws IOException {
    Raw login = get("/?token=" + TestServer.TOKEN);
    assertEquals(303, login.status());
    String setCookie = login.header("Set-Cookie");
    Raw page = get("/", "Cookie: " + setCookie.substring(0, setCookie.indexOf(';')));
    assertEquals(200, page.status());
    assertTrue(page.body().contains("<script type=\"module\" src=\"/assets/app.js\"></script>"), page.body());
    String csp = page.header("Content-Security-Policy");
    assertTrue(csp.contains("script-src 'self'"), csp);
    assertTrue(csp.contains("default-src 'self'"), csp);
    assertTrue(csp.contains("object-src 'none'"), csp);
    assertTrue(csp.contains("frame-ancestors 'none'"), csp);
    assertFalse(csp.contains("unsafe-inline") || csp.contains("unsafe-eval"), csp);
  }
}
