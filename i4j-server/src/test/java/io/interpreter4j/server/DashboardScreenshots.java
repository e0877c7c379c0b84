package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.body;
import static io.interpreter4j.server.TestServer.json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The dashboard screenshots of the docs ({@code docs/dashboard.png}, {@code docs/dashboard-session.png}): sessions
 * in every state against a real server, shot in headless Chromium; and {@code docs/dashboard-plot.png}, a replayed
 * session whose python block draws a matplotlib chart. Runs only when asked, with a python3 that has matplotlib
 * first on the PATH (Debian's, with python3-matplotlib):
 *
 * <pre>
 * PATH=/usr/bin:$PATH MPLCONFIGDIR=$(mktemp -d) ./mvnw -q -B -pl i4j-server -am test -Dtest=DashboardScreenshots \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Di4j.screenshots=$PWD/docs
 * </pre>
 */
@EnabledIfSystemProperty(named = "i4j.screenshots", matches = ".+")
class DashboardScreenshots {
  private static final int WIDTH = 1400;
  private static final int HEIGHT = 900;

  @TempDir static Path tmp;
  private static TestServer server;
  private static Browser browser;

  @BeforeAll
  static void start() throws Exception {
    Browser.assumeInstalled();
    server = new TestServer(tmp.resolve("server"));
    browser = new Browser(tmp.resolve("chromium"), WIDTH, HEIGHT);
    // headless Chromium's window is a little taller than its viewport: make the viewport WIDTH x HEIGHT
    long innerW = (Long) browser.js("return window.innerWidth");
    long innerH = (Long) browser.js("return window.innerHeight");
    var size = browser.driver.manage().window().getSize();
    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(
        size.getWidth() + (int) (WIDTH - innerW), size.getHeight() + (int) (HEIGHT - innerH)));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static String cassette(String name, int chunkChars, long delayMs, String... expectsAndReplies) {
    return server.expectingCassette(name, chunkChars, delayMs, expectsAndReplies);
  }

  private static String cassette(String name, String... expectsAndReplies) {
    return cassette(name, 24, 0, expectsAndReplies);
  }

  private static By row(String id, String status) {
    return By.cssSelector("[data-testid='session-row'][data-session-id='" + id + "'][data-status='" + status + "']");
  }

  /** A project folder with some build output in it, for the disk-space session. */
  private static Path project() throws Exception {
    Path p = Files.createDirectories(tmp.resolve("webshop"));
    Random random = new Random(42);
    for (String[] f : new String[][] {{"target/webshop-1.4.2.jar", "3800"}, {"target/classes/App.class", "900"},
        {"node_modules/.cache/bundle.bin", "12600"}, {"dist/app.js", "1400"}, {"src/main/App.java", "24"},
        {"logs/server.log", "5200"}}) {
      Path file = p.resolve(f[0]);
      Files.createDirectories(file.getParent());
      byte[] bytes = new byte[Integer.parseInt(f[1]) * 1024];
      random.nextBytes(bytes);
      Files.write(file, bytes);
    }
    return p;
  }

  @Test
  void shootTheDashboard() throws Exception {
    Path out = Path.of(System.getProperty("i4j.screenshots"));
    Path project = project();

    String mean = server.createSession(body("message", "What is the mean of 3, 5, 8 and 13?", "autoRun", true,
        "model", cassette("mean",
            null, "I'll compute it with Python's statistics module.\n\n```python\nimport statistics\n"
                + "print(statistics.mean([3, 5, 8, 13]))\n```\n",
            "exit code 0", "The mean of 3, 5, 8 and 13 is **7.25**.")));
    String parse = server.createSession(body("message", "Parse config.toml and list its sections", "autoRun", true,
        "maxIterations", 2, "model", cassette("parse",
            null, "```python\nimport tomllib\nwith open('config.toml', 'rb') as f:\n    print(list(tomllib.load(f)))\n```\n",
            "exit code 1", "The file is not here; let me search for it.\n\n```bash\nls config*.toml\n```\n")));
    String docker = server.createSession(body("message", "Clean up old Docker images", "model", cassette("docker",
        null, "This removes every image no container uses.\n\n```bash\ndocker image prune -af\n```\n")));
    String report = server.createSession(body("message", "Summarise last week's sales from sales.csv",
        "model", cassette("report", 4, 120, null,
            "I'll load `sales.csv` with pandas, group the rows by week and region, and plot the totals so the "
                + "trend is easy to see. First a look at the columns and the first rows, to be sure of the "
                + "date format and of which column holds the amounts; then the weekly totals per region, the "
                + "week-over-week change, and a short summary of what stands out.")));
    String bench = server.createSession(body("message", "Time the test suite three times", "autoRun", true,
        "model", cassette("bench",
            null, "I'll run it three times and keep the wall-clock times.\n\n```bash\nfor i in 1 2 3; do\n"
                + "  echo \"run $i: started $(date +%T)\"\n  sleep 40\ndone\n```\n")));
    String disk = server.createSession(body("message", "Free up some disk space in this project", "workdir",
        project.toString(), "model", cassette("disk",
            null, "Let me see what takes the space first.\n\n```bash\ndu -sh */ .[!.]*/ 2>/dev/null | sort -rh\n```\n",
            "exit code 0", "Most of it is build output and caches: `node_modules/.cache`, `logs` and `target`. "
                + "`git clean` removes everything Git does not track (build output, caches, logs); I keep "
                + "`.env`, which holds your local settings.\n\n```bash\ngit clean -fdx -e .env\n```\n",
            "exit code 0", "Done.")));

    browser.login(server);
    browser.waitFor("the mean session to be done", row(mean, "done"));
    browser.waitFor("the parse session to give up", row(parse, "gave_up"));
    browser.waitFor("the docker session to wait", row(docker, "awaiting_approval"));
    server.delete("/api/sessions/" + docker);
    browser.waitFor("the docker session to be interrupted", row(docker, "interrupted"));
    browser.waitFor("the bench session to run its block", row(bench, "executing"));
    browser.waitFor("the report session to stream", row(report, "streaming"));
    browser.waitFor("the disk session to wait", row(disk, "awaiting_approval"));
    server.post("/api/sessions/" + disk + "/blocks/1/approval", body("decision", "approve"));
    browser.waitFor("the disk session to wait for block 2", d -> {
      try {
        return json(server.get("/api/sessions/" + disk)).path("session").path("pendingApproval").path("block")
            .asInt() == 2;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    browser.waitFor("the disk session's row to wait for block 2",
        d -> d.findElement(By.cssSelector("[data-session-id='" + disk + "'] .row-sub")).getText().contains("#2"));
    browser.js("document.activeElement && document.activeElement.blur()");
    browser.screenshot(out.resolve("dashboard.png"));

    browser.driver.findElement(By.cssSelector("[data-session-id='" + disk + "'] a.row-title")).click();
    browser.waitFor("the approval card of block 2", DashboardBrowserTest.testId("approval-card", "block", 2));
    browser.waitFor("block 1's exit badge", DashboardBrowserTest.testId("exit-badge", "block", 1));
    // show block 1 whole, just below the session's header
    browser.js("const top = document.querySelector('.block-card[data-block=\"1\"]').getBoundingClientRect().top;"
        + "const head = document.querySelector('.session-head').getBoundingClientRect().bottom;"
        + "window.scrollBy(0, top - head - 16);");
    browser.screenshot(out.resolve("dashboard-session.png"));

    // For a look at the other states (not in the docs): every session's page, and a denied block.
    String denied = server.createSession(body("message", "Deploy it", "model", cassette("denied",
        null, "```bash\ntouch deploy-marker && echo deployed\n```\n", null, "Understood: I did not deploy.")));
    browser.driver.findElement(By.cssSelector("a.back")).click();
    browser.waitFor("the denied session's row", row(denied, "awaiting_approval"));
    server.post("/api/sessions/" + denied + "/blocks/1/approval", body("decision", "deny", "reason", "not today"));
    browser.waitFor("the denied session's row to be done", row(denied, "done"));
    String[][] pages = {{mean, "done"}, {parse, "gave_up"}, {docker, "interrupted"}, {bench, "executing"},
        {report, "streaming"}, {denied, "denied"}};
    for (String[] page : pages) {
      browser.driver.get(server.base() + "/#/session/" + page[0]);
      browser.waitFor("the session page of " + page[1], By.cssSelector(".session-pill .pill"));
      browser.waitFor("the transcript of " + page[1], d -> Browser.text(d.findElement(By.cssSelector(
          "[data-testid='transcript']"))).contains("MODEL") || !d.findElements(By.cssSelector(".msg-assistant")).isEmpty());
      browser.screenshot(Browser.ARTIFACTS.resolve("review-" + page[1] + ".png"));
    }
  }

  /** Rainfall per month for the plot session (made-up figures: October the wettest, 840 mm in all). */
  private static final String RAIN_CSV = """
      month,mm
      Jan,47
      Feb,44
      Mar,50
      Apr,75
      May,90
      Jun,75
      Jul,63
      Aug,62
      Sep,91
      Oct,100
      Nov,88
      Dec,55
      """;

  @Test
  void shootAPlot() throws Exception {
    Process probe = new ProcessBuilder("python3", "-c", "import matplotlib").redirectErrorStream(true).start();
    probe.getInputStream().readAllBytes();
    org.junit.jupiter.api.Assumptions.assumeTrue(probe.waitFor() == 0,
        "the python3 on the PATH has no matplotlib: run with PATH=/usr/bin:$PATH (Debian's python3-matplotlib)");
    Path out = Path.of(System.getProperty("i4j.screenshots"));
    Path folder = Files.createDirectories(tmp.resolve("weather"));
    Files.writeString(folder.resolve("rain.csv"), RAIN_CSV);
    String block = """
        import csv
        import matplotlib.pyplot as plt

        rows = list(csv.DictReader(open("rain.csv")))
        months = [r["month"] for r in rows]
        mm = [float(r["mm"]) for r in rows]
        fig, ax = plt.subplots(figsize=(7, 2.8))
        ax.bar(months, mm, color="#7c6cff")
        ax.set_ylabel("mm")
        ax.set_title("Rainfall per month")
        wettest = months[mm.index(max(mm))]
        print(f"wettest: {wettest} ({max(mm):.0f} mm), total {sum(mm):.0f} mm")
        """;
    String id = server.createSession(body("message", "Plot the rainfall in rain.csv by month", "autoRun", true,
        "workdir", folder.toString(), "model", cassette("plot",
            null, "I'll read `rain.csv` and draw a bar chart of the months.\n\n```python\n" + block + "```\n",
            "wettest: Oct \\(100 mm\\)[\\s\\S]*\\[image \\d+x\\d+ PNG: ",
            "October is the wettest month with **100 mm**; the year totals **840 mm**. February is the driest "
                + "(44 mm).")));
    browser.login(server);
    browser.driver.get(server.base() + "/#/session/" + id);
    org.openqa.selenium.WebElement image = browser.waitFor("the chart", DashboardBrowserTest.testId("block-image"));
    browser.waitFor("the chart to load", d -> (Boolean) browser.js(
        "return arguments[0].complete && arguments[0].naturalWidth > 0", image));
    browser.waitFor("the model's answer", d -> Browser.text(d.findElement(DashboardBrowserTest.testId("transcript")))
        .contains("the year totals 840 mm"));
    browser.waitFor("the header to count no running block", d -> d.findElement(By.id("count-active")).getText()
        .startsWith("0") && d.findElement(By.id("count-running")).getText().startsWith("0"));
    browser.waitFor("the session's head to count both model calls", d -> Browser.text(d.findElement(By.cssSelector(
        ".session-head"))).matches("(?s).*iterations\\s*2\\D.*"));
    browser.js("document.activeElement && document.activeElement.blur()");
    // the chart and the answer whole, just above the composer: the end of the code, its output, the chart, the answer
    browser.js("const answer = [...document.querySelectorAll('[data-testid=\"transcript\"] > *')].pop();"
        + "const dock = document.querySelector('.dock').getBoundingClientRect().top;"
        + "window.scrollBy(0, answer.getBoundingClientRect().bottom - dock + 16);");
    browser.screenshot(out.resolve("dashboard-plot.png"));
  }
}
