package io.interpreter4j.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.config.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens, the dashboard cookie, the failure limit, the origin and host checks, over real HTTP. */
class AuthTest {
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

  private HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
    return server.send(b.build());
  }

  private HttpRequest.Builder bare(String path) {
    return HttpRequest.newBuilder(URI.create(server.base() + path)).timeout(TestServer.WAIT);
  }

  @Test
  void healthNeedsNoToken() throws Exception {
    HttpResponse<String> r = send(bare("/healthz").GET());
    assertEquals(200, r.statusCode());
    assertEquals("ok", r.body());
  }

  @Test
  void apiWithoutTokenIs401WithAJsonError() throws Exception {
    for (String path : List.of("/api/sessions", "/api/summary", "/metrics", "/api/events", "/api/nope")) {
      HttpResponse<String> r = send(bare(path).GET());
      assertEquals(401, r.statusCode(), path);
      JsonNode body = TestServer.json(r);
      assertEquals("unauthorized", body.path("error").asText(), path);
      assertFalse(body.path("detail").asText().isBlank());
      assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
    }
  }

  @Test
  void wrongBearerTokenIs401RightOneIs200() throws Exception {
    assertEquals(401, send(bare("/api/sessions").header("Authorization", "Bearer nope").GET()).statusCode());
    assertEquals(401, send(bare("/api/sessions").header("Authorization", "Basic dXNlcjpwYXNz").GET()).statusCode());
    HttpResponse<String> ok = send(bare("/api/sessions").header("Authorization", "Bearer " + TestServer.TOKEN).GET());
    assertEquals(200, ok.statusCode());
    assertTrue(TestServer.json(ok).path("sessions").isArray());
    assertEquals("nosniff", ok.headers().firstValue("X-Content-Type-Options").orElse(""));
    assertEquals("DENY", ok.headers().firstValue("X-Frame-Options").orElse(""));
  }

  @Test
  void tokenUrlSetsAnHttpOnlyStrictCookieAndRedirectsWithoutTheToken() throws Exception {
    HttpResponse<String> login = send(bare("/?token=" + TestServer.TOKEN).GET());
    assertEquals(303, login.statusCode());
    assertEquals("/", login.headers().firstValue("Location").orElseThrow());
    String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
    assertTrue(setCookie.startsWith("i4j_auth="), setCookie);
    assertTrue(setCookie.contains("HttpOnly"), setCookie);
    assertTrue(setCookie.contains("SameSite=Strict"), setCookie);
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    assertFalse(cookie.contains(TestServer.TOKEN), "the cookie is not the token");

    HttpResponse<String> page = send(bare("/").header("Cookie", cookie).GET());
    assertEquals(200, page.statusCode());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    assertTrue(page.body().contains("interpreter4j"));
    assertEquals(200, send(bare("/api/sessions").header("Cookie", cookie).GET()).statusCode());
    assertEquals(200, send(bare("/api/summary").header("Cookie", cookie).GET()).statusCode());

    assertEquals(401, send(bare("/api/sessions").header("Cookie", "i4j_auth=forged").GET()).statusCode());
    assertEquals(401, send(bare("/api/sessions").header("Cookie", "i4j_auth=" + TestServer.TOKEN).GET())
        .statusCode(), "the raw token is not a cookie");
    assertEquals(401, send(bare("/").GET()).statusCode(), "the page without a cookie says how to log in");
  }

  @Test
  void wrongTokenInTheUrlIs401() throws Exception {
    HttpResponse<String> r = send(bare("/?token=wrong").GET());
    assertEquals(401, r.statusCode());
    assertTrue(r.headers().firstValue("Set-Cookie").isEmpty());
  }

  @Test
  void staticAssetsArePublicButNotTheData() throws Exception {
    assertEquals(200, send(bare("/assets/index.html").GET()).statusCode());
    assertEquals(404, send(bare("/assets/missing.js").GET()).statusCode());
  }

  @Test
  void postFromAForeignOriginIs403() throws Exception {
    HttpResponse<String> foreign = server.send(server.request("/api/sessions")
        .header("Origin", "http://evil.example").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(TestServer.body("message", "hi"))).build());
    assertEquals(403, foreign.statusCode());
    assertEquals("forbidden", TestServer.json(foreign).path("error").asText());

    HttpResponse<String> crossSite = server.send(server.request("/api/sessions")
        .header("Sec-Fetch-Site", "cross-site").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(TestServer.body("message", "hi"))).build());
    assertEquals(403, crossSite.statusCode());

    HttpResponse<String> otherPort = server.send(server.request("/api/sessions/x/interrupt")
        .header("Origin", "http://127.0.0.1:1").POST(HttpRequest.BodyPublishers.noBody()).build());
    assertEquals(403, otherPort.statusCode());

    HttpResponse<String> own = server.send(server.request("/api/sessions/nope/interrupt")
        .header("Origin", server.base()).header("Sec-Fetch-Site", "same-origin")
        .POST(HttpRequest.BodyPublishers.noBody()).build());
    assertEquals(404, own.statusCode(), "our own origin passes (and the id is unknown)");

    HttpResponse<String> foreignGet = server.send(server.request("/api/sessions")
        .header("Origin", "http://evil.example").GET().build());
    assertEquals(200, foreignGet.statusCode(), "reads are not mutations (and a browser cannot read them cross-origin)");
  }

  @Test
  void requestsForAnotherHostNameAreRefused() throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.handle.port())) {
      OutputStream out = s.getOutputStream();
      out.write(("GET /api/sessions HTTP/1.1\r\nHost: rebound.example:" + server.handle.port()
          + "\r\nAuthorization: Bearer " + TestServer.TOKEN + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      assertTrue(response.startsWith("HTTP/1.1 403"), response);
    }
  }

  @Test
  void tooManyWrongTokensAre429WithRetryAfter(@TempDir Path own) throws Exception {
    try (TestServer limited = new TestServer(own, c -> c.withMaxAuthFailures(3),
        com.typesafe.config.ConfigFactory.empty())) {
      HttpRequest.Builder wrong = HttpRequest.newBuilder(URI.create(limited.base() + "/api/sessions"))
          .header("Authorization", "Bearer wrong").GET();
      for (int i = 0; i < 3; i++) {
        assertEquals(401, limited.send(wrong.build()).statusCode());
      }
      HttpResponse<String> blocked = limited.send(wrong.build());
      assertEquals(429, blocked.statusCode());
      assertEquals("too_many_requests", TestServer.json(blocked).path("error").asText());
      long retryAfter = Long.parseLong(blocked.headers().firstValue("Retry-After").orElseThrow());
      assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter);
      assertEquals(429, limited.send(limited.request("/api/sessions").GET().build()).statusCode(),
          "even the right token waits: the answer must not tell a guesser anything");
      assertEquals(429, limited.send(HttpRequest.newBuilder(URI.create(limited.base() + "/?token=" + TestServer.TOKEN))
          .GET().build()).statusCode());
      assertEquals(200, limited.send(HttpRequest.newBuilder(URI.create(limited.base() + "/healthz")).GET().build())
          .statusCode());
      assertTrue(limited.get("/healthz").body().equals("ok"));
    }
  }

  /** A web page's {@code <img src="http://127.0.0.1:PORT/?token=x">}, as a browser sends it. */
  private static HttpRequest crossSiteImage(TestServer on, String token) {
    return HttpRequest.newBuilder(URI.create(on.base() + "/?token=" + token))
        .header("Sec-Fetch-Site", "cross-site").header("Sec-Fetch-Mode", "no-cors")
        .header("Sec-Fetch-Dest", "image").GET().build();
  }

  @Test
  void wrongTokensFromOtherSitesNeverLockOutTheRightToken(@TempDir Path own) throws Exception {
    try (TestServer target = new TestServer(own)) {
      for (int i = 0; i < 10; i++) {
        assertEquals(401, target.send(crossSiteImage(target, "x" + i)).statusCode());
      }
      assertEquals(429, target.send(crossSiteImage(target, "x")).statusCode(),
          "other sites' guesses are still limited");
      assertEquals(429, target.send(crossSiteImage(target, TestServer.TOKEN)).statusCode(),
          "even a right guess from another site waits");
      HttpResponse<String> api = target.get("/api/sessions");
      assertEquals(200, api.statusCode(), "the bearer token of a program still works: " + api.body());
      HttpResponse<String> login = target.send(HttpRequest.newBuilder(
          URI.create(target.base() + "/?token=" + TestServer.TOKEN)).header("Sec-Fetch-Site", "none").GET().build());
      assertEquals(303, login.statusCode(), "the printed URL, opened by the user, still logs in");
      assertEquals(401, target.send(HttpRequest.newBuilder(URI.create(target.base() + "/api/sessions"))
          .header("Authorization", "Bearer wrong").GET().build()).statusCode(), "direct failures count apart");
      assertEquals(429, target.send(HttpRequest.newBuilder(URI.create(target.base() + "/?token=x"))
          .header("Referer", "http://evil.example/page").GET().build()).statusCode(),
          "a foreign Referer (browsers without Sec-Fetch-Site) is cross-site too");
    }
  }

  @Test
  void bindingANonLoopbackAddressNeedsAllowRemote() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
        Server.start(server.system, ServerConfig.defaults().withHost("0.0.0.0").withPort(0), Settings.defaults(),
            spec -> null, TestServer.HOST));
    assertEquals("binding to 0.0.0.0 needs --allow-remote", e.getMessage());
  }

  @Test
  void generatedTokensAreLongAndUrlSafe() {
    String t = ServerConfig.generateToken();
    assertEquals(43, t.length());
    assertTrue(t.matches("[A-Za-z0-9_-]+"), t);
    assertTrue(server.handle.url().startsWith("http://127.0.0.1:" + server.handle.port() + "/?token="));
    assertFalse(ServerConfig.defaults().withToken("secret").toString().contains("secret"));
  }
}
