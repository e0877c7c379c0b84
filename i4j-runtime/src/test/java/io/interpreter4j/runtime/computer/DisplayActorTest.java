package io.interpreter4j.runtime.computer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.image.ImageHeader;
import io.interpreter4j.core.safety.SecretRedactor;
import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The display actor on its own Xvfb: screenshots, supervision of the X server, clicks found by their text. */
class DisplayActorTest {
  private static final Duration ANSWER = Duration.ofSeconds(60);
  private static final ActionGate ALLOW = (kind, description) -> CompletableFuture.completedFuture(true);
  private static ActorTestKit testKit;

  @TempDir Path tmp;

  @BeforeAll
  static void startKit() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stopKit() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void needTools() {
    RequiredTool.assume(Subprocess.executable("Xvfb").isPresent(), "Xvfb", "apt-get install xvfb");
    RequiredTool.assume(Subprocess.executable("xdotool").isPresent(), "xdotool", "apt-get install xdotool");
    RequiredTool.assume(Subprocess.executable("import").isPresent(), "ImageMagick's import",
        "apt-get install imagemagick");
  }

  private ActionOutcome perform(ActorRef<ComputerCommand> display, String target, String action,
                                Map<String, Object> args) {
    TestProbe<ActionOutcome> probe = testKit.createTestProbe();
    display.tell(new Perform(new ComputerAction(1, target, action, args), ALLOW, probe.getRef()));
    return probe.expectMessageClass(ActionOutcome.class, ANSWER);
  }

  @Test
  void aKilledXServerIsStartedAgainAndTheNextViewSaysTheScreenWasReset() throws Exception {
    DisplayActor.Screen screen = DisplayActor.Screen.privateXvfb(XServer.freeNumber(), 640, 480, true,
        tmp.resolve("scratch"));
    ActorRef<ComputerCommand> display = testKit.spawn(DisplayActor.create(screen, SecretRedactor.patternsOnly()));
    try {
      ActionOutcome first = perform(display, "display", "view", Map.of());
      assertTrue(first.ok(), first.text());
      ImageHeader header = ImageHeader.read(first.screenshotPng().orElseThrow());
      assertEquals(List.of(640, 480), List.of(header.width(), header.height()));

      String number = ":" + screen.number().get();
      ProcessHandle xvfb = ProcessHandle.current().descendants()
          .filter(p -> p.info().commandLine().orElse("").contains("Xvfb " + number + " ")).findFirst().orElseThrow();
      assertTrue(xvfb.destroyForcibly(), "kill -9 of Xvfb " + xvfb.pid()); // SIGKILL on Unix
      xvfb.onExit().get();

      ActionOutcome after = perform(display, "display", "view", Map.of());
      assertTrue(after.ok(), after.text());
      assertTrue(after.text().startsWith(DisplayActor.RESET), after.text());
      assertTrue(after.screenshotPng().isPresent());
      ActionOutcome next = perform(display, "mouse", "move", Map.of("x", 10, "y", 10));
      assertTrue(next.ok() && !next.text().contains("reset"), next.text());
    } finally {
      testKit.stop(display);
    }
  }

  @Test
  void aPointOffTheScreenFailsAndThePointerStaysWhereItWas() {
    DisplayActor.Screen screen = DisplayActor.Screen.privateXvfb(XServer.freeNumber(), 1920, 1080, false,
        tmp.resolve("scratch"));
    ActorRef<ComputerCommand> display = testKit.spawn(DisplayActor.create(screen, SecretRedactor.patternsOnly()));
    try {
      assertTrue(perform(display, "mouse", "move", Map.of("x", 640, "y", 360)).ok());
      ActionOutcome off = perform(display, "mouse", "click", Map.of("x", 640, "y", 720));
      assertFalse(off.ok());
      assertTrue(off.text().contains("off the screen") && off.text().contains("1280x720"), off.text());
      assertEquals("640,360", perform(display, "mouse", "position", Map.of()).text());
    } finally {
      testKit.stop(display);
    }
  }

  @Test
  void clickFindsVisibleTextWithOcr() throws Exception {
    RequiredTool.assume(Subprocess.executable("tesseract").isPresent(), "tesseract", "apt-get install tesseract-ocr");
    RequiredTool.assume(Subprocess.run(List.of("python3", "-c", "import tkinter"), null, Map.of(),
        Duration.ofSeconds(20)).ok(), "python3's tkinter", "apt-get install python3-tk");
    DisplayActor.Screen screen = DisplayActor.Screen.privateXvfb(XServer.freeNumber(), 1920, 1080, false,
        tmp.resolve("scratch"));
    ActorRef<ComputerCommand> display = testKit.spawn(DisplayActor.create(screen, SecretRedactor.patternsOnly()));
    Path work = Files.createDirectories(tmp.resolve("work"));
    try (InputStream form = getClass().getResourceAsStream("form.py")) {
      Files.write(work.resolve("form.py"), form.readAllBytes());
    }
    assertTrue(perform(display, "display", "size", Map.of()).ok()); // the screen is up
    ProcessBuilder builder = new ProcessBuilder("python3", "form.py").directory(work.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("DISPLAY", screen.display());
    Process app = builder.start();
    try {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
        assertEquals("ready", out.readLine());
        ActionOutcome agree = perform(display, "mouse", "click", Map.of("text", "I agree"));
        assertTrue(agree.ok(), agree.text());
        ActionOutcome submit = perform(display, "mouse", "click", Map.of("text", "submit"));
        assertTrue(submit.ok(), submit.text());
        assertEquals(0, app.waitFor());
      }
      assertEquals("name=\nagreed=1\n", Files.readString(work.resolve("result.txt")));
      ActionOutcome missing = perform(display, "mouse", "click", Map.of("text", "Cancel"));
      assertFalse(missing.ok());
      assertTrue(missing.text().contains("'Cancel' is not visible"), missing.text());
    } finally {
      app.destroyForcibly();
      testKit.stop(display);
    }
  }
}
