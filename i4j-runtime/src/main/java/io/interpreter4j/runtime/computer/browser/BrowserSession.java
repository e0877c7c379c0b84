package io.interpreter4j.runtime.computer.browser;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Dialog;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.ScreenshotType;
import io.interpreter4j.runtime.computer.ActionOutcome;
import io.interpreter4j.runtime.computer.ComputerAction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One session's browser: a Playwright driver, a Chromium, one browser context and its current page. Every method
 * blocks and must be called from one thread only (Playwright objects are not thread-safe, and Playwright dispatches
 * the page's events, route handlers included, on the thread that calls it); {@link BrowserActor} gives it its own.
 *
 * <p>An action runs in two steps around the approval of its sensitive parts: {@link #inspect} looks at what the
 * action would do (the element behind a ref, a password field, a form it would submit) and says what to ask;
 * {@link #act} does it. Downloads that an action starts wait, unsaved, until {@link #settleDownloads} saves them to
 * the working folder or cancels them. A browser that crashed or was killed is started again at the next action,
 * and the outcome tells the model so.
 */
final class BrowserSession implements AutoCloseable {

  /** An approval an action needs before it runs: an ask-before kind and what it would do. */
  record Ask(String kind, String description) {}

  /** What an action needs: the asks, or an outcome already (a bad ref, a refused address). */
  record Plan(List<Ask> asks, Optional<ActionOutcome> refused) {
    static Plan go() {
      return new Plan(List.of(), Optional.empty());
    }

    static Plan refuse(String reason) {
      return new Plan(List.of(), Optional.of(ActionOutcome.failed(reason)));
    }
  }

  /** What an action did, and whether it started downloads, which wait unsaved for {@link #settleDownloads}. */
  record Acted(ActionOutcome outcome, boolean startedDownloads) {}

  /** The actions of {@code computer.browser}. */
  static final List<String> ACTIONS = List.of("go", "snapshot", "click", "type", "press", "view", "text");

  private static final int MAX_PAGES = 8;
  private static final String RESTARTED = "the browser had stopped (it crashed or was killed) and was started again; "
      + "the pages it had are gone: go(url) to continue";

  private final BrowserSettings settings;
  private final Optional<String> display;

  private Playwright playwright;
  private Browser browser;
  private BrowserContext context;
  private Page page;
  private boolean browserLost;
  private boolean pageCrashed;
  /** While this session opens a page itself: the context's page event is then not a tab the page opened. */
  private boolean openingPage;
  private int nextRef = 1;
  /** Said once at the start of the next outcome: a restart, a new tab, a dismissed dialog. */
  private final List<String> notes = new ArrayList<>();
  /** Navigations refused during the current action. */
  private final List<String> refusals = new ArrayList<>();
  private final PendingDownloads downloads;
  /** The main frame's navigation that the current action started, until it commits, fails or becomes a download. */
  private Request navigation;
  /** It committed (the frame navigated) or turned into a download. */
  private boolean navigationSettled;
  /** It got a response that is a page or a file (2xx, not 204/205). */
  private boolean navigationAnswered;
  private boolean navigationFailed;

  BrowserSession(BrowserSettings settings, Path workdir, Optional<String> display) {
    this.settings = settings;
    this.display = display;
    this.downloads = new PendingDownloads(workdir);
  }

  /** Step one of an action: opens the browser if need be and says what the action needs approved. */
  Plan inspect(ComputerAction action) {
    if (!ACTIONS.contains(action.action())) {
      return Plan.refuse("unknown browser action '" + action.action() + "': use " + String.join(", ", ACTIONS));
    }
    Plan plan;
    try {
      plan = attempt(action, () -> plan(action));
    } catch (BrowserLostDuringAction e) {
      plan = planAgain(action); // on the new browser: a ref is gone, an address still checks
    } catch (Failure e) {
      plan = Plan.refuse(e.getMessage());
    }
    return plan.refused().isPresent() ? new Plan(plan.asks(), plan.refused().map(this::withNotes)) : plan;
  }

  private Plan planAgain(ComputerAction action) {
    try {
      return attempt(action, () -> plan(action));
    } catch (BrowserLostDuringAction e) {
      return Plan.refuse(action.action() + " failed: the browser stopped again");
    } catch (Failure e) {
      return Plan.refuse(e.getMessage());
    }
  }

  /** Step two: does the action; a crash during go, snapshot, view or text is answered on a new browser. */
  Acted act(ComputerAction action) {
    refusals.clear();
    navigation = null;
    ActionOutcome outcome;
    try {
      outcome = attempt(action, () -> run(action));
    } catch (BrowserLostDuringAction e) {
      boolean repeatable = List.of("go", "snapshot", "view", "text").contains(action.action());
      outcome = repeatable ? retried(action) : ActionOutcome.failed(action.action() + " did not happen");
    } catch (Failure e) {
      outcome = ActionOutcome.failed(e.getMessage());
    }
    return new Acted(withNotes(outcome), !downloads.isEmpty());
  }

  private ActionOutcome retried(ComputerAction action) {
    try {
      return attempt(action, () -> run(action));
    } catch (BrowserLostDuringAction e) {
      return ActionOutcome.failed(action.action() + " failed: the browser stopped again");
    } catch (Failure e) {
      return ActionOutcome.failed(e.getMessage());
    }
  }

  /** Runs {@code step} on a working browser; what goes wrong becomes a {@link Failure} saying so. */
  private <T> T attempt(ComputerAction action, java.util.function.Supplier<T> step) {
    try {
      return guarded(step);
    } catch (BrowserUnavailable | IllegalArgumentException e) {
      throw new Failure(e.getMessage());
    } catch (PlaywrightException e) {
      throw new Failure(problem(action, e));
    }
  }

  /** Saves or cancels the downloads the action started, as the gate decided, and says so after its outcome. */
  ActionOutcome settleDownloads(ActionOutcome outcome, List<Boolean> allowed) {
    List<String> said = downloads.settle(allowed);
    String text = outcome.text() + (outcome.text().isEmpty() ? "" : "\n") + String.join("\n", said);
    return new ActionOutcome(outcome.ok(), text, outcome.screenshotPng(), outcome.url());
  }

  /** What the gate is asked about each download the action started. */
  List<String> downloadDescriptions() {
    return downloads.descriptions();
  }

  @Override
  public void close() {
    discardBrowser();
    if (playwright != null) {
      try {
        playwright.close();
      } catch (RuntimeException e) {
        // the driver is gone already
      }
      playwright = null;
    }
  }

  private Plan plan(ComputerAction action) {
    return switch (action.action()) {
      case "go" -> settings.domains().refusal(BrowserArgs.url(action)).map(Plan::refuse).orElse(Plan.go());
      case "click" -> planClick(BrowserArgs.ref(action));
      case "type" -> planType(BrowserArgs.ref(action), BrowserArgs.flag(action, "submit"));
      case "press" -> planPress(BrowserKeys.playwright(BrowserArgs.string(action, "key")));
      default -> Plan.go();
    };
  }

  private Plan planClick(String ref) {
    Optional<PageElement> found = PageScript.element(page, ref);
    if (found.isEmpty()) {
      return Plan.refuse(PageScript.noSuchRef(ref));
    }
    PageElement e = found.get();
    if (!e.link().isEmpty()) {
      Optional<String> refusal = settings.domains().refusal(e.link());
      if (refusal.isPresent()) {
        return Plan.refuse("click on " + e.label(ref) + " refused: " + refusal.get());
      }
    }
    if (e.submits()) {
      return new Plan(List.of(new Ask("submit", "click " + e.label(ref) + ", which submits a form to "
          + e.formAction() + ", on " + page.url())), Optional.empty());
    }
    return Plan.go();
  }

  private Plan planType(String ref, boolean submit) {
    Optional<PageElement> found = PageScript.element(page, ref);
    if (found.isEmpty()) {
      return Plan.refuse(PageScript.noSuchRef(ref));
    }
    PageElement e = found.get();
    if (!e.editable()) {
      return Plan.refuse(e.label(ref) + " is not a field one can type into (or it is disabled or read-only): "
          + "take a snapshot() and pick a textbox");
    }
    List<Ask> asks = new ArrayList<>();
    if (e.password()) {
      asks.add(new Ask("type-password", "type into the password field " + e.label(ref) + " on " + page.url()));
    }
    if (submit) {
      String target = e.inForm() ? " to " + e.formAction() : "";
      asks.add(new Ask("submit", "type into " + e.label(ref) + " and press Enter, which submits its form" + target
          + ", on " + page.url()));
    }
    return new Plan(asks, Optional.empty());
  }

  private Plan planPress(String key) {
    if (!BrowserKeys.endsWithEnter(key)) {
      return Plan.go();
    }
    Optional<PageElement> focused = PageScript.focused(page)
        .filter(e -> e.inForm() && (e.singleLine() || e.submits()));
    return focused.map(e -> new Plan(List.of(new Ask("submit", "press " + key + " in " + e.label()
        + ", which submits its form to " + e.formAction() + ", on " + page.url())), Optional.empty()))
        .orElse(Plan.go());
  }

  private ActionOutcome run(ComputerAction action) {
    return switch (action.action()) {
      case "go" -> go(BrowserArgs.url(action));
      case "snapshot" -> snapshot();
      case "click" -> click(BrowserArgs.ref(action));
      case "type" ->
          type(BrowserArgs.ref(action), BrowserArgs.string(action, "text"), BrowserArgs.flag(action, "submit"));
      case "press" -> press(BrowserKeys.playwright(BrowserArgs.string(action, "key")));
      case "view" -> view();
      case "text" -> text();
      default -> ActionOutcome.failed("unknown browser action '" + action.action() + "'");
    };
  }

  private ActionOutcome go(String url) {
    Optional<String> refusal = settings.domains().refusal(url);
    if (refusal.isPresent()) {
      return ActionOutcome.failed(refusal.get());
    }
    Response response;
    try {
      response = page.navigate(url);
    } catch (PlaywrightException e) {
      if (!refusals.isEmpty()) {
        return at(false, String.join("; ", refusals));
      }
      throw e;
    }
    if (!refusals.isEmpty()) {
      return at(false, String.join("; ", refusals));
    }
    String status = response == null ? "" : " (HTTP " + response.status() + ")";
    return at(true, "opened " + page.url() + status + ": " + title());
  }

  private ActionOutcome snapshot() {
    PageScript.Snapshot snapshot = PageScript.snapshot(page, nextRef);
    nextRef = snapshot.nextRef();
    String head = "page: " + title() + " (" + page.url() + ")\n";
    String text = head + (snapshot.text().isEmpty() ? "(the page shows nothing)" : snapshot.text());
    if (snapshot.truncated()) {
      text += "\n(the page has more than " + PageScript.MAX_NODES + " nodes; the rest is left out)";
    }
    return at(true, bounded(text, "snapshot"));
  }

  private ActionOutcome click(String ref) {
    Locator element = PageScript.locate(page, ref).first();
    String label = PageScript.element(page, ref)
        .orElseThrow(() -> new IllegalArgumentException(PageScript.noSuchRef(ref))).label(ref);
    String before = page.url();
    element.click();
    settle();
    if (!refusals.isEmpty()) {
      return at(false, "clicked " + label + "; " + String.join("; ", refusals));
    }
    return at(true, "clicked " + label + moved(before));
  }

  private ActionOutcome type(String ref, String text, boolean submit) {
    Locator element = PageScript.locate(page, ref).first();
    PageElement e = PageScript.element(page, ref)
        .orElseThrow(() -> new IllegalArgumentException(PageScript.noSuchRef(ref)));
    String before = page.url();
    String typed;
    if (e.tag().equals("select")) {
      element.selectOption(text);
      typed = "chose \"" + text + "\" in " + e.label(ref);
    } else {
      element.fill(text);
      typed = "typed " + text.codePointCount(0, text.length()) + " characters into " + e.label(ref);
    }
    if (!submit) {
      return at(true, typed);
    }
    element.press("Enter");
    settle();
    if (!refusals.isEmpty()) {
      return at(false, typed + " and pressed Enter; " + String.join("; ", refusals));
    }
    return at(true, typed + " and pressed Enter" + moved(before));
  }

  private ActionOutcome press(String key) {
    String before = page.url();
    page.keyboard().press(key);
    settle();
    if (!refusals.isEmpty()) {
      return at(false, "pressed " + key + "; " + String.join("; ", refusals));
    }
    return at(true, "pressed " + key + moved(before));
  }

  /**
   * Waits, up to navigation-timeout, until a page load the action started has committed, failed or turned into a
   * download, so that the outcome (and the next snapshot) sees the page the action led to and the download it began.
   */
  private void settle() {
    if (navigation == null) {
      return;
    }
    try {
      page.waitForCondition(() -> navigationSettled || navigationFailed,
          new Page.WaitForConditionOptions().setTimeout(settings.navigationTimeout().toMillis()));
    } catch (TimeoutError e) {
      notes.add("the page it led to was still loading after " + settings.navigationTimeout().toSeconds() + "s");
      return;
    }
    if (!navigationSettled && navigationAnswered) {
      // Chromium aborts the navigation to a file it downloads instead (net::ERR_ABORTED after the response); the
      // download event follows, sometimes only after the click has returned
      try {
        page.waitForCondition(() -> navigationSettled,
            new Page.WaitForConditionOptions().setTimeout(settings.actionTimeout().toMillis()));
      } catch (TimeoutError e) {
        // aborted for another reason (a newer navigation took its place): nothing was downloaded
      }
    }
  }

  private ActionOutcome view() {
    byte[] png = page.screenshot(new Page.ScreenshotOptions().setType(ScreenshotType.PNG));
    return new ActionOutcome(true, "screenshot of " + page.url() + " (" + settings.viewportWidth() + "x"
        + settings.viewportHeight() + ")", Optional.of(png), Optional.of(page.url()));
  }

  private ActionOutcome text() {
    Locator body = page.locator("body");
    String text = body.count() > 0
        ? body.innerText()
        : String.valueOf(page.evaluate("document.documentElement.textContent"));
    return at(true, bounded("page: " + title() + " (" + page.url() + ")\n" + text.strip(), "text"));
  }

  /** Runs {@code step} on a working browser, starting it first when it is not running. */
  private <T> T guarded(java.util.function.Supplier<T> step) {
    ready();
    try {
      return step.get();
    } catch (PlaywrightException e) {
      if (e instanceof TimeoutError || !gone(e)) {
        throw e;
      }
      browserLost = true;
      ready();
      throw new BrowserLostDuringAction();
    }
  }

  private void ready() {
    if (browser != null && !browserLost && browser.isConnected()) {
      if (page == null || page.isClosed() || pageCrashed) {
        if (page != null && !page.isClosed()) {
          page.close();
        }
        notes.add("the page had crashed or was closed; a new blank page is open: go(url) to continue");
        openPage();
      }
      return;
    }
    boolean restart = browser != null;
    discardBrowser();
    launch();
    if (restart) {
      notes.add(RESTARTED);
    }
  }

  private void launch() {
    Path chromium = settings.chromium().orElseThrow(() -> new BrowserUnavailable(settings.chromiumMissing()));
    Map<String, String> env = new HashMap<>(System.getenv());
    if (settings.headed()) {
      String shown = display.filter(d -> !d.isBlank()).orElseThrow(() -> new BrowserUnavailable(
          "the browser is set to show on the session's display (--browser-headed, interpreter4j.browser.headed), "
              + "but the session has no display; run with --computer, or without --browser-headed"));
      env.put("DISPLAY", shown);
    }
    BrowserType.LaunchOptions options = new BrowserType.LaunchOptions().setExecutablePath(chromium)
        .setHeadless(!settings.headed()).setEnv(env).setTimeout(settings.navigationTimeout().toMillis())
        .setHandleSIGINT(false).setHandleSIGTERM(false).setHandleSIGHUP(false);
    try {
      browser = driver().chromium().launch(options);
    } catch (PlaywrightException e) {
      if (!gone(e)) {
        throw new BrowserUnavailable("Chromium (" + chromium + ") did not start: " + firstLine(e.getMessage()));
      }
      closePlaywright();
      browser = driver().chromium().launch(options);
    }
    browserLost = false;
    browser.onDisconnected(b -> browserLost = true);
    context = browser.newContext(new Browser.NewContextOptions()
        .setViewportSize(settings.viewportWidth(), settings.viewportHeight()).setAcceptDownloads(true));
    context.setDefaultTimeout(settings.actionTimeout().toMillis());
    context.setDefaultNavigationTimeout(settings.navigationTimeout().toMillis());
    context.route("**/*", this::route);
    context.onPage(this::pageOpened);
    openPage();
  }

  private Playwright driver() {
    if (playwright == null) {
      // PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: Playwright drives the system's Chromium and never downloads browsers
      playwright = Playwright.create(new Playwright.CreateOptions()
          .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    }
    return playwright;
  }

  private void openPage() {
    pageCrashed = false;
    openingPage = true;
    try {
      page = context.newPage();
    } finally {
      openingPage = false;
    }
    watch(page);
  }

  /** A page the context opened itself (a link with target=_blank, window.open) becomes the current one. */
  private void pageOpened(Page opened) {
    if (openingPage || opened == page) {
      return;
    }
    watch(opened);
    page = opened;
    pageCrashed = false;
    notes.add("the page opened a new tab; actions now go to it");
    List<Page> pages = context.pages();
    for (int i = 0; i < pages.size() - MAX_PAGES; i++) {
      if (pages.get(i) != page) {
        pages.get(i).close();
      }
    }
  }

  private void watch(Page watched) {
    watched.onCrash(p -> {
      if (p == page) {
        pageCrashed = true;
      }
    });
    watched.onDialog(this::dialog);
    watched.onDownload(this::downloadStarted);
    watched.onFrameNavigated(frame -> {
      if (frame == page.mainFrame()) {
        navigationSettled = true;
      }
    });
    watched.onResponse(response -> {
      if (response.request() == navigation && response.status() / 100 == 2 && response.status() != 204
          && response.status() != 205) {
        navigationAnswered = true;
      }
    });
    watched.onRequestFailed(request -> {
      if (request == navigation) {
        navigationFailed = true;
      }
    });
  }

  private void dialog(Dialog dialog) {
    notes.add("the page showed a " + dialog.type() + " dialog, dismissed: " + firstLine(dialog.message()));
    dialog.dismiss();
  }

  private void downloadStarted(Download download) {
    navigationSettled = true;
    if (!downloads.hold(download)) {
      notes.add("a download of " + download.suggestedFilename() + " was cancelled: too many at once");
    }
  }

  /** Every request of the context: navigations against the whole policy, the rest against blocked-domains. */
  private void route(Route route) {
    Request request = route.request();
    Optional<String> refusal = request.isNavigationRequest()
        ? settings.domains().refusal(request.url())
        : settings.domains().subresourceRefusal(request.url());
    if (refusal.isEmpty()) {
      if (request.isNavigationRequest() && page != null && request.frame() == page.mainFrame()) {
        navigation = request;
        navigationSettled = false;
        navigationAnswered = false;
        navigationFailed = false;
      }
      route.resume();
      return;
    }
    if (request.isNavigationRequest()) {
      refusals.add(refusal.get());
    }
    // aborted, not blockedbyclient: a navigation aborted so leaves the page where it was instead of an error page
    route.abort(request.isNavigationRequest() ? "aborted" : "blockedbyclient");
  }

  private void discardBrowser() {
    downloads.cancelAll();
    if (browser != null) {
      try {
        browser.close();
      } catch (RuntimeException e) {
        // it crashed or was killed: nothing to close
      }
    }
    browser = null;
    context = null;
    page = null;
  }

  private void closePlaywright() {
    try {
      playwright.close();
    } catch (RuntimeException e) {
      // the driver is gone already
    }
    playwright = null;
  }

  /** Whether {@code e} says the browser, its page or the driver went away. */
  private boolean gone(PlaywrightException e) {
    String m = String.valueOf(e.getMessage());
    return e.getClass().getSimpleName().equals("TargetClosedError") || m.contains("has been closed")
        || m.contains("Target closed") || m.contains("Target crashed") || m.contains("Browser closed")
        || m.contains("connection closed") || m.contains("Connection closed")
        || browser != null && !browser.isConnected();
  }

  private ActionOutcome at(boolean ok, String text) {
    return new ActionOutcome(ok, text, Optional.empty(), Optional.of(page.url()));
  }

  private ActionOutcome withNotes(ActionOutcome outcome) {
    if (notes.isEmpty()) {
      return outcome;
    }
    String text = "(" + String.join("; ", notes) + ")\n" + outcome.text();
    notes.clear();
    return new ActionOutcome(outcome.ok(), text, outcome.screenshotPng(), outcome.url());
  }

  private String moved(String before) {
    String now = page.url();
    return now.equals(before) ? "" : "; now at " + now + ": " + title();
  }

  private String title() {
    String title = page.title();
    return title == null || title.isBlank() ? "(untitled)" : title.strip();
  }

  private String bounded(String text, String what) {
    int max = settings.snapshotMaxChars();
    if (text.length() <= max) {
      return text;
    }
    return text.substring(0, max) + "\n(" + what + " cut at " + max + " of " + text.length()
        + " characters: interpreter4j.browser.snapshot-max-chars)";
  }

  private static String problem(ComputerAction action, PlaywrightException e) {
    String first = firstLine(e.getMessage());
    if (e instanceof TimeoutError) {
      return action.action() + " timed out: " + first;
    }
    return action.action() + " failed: " + first;
  }

  private static String firstLine(String message) {
    String m = message == null ? "" : message.strip();
    int newline = m.indexOf('\n');
    return newline < 0 ? m : m.substring(0, newline).strip();
  }

  /** The browser cannot be had: Chromium missing, or it will not start. */
  static final class BrowserUnavailable extends RuntimeException {
    BrowserUnavailable(String message) {
      super(message);
    }
  }

  /** Why an action could not be done, for the model. */
  private static final class Failure extends RuntimeException {
    Failure(String message) {
      super(message, null, false, false);
    }
  }

  /** The browser went away during a step; it has been started again. */
  private static final class BrowserLostDuringAction extends RuntimeException {
    BrowserLostDuringAction() {
      super(RESTARTED, null, false, false);
    }
  }
}
