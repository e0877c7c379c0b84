package io.interpreter4j.server;

import static io.interpreter4j.server.TestServer.body;

import io.interpreter4j.core.computer.ModelSpace;
import io.interpreter4j.runtime.computer.ComputerSettings;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.session.ProcessDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The screenshot of docs/computer.md ({@code docs/computer.png}): a real session with computer use on its own 1920x1080
 * Xvfb fills a Tk form, watched in the dashboard in headless Chromium. Needs Xvfb, xdotool, ImageMagick and
 * python3-tk besides Chromium. Runs only when asked:
 *
 * <pre>
 * ./mvnw -q -B -pl i4j-server -am test -Dtest=DashboardComputerScreenshot -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Di4j.screenshots=$PWD/docs
 * </pre>
 */
@EnabledIfSystemProperty(named = "i4j.screenshots", matches = ".+")
class DashboardComputerScreenshot {
  private static final ModelSpace SPACE = new ModelSpace(1920, 1080);
  private static final String FORM = """
      import tkinter as tk
      root = tk.Tk()
      root.overrideredirect(True)
      root.geometry("1920x1080+0+0")
      tk.Label(root, text="Guest book", font=("DejaVu Sans", 28)).place(x=300, y=100)
      name = tk.Entry(root, font=("DejaVu Sans", 20))
      name.place(x=300, y=200, width=600, height=60)
      agreed = tk.IntVar()
      tk.Checkbutton(root, text="I agree", variable=agreed, font=("DejaVu Sans", 20)).place(x=300, y=400, width=300,
                                                                                         height=60)
      def submit():
          with open("result.txt", "w") as f:
              f.write("name=%s\\nagreed=%d\\n" % (name.get(), agreed.get()))
          root.destroy()
      tk.Button(root, text="Submit", command=submit, font=("DejaVu Sans", 20)).place(x=300, y=600, width=300, height=80)
      root.wait_visibility(root)
      root.update_idletasks()
      root.update()
      print("ready", flush=True)
      root.mainloop()
      """;

  @TempDir static Path tmp;
  private static TestServer server;
  private static Browser browser;

  @BeforeAll
  static void start() throws Exception {
    Browser.assumeInstalled();
    ProcessDefaults.setComputer(ComputerSpec.of(ComputerSettings.OFF.withEnabled(true).withScreen(1920, 1080))
        .withPrivateScreen(true));
    server = new TestServer(tmp.resolve("server"));
    browser = new Browser(tmp.resolve("chromium"), 1400, 1000);
  }

  @AfterAll
  static void stop() {
    ProcessDefaults.setComputer(ComputerSpec.OFF);
    if (browser != null) {
      browser.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static String at(int x, int y) {
    ModelSpace.Point p = SPACE.toModel(x, y);
    return p.x() + ", " + p.y();
  }

  @Test
  void shootASessionThatFillsAForm() throws Exception {
    Path out = Path.of(System.getProperty("i4j.screenshots"));
    Files.writeString(server.workdir.resolve("guestbook.py"), FORM);
    String model = server.expectingCassette("form", 24, 0,
        null, "I'll open the guest book and look at it.\n\n```python\nimport subprocess, sys\n"
            + "app = subprocess.Popen([sys.executable, \"guestbook.py\"], stdout=subprocess.PIPE, text=True)\n"
            + "app.stdout.readline()\ncomputer.display.view()\n```\n",
        "exit code 0", "The name field is at the top, the box below it, Submit at the bottom.\n\n```python\n"
            + "computer.mouse.click(" + at(600, 230) + ")\ncomputer.keyboard.write(\"Ada Lovelace\")\n"
            + "computer.mouse.click(" + at(450, 430) + ")\ncomputer.display.view()\n"
            + "computer.mouse.click(\"Submit\")\nprint(\"exit\", app.wait(timeout=60))\n"
            + "print(open(\"result.txt\").read())\n```\n",
        "name=Ada Lovelace", "The guest book is signed: **Ada Lovelace**, box ticked, submitted.");
    String id = server.createSession(body("message", "Sign the guest book (guestbook.py) as Ada Lovelace",
        "autoRun", true, "model", model));

    browser.login(server);
    browser.driver.get(server.base() + "/#/session/" + id);
    browser.waitFor("the session to be done", d -> !d.findElements(
        By.cssSelector("[data-testid='transcript'] .turn-end[data-status='done']")).isEmpty());
    browser.js("const top = document.querySelector('.block-card[data-block=\"2\"]').getBoundingClientRect().top;"
        + "const head = document.querySelector('.session-head').getBoundingClientRect().bottom;"
        + "window.scrollBy(0, top - head - 16);");
    browser.js("document.activeElement && document.activeElement.blur()");
    browser.screenshot(out.resolve("computer.png"));
  }
}
