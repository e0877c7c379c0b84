package io.interpreter4j.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.server.Browser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard in cluster mode, in headless Chromium (i4j-server's {@link Browser}) against two {@code i4j serve}
 * nodes with a private PostgreSQL journal: node 0's dashboard lists the sessions of both nodes with the node each
 * runs on, follows another node's sessions live through the merged feed ({@code GET /api/events}), and shows a batch
 * submitted to node 1 with its tasks, each linked to its session and naming its node. Skipped with the reason when
 * Chromium, chromedriver or PostgreSQL is missing.
 */
class ClusterDashboardBrowserTest {
  @TempDir Path tmp;
  private ClusterHarness cluster;
  private Browser browser;

  @AfterEach
  void stopAll() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void nodeZerosDashboardShowsBothNodesSessionsLiveAndAClusterBatchsTasks() throws Exception {
    Browser.assumeInstalled();
    cluster = ClusterHarness.start(tmp, "i4j_dashboard", 2, null);
    Api api = cluster.api;
    ServeNode zero = cluster.node(0);
    ServeNode one = cluster.node(1);
    Path hello = Files.writeString(cluster.work.resolve("hello.json"), "{\"turns\": [{\"reply\": \"Hello from a "
        + "node.\", \"chunk_chars\": 4, \"delay_ms\": 5}]}");
    Files.writeString(cluster.work.resolve("bash.json"), cassette("echo $((6 * 7))"));
    String onZero = cluster.create(zero, hello, "made on node zero");
    String onOne = cluster.create(one, hello, "made on node one");

    browser = new Browser(tmp.resolve("chromium"), 1400, 900);
    browser.login(zero.url, ClusterHarness.TOKEN);
    assertNode(row(onZero), 0);
    assertNode(row(onOne), 1);
    browser.waitFor("the Node column's head", By.cssSelector("th.col-node"));

    // a session made on node 1 now: listed on node 0's page as it is, without a reload
    browser.js("window.i4jNotReloaded = true");
    String waiting = api.json("POST", one.url + "/api/sessions", "{\"message\": \"waits for approval on node one\", "
        + "\"model\": \"replay:" + cluster.work.resolve("bash.json") + "\", \"autoRun\": false}", 201).path("id")
        .asText();
    WebElement waitingRow = browser.waitFor("node 1's new session waiting for approval", By.cssSelector(
        "[data-testid='session-row'][data-session-id='" + waiting + "'][data-status='awaiting_approval']"));
    assertNode(waitingRow, 1);
    assertEquals(Boolean.TRUE, browser.js("return window.i4jNotReloaded === true"), "the page was not reloaded");

    // the list is no longer fetched (its requests are held): what changes the row now can only come from the live
    // feed, which merges node 1's events into node 0's GET /api/events
    browser.js("window.i4jFetch = window.fetch; window.i4jHeld = [];"
        + "window.fetch = (url, init) => /^\\/api\\/(sessions|summary)$/.test(String(url))"
        + " ? new Promise((ok, failed) => window.i4jHeld.push(() => window.i4jFetch(url, init).then(ok, failed)))"
        + " : window.i4jFetch(url, init)");
    // once the page's next refresh is held, no list answered before can still arrive (one refresh at a time)
    browser.waitFor("the page's next list request", d -> ((Number) browser.js("return window.i4jHeld.length"))
        .intValue() > 0);
    api.json("POST", one.url + "/api/sessions/" + waiting + "/blocks/1/approval", "{\"decision\": \"approve\"}",
        200);
    browser.waitFor("the approved session's turn to end done, from the feed", By.cssSelector(
        "[data-testid='session-row'][data-session-id='" + waiting + "'][data-status='done']"));
    browser.js("window.fetch = window.i4jFetch; window.i4jHeld.forEach((send) => send())");

    // a batch submitted to node 1: node 0's batch view shows it with its tasks, as a local batch's
    StringBuilder file = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      file.append("{\"id\": \"task-").append(i).append("\", \"prompt\": \"What is six times seven?\", \"cassette\": "
          + "\"bash.json\"}\n");
    }
    String batch = api.json("POST", one.url + "/api/batches?name=dashboard-batch&parallel=2&yes=true&base_dir="
        + cluster.work, file.toString(), 201).path("id").asText();
    WebElement card = browser.waitFor("the batch's card with its four tasks done", d -> {
      List<WebElement> cards = d.findElements(By.cssSelector("[data-testid='batch'][data-batch-id='" + batch
          + "']"));
      return !cards.isEmpty() && cards.get(0).findElements(By.cssSelector("a.batch-task[data-status='done']"))
          .size() == 4 ? cards.get(0) : null;
    });
    assertTrue(Browser.text(card).contains("dashboard-batch"), Browser.text(card));
    assertTrue(Browser.text(card).contains("4/4 (100%)"), Browser.text(card));
    Map<String, String> sessions = new HashMap<>();
    for (String line : api.send("GET", zero.url + "/api/batches/" + batch + "/results", null).body().lines()
        .toList()) {
      JsonNode r = EventCodec.mapper().readTree(line);
      sessions.put(r.path("id").asText(), r.path("session").asText());
    }
    assertEquals(4, sessions.size(), sessions.toString());
    List<String> nodes = List.of(cluster.address(0), cluster.address(1));
    for (WebElement task : card.findElements(By.cssSelector("a.batch-task"))) {
      String id = task.findElement(By.cssSelector(".batch-task-id")).getText();
      assertTrue(task.getDomProperty("href").endsWith("#/session/" + sessions.get(id)), id + ": " + task
          .getDomProperty("href") + ", results " + sessions);
      String node = task.getDomAttribute("data-node");
      assertTrue(nodes.contains(node), id + " ran on " + node);
      assertEquals(node.substring(node.indexOf('@') + 1), task.findElement(By.cssSelector(".batch-task-node"))
          .getText());
    }

    // a task's link opens its session, wherever it ran
    WebElement first = card.findElement(By.cssSelector("a.batch-task"));
    String session = sessions.get(first.findElement(By.cssSelector(".batch-task-id")).getText());
    first.click();
    browser.waitFor("the task's session page", d -> d.getCurrentUrl().endsWith("#/session/" + session));
    browser.waitFor("its transcript", d -> d.findElement(By.tagName("body")).getText()
        .contains("Six times seven is 42."));
    assertTrue(browser.consoleErrors().isEmpty(), "the dashboard logged errors: " + browser.consoleErrors());
  }

  private WebElement row(String session) {
    return browser.waitFor("session " + session + "'s row", By.cssSelector("[data-testid='session-row']"
        + "[data-session-id='" + session + "']"));
  }

  /** The row's Node cell names node {@code i}: its address without the system's name, the whole in its title. */
  private void assertNode(WebElement row, int i) {
    WebElement cell = row.findElement(By.cssSelector("[data-testid='session-node']"));
    browser.waitFor("the Node column of " + row.getDomAttribute("data-session-id"), d -> cell.isDisplayed());
    String address = cluster.address(i);
    assertEquals(address.substring(address.indexOf('@') + 1), cell.getText());
    assertEquals(address, cell.getDomAttribute("title"));
  }

  /** A replay cassette: a Bash block, then the answer once it ran. */
  private static String cassette(String code) {
    return "{\"turns\": ["
        + "{\"reply\": \"Working it out.\\n\\n```bash\\n" + code + "\\n```\\n\", \"chunk_chars\": 4, \"delay_ms\": 5},"
        + "{\"reply\": \"Six times seven is 42.\", \"chunk_chars\": 4, \"delay_ms\": 5}]}";
  }
}
