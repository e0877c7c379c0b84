package io.interpreter4j.server;

import static io.interpreter4j.server.DashboardBrowserTest.testId;
import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard agrees with itself, in headless Chromium against a real server: the header's "N active" and the
 * Active filter count the same sessions, a session with no turn says so, a failed model call is told once, and a
 * denial's reason stands apart from what follows it.
 */
class DashboardConsistencyTest extends DashboardPage {

  /** A cassette of (expect, reply) pairs, expect null for any message; returns its model spec. */
  private static String cassette(String name, String... expectsAndReplies) {
    return server.expectingCassette(name, 16, 0, expectsAndReplies);
  }

  /** Writes a session's journal as the terminal leaves it, for the server to list (SessionHub.restore). */
  private static void journal(String id, EventPayload... payloads) throws Exception {
    Path dir = Files.createDirectories(server.dataDir.resolve("sessions").resolve(id));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < payloads.length; i++) {
      lines.append(EventCodec.toJson(new Event(id, i + 1, Instant.parse("2026-12-02T10:00:00Z").plusSeconds(i),
          payloads[i]))).append('\n');
    }
    Files.writeString(dir.resolve("events.jsonl"), lines);
  }

  private static By row(String id) {
    return By.cssSelector("[data-testid='session-row'][data-session-id='" + id + "']");
  }

  private static int chipCount(String filter) {
    String text = browser.driver.findElement(By.cssSelector(".chip[data-filter='" + filter + "'] .chip-count")).getText();
    return Integer.parseInt(text.strip());
  }

  private static List<JsonNode> events(String id) throws Exception {
    List<JsonNode> out = new java.util.ArrayList<>();
    json(server.get("/api/sessions/" + id + "?limit=5000")).path("events").forEach(out::add);
    return out;
  }

  @Test
  void sessionsWithoutTurnsAreLabelledAndTheHeaderAndFiltersCountActiveAlike() throws Exception {
    String empty = "20261202-100000-e0e0e0";
    String resumed = "20261202-100100-e1e1e1";
    journal(empty, new EventPayload.SessionStarted("replay:x", "/tmp"));
    journal(resumed, new EventPayload.SessionStarted("replay:x", "/tmp"),
        new EventPayload.Conversation("resume", "20261201-090000-abcdef", List.of(
            new EventPayload.Message("user", "How much disk is free?"), new EventPayload.Message("assistant", "5 GB"))));
    assertEquals(2, server.handle.hub().restore(server.dataDir, 100));
    // One session at work: a turn running, waiting for approval.
    String model = cassette("waits", null, "```bash\necho waiting\n```\n");
    String working = server.createSession(body("message", "Wait for me", "model", model, "autoRun", false));

    browser.login(server);
    browser.waitFor("the working session to wait for approval",
        By.cssSelector("[data-testid='session-row'][data-session-id='" + working + "'][data-status='awaiting_approval']"));
    WebElement emptyRow = browser.waitFor("the empty session's row", row(empty));
    WebElement resumedRow = browser.waitFor("the resumed session's row", row(resumed));

    assertEquals("(no messages)", emptyRow.findElement(By.cssSelector("a.row-title")).getText());
    assertEquals("Empty", emptyRow.findElement(By.cssSelector(".pill")).getText());
    assertTrue(emptyRow.getText().contains("stopped"), emptyRow.getText());
    assertEquals("How much disk is free?", resumedRow.findElement(By.cssSelector("a.row-title")).getText(),
        "titled as i4j sessions titles it");
    assertEquals("Empty", resumedRow.findElement(By.cssSelector(".pill")).getText());
    assertTrue(resumedRow.getText().contains("resumed from 20261201-090000-abcdef"), resumedRow.getText());

    browser.waitFor("the header's counts", d -> !d.findElement(By.id("count-active")).getText().startsWith("–"));
    String header = browser.driver.findElement(By.id("count-active")).getText();
    int active = chipCount("active");
    assertEquals(active + " active", header, "the header and the Active filter count the same sessions");
    assertTrue(active >= 1, "the working session is active");
    assertEquals(chipCount("all"), active + chipCount("finished") + chipCount("failed"),
        "Active, Finished and Failed split All");

    browser.driver.findElement(By.cssSelector(".chip[data-filter='active']")).click();
    browser.waitGone("the empty sessions to leave the Active list", row(empty));
    assertTrue(browser.driver.findElements(row(resumed)).isEmpty());
    assertFalse(browser.driver.findElements(row(working)).isEmpty());
    browser.driver.findElement(By.cssSelector(".chip[data-filter='finished']")).click();
    browser.waitFor("the empty sessions under Finished", row(empty));
    browser.driver.findElement(By.cssSelector(".chip[data-filter='all']")).click();

    int stopped = server.delete("/api/sessions/" + working).statusCode();
    assertTrue(stopped / 100 == 2, "the working session is stopped: " + stopped);
  }

  @Test
  void aSingleMachineListsNoNodeColumn() throws Exception {
    String model = cassette("one-machine", null, "Hello.");
    String id = server.createSession(body("message", "Which node?", "model", model, "autoRun", true));

    browser.login(server);
    WebElement r = browser.waitFor("the session's row", row(id));
    // the column is there for cluster mode, where GET /api/sessions gives each session's node; not here
    assertFalse(browser.driver.findElement(By.cssSelector("[data-testid='sessions-table'] th.col-node")).isDisplayed(),
        "a single machine shows no Node column");
    assertFalse(r.findElement(By.cssSelector("[data-testid='session-node']")).isDisplayed());
    assertEquals(7, r.findElements(By.cssSelector("td")).stream().filter(WebElement::isDisplayed).count(),
        "the row keeps its seven columns: " + r.getText());
  }

  @Test
  void aFailedModelCallIsToldOnceAndTheTurnsEndIsMarked() throws Exception {
    String model = cassette("off-script", "something this message never says", "never sent");
    String id = server.createSession(body("message", "Hello there", "model", model, "autoRun", true));

    browser.login(server);
    browser.driver.get(server.base() + "/#/session/" + id);
    WebElement end = browser.waitFor("the turn's end", By.cssSelector("[data-testid='transcript'] .turn-end[data-status='failed']"));
    JsonNode finished = events(id).stream().filter(e -> e.path("type").asText().equals("turn_finished"))
        .findFirst().orElseThrow();
    String reason = finished.path("reason").asText();
    assertTrue(reason.contains("cassette mismatch"), reason);
    // The runtime publishes the failure as an error event and as the turn's reason; the page tells it once.
    boolean errorEvent = events(id).stream().anyMatch(e -> e.path("type").asText().equals("error")
        && e.path("message").asText().contains(reason));

    String transcript = Browser.text(browser.driver.findElement(testId("transcript")));
    assertEquals(1, transcript.split(java.util.regex.Pattern.quote(reason), -1).length - 1,
        "the failure is told once: " + transcript);
    assertTrue(end.getText().startsWith("Turn finished · Failed"), end.getText());
    if (errorEvent) {
      assertTrue(Browser.text(browser.driver.findElement(By.cssSelector(".notice-error"))).contains(reason));
      assertTrue(end.findElements(By.cssSelector(".turn-end-reason")).isEmpty(), "the end is marked briefly: "
          + end.getText());
    }
  }

  @Test
  void aDenialsReasonStandsApartFromWhatFollows() throws Exception {
    String model = cassette("deny",
        null, "I'll deploy.\n\n```bash\necho deployed\n```\n",
        "(?s).*not on prod.*", "Understood, not deploying.");
    String id = server.createSession(body("message", "Deploy", "model", model, "autoRun", false));

    browser.login(server);
    browser.driver.get(server.base() + "/#/session/" + id);
    WebElement card = browser.waitFor("the approval card of block 1", testId("approval-card", "block", 1));
    card.findElement(testId("deny-button")).click();
    browser.waitFor("the deny dialog", By.cssSelector("dialog[open] textarea")).sendKeys("not on prod");
    browser.driver.findElement(By.cssSelector("dialog[open] button[type='submit']")).click();
    browser.waitFor("the model's answer", d -> Browser.text(d.findElement(testId("transcript")))
        .contains("Understood, not deploying."));

    WebElement reason = browser.waitFor("the reason, in its own element",
        By.cssSelector(".block-card[data-block='1'] [data-testid='deny-reason']"));
    assertEquals("not on prod", reason.getText());
    WebElement note = reason.findElement(By.xpath(".."));
    assertEquals("Reason: not on prod", note.getText());
    assertEquals("block", browser.js("return getComputedStyle(arguments[0]).display", note), "a line of its own");
    assertEquals("\"\u201C\"", browser.js("return getComputedStyle(arguments[0], '::before').content", reason));
    assertEquals("\"\u201D\"", browser.js("return getComputedStyle(arguments[0], '::after').content", reason),
        "the reason is quoted: it ends before the next sentence begins");
    String card1 = String.valueOf(browser.js("return arguments[0].innerText",
        browser.driver.findElement(By.cssSelector(".block-card[data-block='1']"))));
    assertTrue(card1.strip().endsWith("not on prod"), "nothing runs on after the reason: " + card1);
    assertEquals("denied", events(id).stream().filter(e -> e.path("type").asText().equals("approval"))
        .map(e -> e.path("decision").asText()).collect(Collectors.joining()));
  }
}
