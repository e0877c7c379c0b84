package io.interpreter4j.runtime.computer.browser;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.computer.ActionGate;
import io.interpreter4j.runtime.computer.ActionOutcome;
import io.interpreter4j.runtime.computer.ComputerAction;
import io.interpreter4j.runtime.computer.ComputerCommand;
import io.interpreter4j.runtime.computer.Perform;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser actor against pages served on 127.0.0.1, with the machine's real Chromium (headless): snapshot refs,
 * typing and submitting that reach the server, refused addresses, the ask-before gate, screenshots, downloads, a
 * killed browser, and no Chromium left once the actor stops.
 */
class BrowserActorTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final Duration WAIT = Duration.ofSeconds(60);
  static final String FORM = """
      <!doctype html><html><head><title>Sign up</title></head><body>
      <h1>Sign up</h1>
      <form method="post" action="/post">
        <label>Name <input name="name"></label>
        <label>Password <input type="password" name="secret"></label>
        <label><input type="checkbox" name="news"> News</label>
        <label>Size <select name="size"><option>S</option><option>L</option></select></label>
        <button>Send</button>
      </form>
      <a href="http://blocked.test/x">Elsewhere</a>
      <img src="http://localhost:%1$d/pixel.png" alt="">
      <a href="/file">Report</a>
      <button id="steer" onclick="location.href='http://localhost:%1$d/steal'">Steer</button>
      </body></html>
      """;

  static HttpServer server;
  static int port;
  /** Every request the server saw, in order: "GET /form", "POST /post name=...". */
  static final List<String> requests = new CopyOnWriteArrayList<>();
  static final LinkedBlockingQueue<String> posted = new LinkedBlockingQueue<>();

  @TempDir Path workdir;
  ActorRef<ComputerCommand> browser;
  TestProbe<ActionOutcome> probe;
  RecordingGate gate;

  @BeforeAll
  static void serve() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", BrowserActorTest::handle);
    server.start();
    port = server.getAddress().getPort();
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
    server.stop(0);
  }

  @BeforeEach
  void chromium() {
    RequiredTool.assume(BrowserSettings.DEFAULT.chromium().isPresent(), "chromium", "apt-get install chromium");
    requests.clear();
    posted.clear();
    probe = testKit.createTestProbe();
    gate = new RecordingGate(Set.of());
  }

  @AfterEach
  void stopBrowser() {
    if (browser != null) {
      testKit.stop(browser, WAIT);
    }
  }

  @Test
  void snapshotListsTheFormsFieldsWithRefs() {
    start(BrowserSettings.DEFAULT);
    assertOk(perform("go", Map.of("url", url("/form"))));
    ActionOutcome snapshot = perform("snapshot", Map.of());
    assertTrue(snapshot.ok(), snapshot.text());
    assertTrue(snapshot.text().matches("(?s).*textbox \"Name\" \\[ref=e\\d+].*"), snapshot.text());
    assertTrue(snapshot.text().contains("heading \"Sign up\" [level=1] [ref="), snapshot.text());
    assertTrue(snapshot.text().contains("checkbox \"News\" [ref="), snapshot.text());
    assertTrue(snapshot.text().contains("button \"Send\" [ref="), snapshot.text());
    assertTrue(snapshot.text().contains("combobox \"Size\" [ref="), snapshot.text());
    assertTrue(snapshot.text().contains("- text: Name\n"), "the label's text, once: " + snapshot.text());
    assertEquals(Optional.of(url("/form")), snapshot.url());
    assertEquals(ref(snapshot.text(), "textbox \"Name\""),
        ref(perform("snapshot", Map.of()).text(), "textbox \"Name\""),
        "a ref stays the same across snapshots of the same page");
  }

  @Test
  void typingAndSubmittingReachTheServer() throws Exception {
    start(BrowserSettings.DEFAULT);
    perform("go", Map.of("url", url("/form")));
    String snapshot = perform("snapshot", Map.of()).text();
    assertOk(perform("click", Map.of("ref", ref(snapshot, "checkbox \"News\""))));
    assertOk(perform("type", Map.of("ref", ref(snapshot, "combobox \"Size\""), "text", "L")));
    ActionOutcome typed = perform("type", Map.of("ref", ref(snapshot, "textbox \"Name\""), "text", "Ada Lovelace",
        "submit", true));
    assertTrue(typed.ok(), typed.text());
    assertEquals("name=Ada Lovelace&secret=&news=on&size=L", posted.poll(30, TimeUnit.SECONDS));
    assertTrue(typed.text().contains("now at " + url("/post")), typed.text());
    assertEquals(List.of("submit"), gate.kinds());
    assertTrue(perform("text", Map.of()).text().contains("Thanks, Ada Lovelace"));
  }

  @Test
  void aLinkToABlockedDomainIsRefusedWithTheReason() {
    start(BrowserSettings.DEFAULT.withDomains(new DomainPolicy(List.of("*"), List.of("blocked.test", "localhost"))));
    perform("go", Map.of("url", url("/form")));
    String snapshot = perform("snapshot", Map.of()).text();
    ActionOutcome link = perform("click", Map.of("ref", ref(snapshot, "link \"Elsewhere\"")));
    assertFalse(link.ok());
    assertTrue(link.text().contains("blocked.test matches blocked-domains entry blocked.test"), link.text());

    // a page that steers the browser itself (script, not a link) is stopped at the request
    ActionOutcome steered = perform("click", Map.of("ref", ref(snapshot, "button \"Steer\"")));
    assertFalse(steered.ok(), steered.text());
    assertTrue(steered.text().contains("localhost matches blocked-domains entry localhost"), steered.text());
    assertEquals(Optional.of(url("/form")), steered.url());
    assertFalse(perform("go", Map.of("url", "http://localhost:" + port + "/form")).ok());
    assertOk(perform("go", Map.of("url", url("/form"))));
    assertFalse(requests.stream().anyMatch(r -> r.contains("/steal")), requests.toString());
    assertFalse(requests.stream().anyMatch(r -> r.contains("/pixel.png")), "the page's image from localhost: "
        + requests);
  }

  @Test
  void aGateThatDeniesSubmitMeansNothingIsPosted() {
    gate = new RecordingGate(Set.of("submit"));
    start(BrowserSettings.DEFAULT);
    perform("go", Map.of("url", url("/form")));
    String snapshot = perform("snapshot", Map.of()).text();
    perform("type", Map.of("ref", ref(snapshot, "textbox \"Name\""), "text", "Ada"));
    ActionOutcome click = perform("click", Map.of("ref", ref(snapshot, "button \"Send\"")));
    assertFalse(click.ok());
    assertTrue(click.text().startsWith("denied: click button \"Send\""), click.text());
    ActionOutcome enter = perform("type", Map.of("ref", ref(snapshot, "textbox \"Name\""), "text", "Ada",
        "submit", true));
    assertTrue(enter.text().startsWith("denied:"), enter.text());
    perform("click", Map.of("ref", ref(snapshot, "textbox \"Name\"")));
    ActionOutcome press = perform("press", Map.of("key", "enter"));
    assertTrue(press.text().startsWith("denied: press Enter"), press.text());
    assertEquals(List.of("submit", "submit", "submit"), gate.kinds());
    // a request the page made before now would be in the log by the time the next page is served
    assertOk(perform("go", Map.of("url", url("/form?again"))));
    assertEquals(List.of("GET /form", "GET /form?again"),
        requests.stream().filter(r -> r.contains("/form") || r.contains("/post")).toList());
  }

  @Test
  void typingIntoAPasswordFieldAsksFirst() {
    gate = new RecordingGate(Set.of("type-password"));
    start(BrowserSettings.DEFAULT);
    perform("go", Map.of("url", url("/form")));
    String snapshot = perform("snapshot", Map.of()).text();
    ActionOutcome typed = perform("type", Map.of("ref", ref(snapshot, "textbox \"Password\""), "text", "hunter2"));
    assertFalse(typed.ok());
    assertTrue(typed.text().contains("password field"), typed.text());
    assertFalse(typed.text().contains("hunter2"));
    assertTrue(perform("snapshot", Map.of()).text().contains("textbox \"Password\" [ref="
        + ref(snapshot, "textbox \"Password\"") + "]\n"), "nothing was typed");
  }

  @Test
  void viewReturnsAPng() {
    start(BrowserSettings.DEFAULT);
    perform("go", Map.of("url", url("/form")));
    ActionOutcome view = perform("view", Map.of());
    assertTrue(view.ok(), view.text());
    byte[] png = view.screenshotPng().orElseThrow();
    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
  }

  @Test
  void aBadRefIsAClearError() {
    start(BrowserSettings.DEFAULT);
    perform("go", Map.of("url", url("/form")));
    String old = ref(perform("snapshot", Map.of()).text(), "textbox \"Name\"");
    perform("go", Map.of("url", url("/form?next")));
    ActionOutcome gone = perform("click", Map.of("ref", old));
    assertFalse(gone.ok());
    assertTrue(gone.text().startsWith("no such ref " + old + ":"), gone.text());
    assertTrue(gone.text().contains("take a new snapshot()"), gone.text());
    ActionOutcome malformed = perform("type", Map.of("ref", "Name", "text", "x"));
    assertEquals("'Name' is no ref: a ref is eN, as snapshot() shows it in [ref=eN]", malformed.text());
    assertEquals("unknown browser action 'scroll': use go, snapshot, click, type, press, view, text",
        perform("scroll", Map.of()).text());
  }

  @Test
  void aDownloadAsksAndLandsInTheWorkingFolder() throws IOException {
    start(BrowserSettings.DEFAULT);
    perform("go", Map.of("url", url("/form")));
    ActionOutcome click = perform("click", Map.of("ref", ref(perform("snapshot", Map.of()).text(), "link \"Report\"")));
    assertTrue(click.text().contains("downloaded " + url("/file") + " to " + workdir.resolve("report.csv")),
        click.text());
    assertEquals("a,b\n1,2\n", Files.readString(workdir.resolve("report.csv")));
    assertEquals(List.of("download"), gate.kinds());
  }

  @Test
  void aDeniedDownloadSavesNothing() throws IOException {
    gate = new RecordingGate(Set.of("download"));
    start(BrowserSettings.DEFAULT);
    perform("go", Map.of("url", url("/form")));
    ActionOutcome click = perform("click", Map.of("ref", ref(perform("snapshot", Map.of()).text(), "link \"Report\"")));
    assertTrue(click.text().contains("download of report.csv denied"), click.text());
    try (var files = Files.list(workdir)) {
      assertEquals(List.of(), files.toList());
    }
  }

  @Test
  void aKilledBrowserIsStartedAgainAtTheNextAction() throws Exception {
    start(BrowserSettings.DEFAULT);
    assertOk(perform("go", Map.of("url", url("/form"))));
    // the browser process is the chromium whose parent is no chromium (Playwright's driver started it)
    List<ProcessHandle> mains = chromiumProcesses().stream()
        .filter(p -> p.parent().map(parent -> !isChromium(parent)).orElse(false))
        .toList();
    assertEquals(1, mains.size(), "one browser process: " + mains);
    mains.get(0).destroyForcibly();
    mains.get(0).onExit().get(30, TimeUnit.SECONDS);

    ActionOutcome again = perform("go", Map.of("url", url("/form")));
    assertTrue(again.ok(), again.text());
    assertTrue(again.text().contains("was started again"), again.text());
    assertTrue(perform("snapshot", Map.of()).text().contains("textbox \"Name\" [ref="));
  }

  @Test
  void stoppingTheActorClosesTheBrowser() {
    start(BrowserSettings.DEFAULT);
    assertOk(perform("go", Map.of("url", url("/form"))));
    List<ProcessHandle> running = chromiumProcesses();
    assertFalse(running.isEmpty(), "chromium runs while the actor does");
    List<ProcessHandle> drivers = ProcessHandle.current().children()
        .filter(p -> p.info().commandLine().map(c -> c.contains("playwright")).orElse(false)).toList();
    assertFalse(drivers.isEmpty(), "Playwright's driver runs while the actor does");
    testKit.stop(browser, WAIT);
    browser = null;
    probe.awaitAssert(WAIT, () -> {
      assertEquals(List.of(), running.stream().filter(ProcessHandle::isAlive).toList());
      assertEquals(List.of(), drivers.stream().filter(ProcessHandle::isAlive).toList());
      assertEquals(List.of(), chromiumProcesses(), "no chromium left under this JVM");
      return null;
    });
  }

  @Test
  void actionsBeyondTheQueueAreRefusedAsBusy() {
    BrowserSettings one = new BrowserSettings("", false, DomainPolicy.OPEN, 1280, 800, Duration.ofSeconds(10),
        Duration.ofSeconds(30), 20_000, 1);
    start(one);
    TestProbe<ActionOutcome> first = testKit.createTestProbe();
    TestProbe<ActionOutcome> second = testKit.createTestProbe();
    TestProbe<ActionOutcome> third = testKit.createTestProbe();
    // the first starts the browser, which takes far longer than the actor needs to take in the other two
    browser.tell(new Perform(new ComputerAction(1, "browser", "go", Map.of("url", url("/form"))), gate,
        first.getRef()));
    browser.tell(new Perform(new ComputerAction(1, "browser", "text", Map.of()), gate, second.getRef()));
    browser.tell(new Perform(new ComputerAction(1, "browser", "text", Map.of()), gate, third.getRef()));
    assertEquals("the browser is busy: 1 actions wait already; call it again when they are done",
        third.expectMessageClass(ActionOutcome.class, WAIT).text());
    assertOk(first.expectMessageClass(ActionOutcome.class, WAIT));
    assertTrue(second.expectMessageClass(ActionOutcome.class, WAIT).text().contains("Sign up"));
  }

  @Test
  void anActionForAnotherTargetIsRefused() {
    start(BrowserSettings.DEFAULT);
    browser.tell(new Perform(new ComputerAction(1, "mouse", "click", Map.of()), gate, probe.getRef()));
    assertEquals("the browser performs browser actions, not mouse.click",
        probe.expectMessageClass(ActionOutcome.class, WAIT).text());
  }

  @Test
  void aHeadedBrowserWithoutADisplayIsAClearError() {
    start(BrowserSettings.DEFAULT.withHeaded(true));
    ActionOutcome go = perform("go", Map.of("url", url("/form")));
    assertFalse(go.ok());
    assertEquals("the browser is set to show on the session's display (--browser-headed, "
        + "interpreter4j.browser.headed), but the session has no display; run with --computer, or without "
        + "--browser-headed", go.text());
  }

  @Test
  void aHeadedBrowserShowsOnTheSessionsDisplay() throws Exception {
    RequiredTool.assume(Subprocess.executable("Xvfb").isPresent(), "Xvfb", "apt-get install xvfb");
    RequiredTool.assume(Subprocess.executable("xdotool").isPresent(), "xdotool", "apt-get install xdotool");
    Process xvfb = new ProcessBuilder("Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try {
      String number = CompletableFuture.supplyAsync(() -> {
        try {
          return new BufferedReader(new InputStreamReader(xvfb.getInputStream(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).get(30, TimeUnit.SECONDS);
      String display = ":" + number.strip();
      browser = testKit.spawn(BrowserActor.create(BrowserSettings.DEFAULT.withHeaded(true), workdir,
          Optional.of(display)));
      assertOk(perform("go", Map.of("url", url("/form"))));
      Subprocess.Result windows = Subprocess.run(List.of("xdotool", "search", "--name", "Sign up"), workdir,
          Map.of("DISPLAY", display), Duration.ofSeconds(30));
      assertTrue(windows.ok() && !windows.output().isBlank(), "a window titled Sign up on " + display + ": "
          + windows);
      testKit.stop(browser, WAIT);
      browser = null;
    } finally {
      xvfb.descendants().forEach(ProcessHandle::destroyForcibly);
      xvfb.destroyForcibly();
    }
  }

  // ---- helpers

  void start(BrowserSettings settings) {
    browser = testKit.spawn(BrowserActor.create(settings, workdir, Optional.empty()));
  }

  ActionOutcome perform(String action, Map<String, Object> args) {
    browser.tell(new Perform(new ComputerAction(1, "browser", action, args), gate, probe.getRef()));
    return probe.expectMessageClass(ActionOutcome.class, WAIT);
  }

  static void assertOk(ActionOutcome outcome) {
    assertTrue(outcome.ok(), outcome.text());
  }

  static String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  /** The ref of the first line of a snapshot that starts with {@code element}. */
  static String ref(String snapshot, String element) {
    Matcher m = Pattern.compile(Pattern.quote(element) + "[^\\n]*?\\[ref=(e\\d+)]").matcher(snapshot);
    assertTrue(m.find(), element + " in\n" + snapshot);
    return m.group(1);
  }

  static List<ProcessHandle> chromiumProcesses() {
    return ProcessHandle.current().descendants().filter(BrowserActorTest::isChromium).toList();
  }

  static boolean isChromium(ProcessHandle process) {
    return process.info().command().map(c -> c.contains("chromium") || c.contains("chrome")).orElse(false);
  }

  static void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().toString();
    byte[] body = exchange.getRequestBody().readAllBytes();
    String form = URLDecoder.decode(new String(body, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    requests.add(exchange.getRequestMethod() + " " + path + (body.length > 0 ? " " + form : ""));
    String type = "text/html; charset=utf-8";
    String reply;
    if (path.startsWith("/form")) {
      reply = FORM.formatted(port);
    } else if (path.equals("/post")) {
      posted.add(form);
      Map<String, String> fields = new HashMap<>();
      for (String pair : form.split("&")) {
        String[] kv = pair.split("=", 2);
        fields.put(kv[0], kv.length > 1 ? kv[1] : "");
      }
      reply = "<!doctype html><title>Thanks</title><p>Thanks, " + fields.get("name") + "</p>";
    } else if (path.equals("/file")) {
      type = "text/csv";
      exchange.getResponseHeaders().add("Content-Disposition", "attachment; filename=\"report.csv\"");
      reply = "a,b\n1,2\n";
    } else {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
      return;
    }
    byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  /** Answers no to the listed kinds and yes to the rest, and remembers what it was asked. */
  static final class RecordingGate implements ActionGate {
    private final Set<String> denied;
    private final List<String> asked = new CopyOnWriteArrayList<>();

    RecordingGate(Set<String> denied) {
      this.denied = denied;
    }

    @Override
    public CompletionStage<Boolean> allow(String kind, String description) {
      asked.add(kind + ": " + description);
      return CompletableFuture.completedFuture(!denied.contains(kind));
    }

    List<String> kinds() {
      return asked.stream().map(a -> a.substring(0, a.indexOf(':'))).toList();
    }
  }
}
