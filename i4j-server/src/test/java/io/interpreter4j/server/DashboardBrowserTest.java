package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.interpreter4j.core.event.EventCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard in a real browser against a real server: headless Chromium (Debian's chromium + chromium-driver,
 * {@link Browser#assumeInstalled}) opens {@code /?token=...}, sees an ask-mode session wait in the sessions
 * table, opens it and approves, edits or denies its block on the approval card (the block runs for real in a bash
 * REPL), or stops it from its page.
 */
class DashboardBrowserTest extends DashboardPage {
  @BeforeAll
  static void aDefaultCassette() throws Exception {
    if (server != null) {
      server.cassette("default", "Nothing to run here.");
    }
  }

  /** Registers a cassette of (expect, reply) pairs, expect null for any message; returns its model spec. */
  static String cassette(String name, String... expectsAndReplies) {
    return server.expectingCassette(name, 16, 0, expectsAndReplies);
  }

  static By testId(String id) {
    return By.cssSelector("[data-testid='" + id + "']");
  }

  static By testId(String id, String attribute, Object value) {
    return By.cssSelector("[data-testid='" + id + "'][data-" + attribute + "='" + value + "']");
  }

  private static By row(String id, String status) {
    return By.cssSelector("[data-testid='session-row'][data-session-id='" + id + "'][data-status='" + status + "']");
  }

  /** The session's events from the API (the journal). */
  private static List<JsonNode> events(String id) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    json(server.get("/api/sessions/" + id + "?limit=5000")).path("events").forEach(out::add);
    return out;
  }

  @Test
  void everyModuleOfTheDashboardLoadsWithoutAConsoleError() throws Exception {
    List<String> modules;
    Path sources = Path.of("src", "main", "resources", "dashboard");
    try (Stream<Path> files = Files.walk(sources)) {
      modules = files.filter(f -> f.toString().endsWith(".js"))
          .map(f -> "/assets/" + sources.relativize(f).toString().replace('\\', '/')).sorted().toList();
    }

    browser.login(server);
    browser.waitFor("the header's counts", d -> !d.findElement(By.id("count-active")).getText().startsWith("–"));
    @SuppressWarnings("unchecked")
    List<String> loaded = (List<String>) browser.js("return performance.getEntriesByType('resource')"
        + ".map(e => new URL(e.name).pathname).filter(p => p.endsWith('.js')).sort()");
    assertEquals(modules, loaded, "index.html's module graph loads every module under dashboard/, and only those");
    assertEquals("module", browser.js("return document.querySelector('script[src=\"/assets/app.js\"]').type"));
    List<String> errors = browser.consoleErrors();
    assertTrue(errors.isEmpty(), "a module that fails to load, a script error or a Content-Security-Policy "
        + "violation is logged as an error: " + errors);
  }

  @Test
  void approvingABlockOnItsCardRunsItAndShowsItsOutputAndExitCode() throws Exception {
    String model = cassette("approve",
        null, "Let me say hello from this machine.\n\n```bash\necho hello-from-the-dashboard; date +%Y\n```\n",
        "exit code 0", "It printed **hello-from-the-dashboard** and the year.");
    String id = server.createSession(body("message", "Say hello from the dashboard", "model", model,
        "autoRun", false));

    browser.login(server);
    WebElement row = browser.waitFor("the session's row to wait for approval",
        row(id, "awaiting_approval"));
    assertTrue(row.getText().contains("Say hello from the dashboard"), row.getText());
    browser.waitFor("the header to count one approval waiting", testId("approvals-waiting", "count", 1));

    row.findElement(By.cssSelector("a.row-title")).click();
    WebElement card = browser.waitFor("the approval card of block 1", testId("approval-card", "block", 1));
    String cardText = Browser.text(card);
    assertTrue(cardText.contains("echo hello-from-the-dashboard; date +%Y"), cardText);
    assertTrue(cardText.contains("bash"), cardText);
    browser.waitFor("the transcript to show the model's reply",
        d -> Browser.text(d.findElement(testId("transcript"))).contains("Let me say hello from this machine."));

    card.findElement(testId("approve-button")).click();

    browser.waitFor("block 1's output", d -> {
      String out = Browser.text(d.findElement(testId("block-output", "block", 1)));
      return out.contains("hello-from-the-dashboard") && out.matches("(?s).*\\b\\d{4}\\b.*") ? out : null;
    });
    WebElement badge = browser.waitFor("block 1's exit badge", testId("exit-badge", "block", 1));
    assertEquals("0", badge.getDomAttribute("data-exit-code"));
    assertEquals("exit 0", badge.getText());
    browser.waitGone("the approval card to go", testId("approval-card"));
    browser.waitFor("the session to be done", By.cssSelector(".session-pill [data-status='done']"));
    browser.waitFor("the model's answer after the run", d -> Browser.text(d.findElement(testId("transcript")))
        .contains("It printed hello-from-the-dashboard and the year."));
    WebElement state = browser.driver.findElement(By.cssSelector(".block-card[data-block='1'] .block-state"));
    assertEquals("Approved · by user", state.getText());
    // The "full output" link works with the browser's cookie (no token in the page).
    String href = browser.driver.findElement(By.cssSelector(".block-card[data-block='1'] a.full-output"))
        .getDomAttribute("href");
    Object full = browser.driver.executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "fetch(arguments[0]).then(r => r.text().then(t => done(r.status + ' ' + t)), e => done('failed ' + e));",
        href);
    assertTrue(String.valueOf(full).startsWith("200 ") && String.valueOf(full).contains("hello-from-the-dashboard"),
        href + " -> " + full);
    browser.waitFor("the header to count no approvals waiting", testId("approvals-waiting", "count", 0));

    browser.driver.findElement(By.cssSelector("a.back")).click();
    browser.waitFor("the session's row to show done",
        row(id, "done"));

    List<JsonNode> events = events(id);
    JsonNode approval = events.stream().filter(e -> e.path("type").asText().equals("approval")).findFirst()
        .orElseThrow();
    assertEquals("approved", approval.path("decision").asText());
    assertEquals("user", approval.path("by").asText());
    assertEquals("done", events.get(events.size() - 1).path("status").asText());
  }

  @Test
  void editingABlockOnItsCardRunsTheEditedCode() throws Exception {
    String model = cassette("edit",
        null, "```bash\necho as-the-model-wrote-it\n```\n",
        "exit code 0.*edited-in-the-browser", "It printed edited-in-the-browser.");
    String id = server.createSession(body("message", "Edit me", "model", model, "autoRun", false));

    browser.login(server);
    browser.waitFor("the session's row to wait for approval", row(id, "awaiting_approval"));
    browser.driver.get(server.base() + "/#/session/" + id);
    WebElement card = browser.waitFor("the approval card of block 1", testId("approval-card", "block", 1));
    card.findElement(testId("edit-button")).click();
    WebElement editor = browser.waitFor("the code editor", By.cssSelector("[data-testid='approval-card'] textarea"));
    assertEquals("echo as-the-model-wrote-it", editor.getDomProperty("value").strip());
    editor.clear();
    editor.sendKeys("echo edited-in-the-browser");
    card.findElement(testId("approve-button")).click();

    browser.waitFor("block 1's output", d -> Browser.text(d.findElement(testId("block-output", "block", 1)))
        .contains("edited-in-the-browser"));
    browser.waitFor("the session to be done", By.cssSelector(".session-pill [data-status='done']"));
    WebElement block = browser.driver.findElement(By.cssSelector(".block-card[data-block='1']"));
    assertEquals("Edited & approved · by user", block.findElement(By.cssSelector(".block-state")).getText());
    assertEquals("echo edited-in-the-browser", block.findElement(By.cssSelector(".block-code")).getText().strip(),
        "the block shows the code that ran");
    JsonNode approval = events(id).stream().filter(e -> e.path("type").asText().equals("approval")).findFirst()
        .orElseThrow();
    assertEquals("edited", approval.path("decision").asText());
    assertEquals("echo edited-in-the-browser", approval.path("code").asText());
  }

  @Test
  void aBatchShowsItsProgressAndTasksLinkedToTheirSessions() throws Exception {
    String model = cassette("batch-task", null, "Task done.");
    String session = server.createSession(body("message", "Task one", "model", model, "autoRun", true));
    ObjectNode progress = EventCodec.mapper().createObjectNode();
    progress.put("total", 3).put("finished", 1).put("running", 1).put("queued", 1).put("rate_per_min", 2.5)
        .put("eta_ms", 60_000);
    progress.putObject("counts").put("done", 1).put("failed", 0);
    server.handle.hub().batches().progress("b-20261202", "nightly-checks", progress);
    server.handle.hub().batches().task("b-20261202", "task-one", "done", session, null);
    server.handle.hub().batches().task("b-20261202", "task-two", "running", null, null);
    server.handle.hub().batches().task("b-20261202", "task-three", "failed", null, "model unreachable");

    browser.login(server);
    WebElement batch = browser.waitFor("the batch card", testId("batch", "batch-id", "b-20261202"));
    browser.waitFor("its progress", d -> batch.getText().contains("nightly-checks")
        && batch.getText().contains("1/3 (33%) · running 1 · queued 1 · 2.5/min · ETA"));
    assertTrue(batch.getText().contains("done 1"), batch.getText());
    assertTrue(batch.getText().contains("model unreachable"), batch.getText());
    assertEquals("33%", browser.js("return arguments[0].style.width",
        batch.findElement(By.cssSelector(".batch-bar-fill"))), "the bar is a third full");
    assertEquals(3, batch.findElements(By.cssSelector(".batch-task")).size());

    batch.findElement(By.cssSelector("a.batch-task[data-status='done']")).click();
    browser.waitFor("the task's session page", d -> d.getCurrentUrl().endsWith("#/session/" + session));
    browser.waitFor("its transcript", d -> d.findElement(By.tagName("body")).getText().contains("Task done."));
  }

  @Test
  void stoppingASessionFromItsPageEndsItAndItsStream() throws Exception {
    String model = cassette("stop", null, "```bash\necho never-runs\n```\n");
    String id = server.createSession(body("message", "Stop me", "model", model, "autoRun", false));

    browser.login(server);
    browser.waitFor("the session's row to wait for approval", row(id, "awaiting_approval"));
    browser.driver.get(server.base() + "/#/session/" + id);
    browser.waitFor("the approval card of block 1", testId("approval-card", "block", 1));

    browser.waitFor("the stop button", testId("stop-button")).click();
    browser.waitFor("the confirmation", By.cssSelector("dialog[open] button[type='submit']")).click();

    browser.waitFor("the session to be interrupted and stopped", d -> {
      WebElement pill = d.findElement(By.cssSelector(".session-pill [data-status]"));
      return pill.getDomAttribute("data-status").equals("interrupted") && pill.getText().contains("stopped");
    });
    browser.waitGone("the approval card to go", testId("approval-card"));
    browser.waitFor("the stop button to go", d -> !d.findElement(testId("stop-button")).isDisplayed());
    browser.waitFor("the composer to be disabled", d -> !d.findElement(testId("message-input")).isEnabled());
    assertEquals("Not run", browser.driver.findElement(By.cssSelector(".block-card[data-block='1'] .block-state"))
        .getText());
    // The stream ended with `event: end`: the page closed it instead of reconnecting.
    browser.waitFor("no reconnecting indicator", d -> !d.findElement(By.id("conn")).isDisplayed());

    browser.driver.findElement(By.cssSelector("a.back")).click();
    WebElement stopped = browser.waitFor("the session's row to show it stopped", row(id, "interrupted"));
    browser.waitFor("the row to say stopped", d -> stopped.getText().contains("stopped"));
    assertTrue(json(server.get("/api/sessions/" + id)).path("session").path("stopped").asBoolean());
  }

  @Test
  void denyingABlockWithAReasonTellsTheModelTheReason() throws Exception {
    String reason = "not on this machine, please";
    // The second turn only plays when the model is told the reason; off script, the turn would fail.
    String model = cassette("deny",
        null, "I'll write the deploy marker.\n\n```bash\ntouch deploy-marker && echo deployed\n```\n",
        "declined to run block 1.*Reason: not on this machine, please", "Understood: I did not deploy.");
    String id = server.createSession(body("message", "Deploy it", "model", model, "autoRun", false));

    browser.login(server);
    browser.waitFor("the session's row to wait for approval",
        row(id, "awaiting_approval"));
    // A direct link to the session page works as well as a click in the table.
    browser.driver.get(server.base() + "/#/session/" + id);
    WebElement card = browser.waitFor("the approval card of block 1", testId("approval-card", "block", 1));
    assertTrue(Browser.text(card).contains("touch deploy-marker && echo deployed"), Browser.text(card));

    card.findElement(testId("deny-button")).click();
    WebElement input = browser.waitFor("the deny dialog", By.cssSelector("dialog[open] textarea"));
    input.sendKeys(reason);
    browser.driver.findElement(By.cssSelector("dialog[open] button[type='submit']")).click();

    browser.waitGone("the approval card to go", testId("approval-card"));
    browser.waitFor("block 1 to show it was denied",
        d -> d.findElement(By.cssSelector(".block-card[data-block='1'] .block-state")).getText()
            .equals("Denied · by user"));
    WebElement note = browser.waitFor("the reason under block 1", By.cssSelector(".block-card[data-block='1'] .block-note"));
    assertEquals("Reason: " + reason, note.getText());
    browser.waitFor("the session to be done", By.cssSelector(".session-pill [data-status='done']"));
    browser.waitFor("the model's answer to the denial", d -> Browser.text(d.findElement(testId("transcript")))
        .contains("Understood: I did not deploy."));
    assertTrue(browser.driver.findElements(testId("exit-badge", "block", 1)).isEmpty(), "a denied block never runs");

    List<JsonNode> events = events(id);
    JsonNode approval = events.stream().filter(e -> e.path("type").asText().equals("approval")).findFirst()
        .orElseThrow();
    assertEquals("denied", approval.path("decision").asText());
    assertEquals("user", approval.path("by").asText());
    assertEquals(reason, approval.path("reason").asText());
    assertTrue(events.stream().noneMatch(e -> e.path("type").asText().equals("exec_started")));
    JsonNode finished = events.get(events.size() - 1);
    assertEquals("turn_finished", finished.path("type").asText());
    assertEquals("done", finished.path("status").asText(), "the model got the reason: " + finished);
  }

  @Test
  void anImageABlockShowsIsInItsOutputWhereItWasProducedAndEnlargesOnAClick() throws Exception {
    String block = "print('before')\n" + ImageApiTest.BLOCK + "print('after')\n";
    String model = cassette("image", null, "A red picture:\n\n```python\n" + block + "```\n",
        "\\[image 3x2 PNG: ", "It is **3x2** pixels.");
    String id = server.createSession(body("message", "Show me a red picture", "model", model, "autoRun", true));

    browser.login(server);
    browser.driver.get(server.base() + "/#/session/" + id);
    WebElement image = browser.waitFor("block 1's image", testId("block-image"));
    browser.waitFor("the image to load through the API with the browser's cookie",
        d -> ((Number) browser.js("return arguments[0].complete ? arguments[0].naturalWidth : 0", image))
            .intValue() == 3);
    assertEquals("/api/sessions/" + id + "/images/1", image.getDomAttribute("src"));
    assertEquals("image 3x2 · display", image.getDomAttribute("alt"));
    browser.waitFor("the model's answer", d -> Browser.text(d.findElement(testId("transcript")))
        .contains("It is 3x2 pixels."));
    // in place: after the text printed before display() and before the text printed after it
    WebElement output = browser.driver.findElement(testId("block-output", "block", 1));
    assertEquals("before|IMAGE|after", browser.js("return [...arguments[0].childNodes].map(n => "
        + "n.tagName === 'FIGURE' ? 'IMAGE' : n.textContent.trim()).filter(t => t).join('|')", output));

    image.click();
    WebElement dialog = browser.waitFor("the enlarged image", testId("image-dialog"));
    assertEquals("/api/sessions/" + id + "/images/1",
        dialog.findElement(org.openqa.selenium.By.tagName("img")).getDomAttribute("src"));
    dialog.click();
    browser.waitGone("the enlarged image to close", testId("image-dialog"));
  }

  @Test
  void htmlABlockShowsIsInASandboxedFrameThePageCannotReachInto() throws Exception {
    String block = "print('before')\n" + HtmlApiTest.BLOCK + "print('after')\n";
    String model = cassette("html", null, "The rain:\n\n```python\n" + block + "```\n",
        "Lyon\\s+12 mm", "Lyon had **12 mm**.");
    String id = server.createSession(body("message", "Show me the rain", "model", model, "autoRun", true));

    browser.login(server);
    browser.driver.get(server.base() + "/#/session/" + id);
    WebElement frame = browser.waitFor("block 1's HTML frame", testId("block-html"));
    assertEquals("/api/sessions/" + id + "/html/1", frame.getDomAttribute("src"));
    assertEquals("", frame.getDomAttribute("sandbox"), "sandboxed, with no allowance (no scripts, no same origin)");
    browser.waitFor("the model's answer", d -> Browser.text(d.findElement(testId("transcript")))
        .contains("Lyon had 12 mm."));
    WebElement output = browser.driver.findElement(testId("block-output", "block", 1));
    // in place: after its text (printed for the model) and before what the block printed after display()
    String order = (String) browser.js("return [...arguments[0].childNodes].map(n => "
        + "n.tagName === 'FIGURE' ? 'HTML' : n.textContent.trim()).filter(t => t).join('|')", output);
    assertTrue(order.matches("before\\s+city\\s+rain\\s+Lyon\\s+12 mm\\|HTML\\|after"), order);
    // an opaque origin: the dashboard's script cannot read the frame's document (nor could the frame read the page's)
    assertEquals(Boolean.TRUE, browser.js("return arguments[0].contentDocument === null", frame));

    browser.driver.switchTo().frame(frame);
    try {
      WebElement cell = browser.waitFor("the table, loaded through the API with the browser's cookie",
          By.xpath("//td[text()='Lyon']"));
      assertEquals("rgba(255, 0, 0, 1)", cell.getCssValue("color"), "its inline style applies");
    } finally {
      browser.driver.switchTo().defaultContent();
    }
  }
}
