package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import com.sun.net.httpserver.HttpServer;
import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.computer.browser.BrowserSettings;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code i4j run --os}: a real child process gets its own screen, and the model's python block reaches it. */
class CliComputerTest {

  @TempDir Path root;

  @Test
  void theOsFlagGivesTheSessionAPrivateScreenThatPythonBlocksUse() throws Exception {
    RequiredTool.assume(Subprocess.executable("Xvfb").isPresent(), "Xvfb", "apt-get install xvfb");
    RequiredTool.assume(Subprocess.executable("xdotool").isPresent(), "xdotool", "apt-get install xdotool");
    Path work = Files.createDirectories(root.resolve("work"));
    Path cassette = root.resolve("screen.json");
    Files.writeString(cassette, "{\"turns\": [{\"reply\": \"```python\\nprint(computer.display.size())\\n"
        + "print(computer.mouse.move(10, 20))\\n```\"}, {\"expect\": \"\\\\(1280, 800\\\\)\", \"reply\": \"Done.\"}]}");

    CliProcess.Result r = CliProcess.finish(CliProcess.start(work, root.resolve("data"), root.resolve("config"),
        Map.of("DISPLAY", ""), "run", "-y", "--os", "--json", "-m", "replay:" + cassette, "how large is the screen?"),
        null, Duration.ofSeconds(120));

    assertEquals(0, r.exit(), r.stderr() + r.stdout());
    List<JsonNode> actions = new ArrayList<>();
    for (String line : r.stdout().split("\n")) {
      if (line.startsWith("{")) {
        JsonNode event = EventCodec.mapper().readTree(line);
        if (event.path("type").asText().equals("computer_action")) {
          actions.add(event);
        }
      }
    }
    assertEquals(List.of("display.size", "mouse.move"), actions.stream().map(a -> a.path("action").asText()).toList(),
        r.stdout());
    assertEquals("1280x800", actions.get(0).path("result").asText());
    assertEquals(List.of(10, 20), List.of(actions.get(1).path("x").asInt(), actions.get(1).path("y").asInt()));
    assertTrue(r.stdout().contains("(1280, 800)"), r.stdout());
  }

  @Test
  void theSessionsBrowserFillsAFormServedOnLoopbackFromAPythonBlock() throws Exception {
    sign(true);
  }

  @Test
  void underYesASubmitThatAsksFirstIsDeniedWhereNobodyCanAnswerAndNothingIsPosted() throws Exception {
    sign(false);
  }

  /** A python block opens a guest book, finds its name field in the snapshot, and types a name with submit. */
  private void sign(boolean submitWithoutAsking) throws Exception {
    RequiredTool.assume(BrowserSettings.DEFAULT.chromium().isPresent(), "chromium", "apt-get install chromium");
    CompletableFuture<String> posted = new CompletableFuture<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      byte[] page;
      if (exchange.getRequestMethod().equals("POST")) {
        posted.complete(URLDecoder.decode(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
            StandardCharsets.UTF_8));
        page = "<html><title>Thanks</title><body>thanks</body></html>".getBytes(StandardCharsets.UTF_8);
      } else {
        page = ("<html><title>Guest book</title><body><form method=post action=/sign>"
            + "<label for=n>Name</label><input id=n name=name><button type=submit>Sign</button></form></body></html>")
            .getBytes(StandardCharsets.UTF_8);
      }
      exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, page.length);
      exchange.getResponseBody().write(page);
      exchange.close();
    });
    server.start();
    try {
      Path work = Files.createDirectories(root.resolve("work"));
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
      String code = "import re\\n"
          + "print(computer.browser.go('" + url + "'))\\n"
          + "tree = computer.browser.snapshot()\\n"
          + "print(tree)\\n"
          + "ref = re.search(r'textbox \\\"Name\\\" \\\\[ref=(e\\\\d+)\\\\]', tree).group(1)\\n"
          + "print(computer.browser.type(ref, 'Ada Lovelace', submit=True))\\n";
      // submitting asks first by default, and nobody can answer here (-y, no terminal): unless this user lets the
      // model submit, the submit is denied
      if (submitWithoutAsking) {
        Path config = Files.createDirectories(root.resolve("config").resolve("interpreter4j"));
        Files.writeString(config.resolve("config.conf"), "interpreter4j.computer.ask-before = []\n");
      }
      Path cassette = root.resolve("browser.json");
      Files.writeString(cassette, "{\"turns\": [{\"reply\": \"```python\\n" + code + "```\"}, "
          + "{\"expect\": \"" + (submitWithoutAsking ? "typed 12 characters" : "denied") + "\", \"reply\": \"Done.\"}]}");

      CliProcess.Result r = CliProcess.finish(CliProcess.start(work, root.resolve("data"), root.resolve("config"),
          Map.of("DISPLAY", ""), "run", "-y", "--computer", "--json", "-m", "replay:" + cassette, "sign the book"),
          null, Duration.ofSeconds(180));

      assertEquals(0, r.exit(), r.stderr() + r.stdout());
      if (submitWithoutAsking) {
        assertEquals("name=Ada Lovelace", posted.get(10, TimeUnit.SECONDS));
      } else {
        assertFalse(posted.isDone(), "posted: " + posted.getNow(""));
      }
      List<String> actions = new ArrayList<>();
      for (String line : r.stdout().split("\n")) {
        if (line.startsWith("{")) {
          JsonNode event = EventCodec.mapper().readTree(line);
          if (event.path("type").asText().equals("computer_action")) {
            actions.add(event.path("action").asText() + " " + event.path("ok").asBoolean());
          }
        }
      }
      assertEquals(List.of("browser.go true", "browser.snapshot true", "browser.type " + submitWithoutAsking), actions,
          r.stdout());
      assertTrue(r.stdout().contains("textbox \\\"Name\\\""), r.stdout());
    } finally {
      server.stop(0);
    }
  }
}
