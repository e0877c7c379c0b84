package io.interpreter4j.runtime.session;

import static io.interpreter4j.runtime.session.SessionHarness.cassette;
import static io.interpreter4j.runtime.session.SessionHarness.cassetteJson;
import static io.interpreter4j.runtime.session.SessionHarness.turn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.computer.ModelSpace;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.image.ImageSource;
import io.interpreter4j.core.testing.RequiredTool;
import io.interpreter4j.runtime.approval.Approver;
import io.interpreter4j.runtime.computer.ComputerSettings;
import io.interpreter4j.runtime.computer.ComputerSpec;
import io.interpreter4j.runtime.sandbox.Sandbox;
import io.interpreter4j.runtime.sandbox.Subprocess;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Computer use end to end: a session with its own Xvfb at 1920x1080 (model space 1280x720), real xdotool and
 * ImageMagick, a real window (a Tk form, form.py, at known places), the replay model driving the python API.
 */
class SessionComputerTest {
  private static final Duration TURN = Duration.ofSeconds(90);
  private static final ModelSpace SPACE = new ModelSpace(1920, 1080);
  private static ActorTestKit testKit;

  @TempDir Path tmp;
  private SessionHarness harness;
  private Path work;

  @BeforeAll
  static void startKit() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stopKit() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() throws Exception {
    RequiredTool.assume(Subprocess.executable("Xvfb").isPresent(), "Xvfb", "apt-get install xvfb");
    RequiredTool.assume(Subprocess.executable("xdotool").isPresent(), "xdotool", "apt-get install xdotool");
    RequiredTool.assume(Subprocess.executable("import").isPresent(), "ImageMagick's import",
        "apt-get install imagemagick");
    RequiredTool.assume(Subprocess.run(List.of("python3", "-c", "import tkinter"), null, Map.of(),
        Duration.ofSeconds(20)).ok(), "python3's tkinter", "apt-get install python3-tk");
    work = Files.createDirectories(tmp.resolve("work"));
    harness = new SessionHarness(testKit, tmp.resolve("data"), work);
    try (InputStream form = getClass().getResourceAsStream("/io/interpreter4j/runtime/computer/form.py")) {
      Files.write(work.resolve("form.py"), form.readAllBytes());
    }
  }

  private SessionHarness.Running start(String cassetteJson, Sandbox sandbox) {
    ComputerSpec computer = ComputerSpec.of(ComputerSettings.OFF.withEnabled(true).withScreen(1920, 1080)
        .withGrid(false)).withPrivateScreen(true);
    return harness.start(SessionIds.next(), cassette(cassetteJson), Approver.NOBODY, Map.of(),
        spec -> spec.withSandbox(sandbox).withComputer(computer));
  }

  /** Where a screen point of the form's layout is for the model. */
  private static String model(int screenX, int screenY) {
    ModelSpace.Point p = SPACE.toModel(screenX, screenY);
    return p.x() + ", " + p.y();
  }

  private static final String OPEN_FORM = """
      import subprocess, sys
      app = subprocess.Popen([sys.executable, "form.py"], stdout=subprocess.PIPE, text=True)
      print(app.stdout.readline().strip())
      print(computer.display.view())
      print(computer.display.size())
      """;

  @Test
  void theModelFillsARealFormThroughThePythonApi() throws Exception {
    // form.py: the name field spans (300..900, 200..260), the box (300..600, 400..460), Submit (300..600, 600..680)
    String fill = "computer.mouse.click(" + model(600, 230) + ")\n"
        + "computer.keyboard.write(\"Ada Lovelace\")\n"
        + "computer.mouse.click(" + model(450, 430) + ")\n"
        + "computer.mouse.click(" + model(450, 640) + ")\n"
        + "print(\"exit\", app.wait(timeout=60))\n"
        + "print(open(\"result.txt\").read())\n";
    var s = start(cassetteJson(
        turn(null, "```python\n" + OPEN_FORM + "```"),
        turn("ready\\nscreenshot 1280x720\\n\\(1280, 720\\)", "```python\n" + fill + "```"),
        turn("exit 0\\nname=Ada Lovelace\\nagreed=1", "The form is sent.")), Sandbox.none());

    EventPayload.TurnFinished done = s.turn("fill in the form", TURN);

    assertEquals("done", done.status().wire(), s.types() + "\n" + s.output() + s.payloads(EventPayload.Error.class));
    assertEquals("name=Ada Lovelace\nagreed=1\n", Files.readString(work.resolve("result.txt")));
    List<EventPayload.ComputerAction> actions = s.payloads(EventPayload.ComputerAction.class);
    assertEquals(List.of("display.view", "display.size", "mouse.click", "keyboard.write", "mouse.click",
        "mouse.click"), actions.stream().map(EventPayload.ComputerAction::action).toList());
    assertTrue(actions.stream().allMatch(EventPayload.ComputerAction::ok), actions.toString());
    EventPayload.ComputerAction nameClick = actions.get(2);
    ModelSpace.Point name = SPACE.toModel(600, 230);
    assertEquals(List.of(2, name.x(), name.y()), List.of(nameClick.block(), nameClick.x(), nameClick.y()));
    assertEquals("Ada Lovelace", actions.get(3).text());
    List<EventPayload.Image> images = s.payloads(EventPayload.Image.class);
    assertEquals(1, images.size(), images.toString());
    assertEquals(ImageSource.SCREENSHOT, images.get(0).source());
    assertEquals(List.of(1280, 720), List.of(images.get(0).width(), images.get(0).height()));
    assertTrue(Files.isRegularFile(Path.of(images.get(0).path())), images.get(0).path());
  }

  @Test
  void aClickOffTheScreenIsAnErrorToTheModelAndMovesNothing() throws Exception {
    String code = """
        computer.mouse.move(100, 100)
        try:
            computer.mouse.click(1280, 10)
        except ComputerError as e:
            print("error:", e)
        print("pointer", computer.mouse.position())
        """;
    var s = start(cassetteJson(
        turn(null, "```python\n" + code + "```"),
        turn("error: \\(1280, 10\\) is off the screen.*\\n.*pointer \\(100, 100\\)", "It is off the screen.")),
        Sandbox.none());

    EventPayload.TurnFinished done = s.turn("click at 1280, 10", TURN);

    assertEquals("done", done.status().wire(), s.types() + "\n" + s.output() + s.payloads(EventPayload.Error.class));
    List<EventPayload.ComputerAction> actions = s.payloads(EventPayload.ComputerAction.class);
    assertEquals(List.of("mouse.move", "mouse.click", "mouse.position"),
        actions.stream().map(EventPayload.ComputerAction::action).toList());
    assertFalse(actions.get(1).ok());
    assertEquals(1280, actions.get(1).x());
  }

  @Test
  void insideTheBwrapSandboxOnlyTheSessionsXSocketAndChannelAreBoundAndTheApiWorks() throws Exception {
    // /tmp in the sandbox: the X socket and the channel's folder, but nothing else of the host's /tmp (a file made
    // there now stays out of sight; the work folder may be under /tmp, and is bound where it is)
    Sandbox bwrap = io.interpreter4j.runtime.sandbox.RequiredBwrap.sandbox(false);
    Path hostOnly = Files.createTempFile(Path.of("/tmp"), "i4j-host-only-", ".txt");
    try {
      String code = """
          import os, subprocess, sys
          tmp = os.listdir("/tmp")
          print("tmp", ".X11-unix" in tmp, any(n.startswith("i4j-computer-") for n in tmp), "%s" in tmp,
                sorted(os.listdir("/tmp/.X11-unix")))
          print(computer.display.size())
          app = subprocess.Popen([sys.executable, "form.py"], stdout=subprocess.PIPE, text=True)
          print(app.stdout.readline().strip())
          print(computer.mouse.click(%s))
          print("exit", app.wait(timeout=60))
          """.formatted(hostOnly.getFileName(), model(450, 640));
      var s = start(cassetteJson(
          turn(null, "```python\n" + code + "```"),
          turn("tmp True True False \\['X\\d+'\\]\\n\\(1280, 720\\)\\n"
              + "ready\\nleft click at \\(300, 426\\)\\nexit 0", "Sent.")),
          bwrap);

      EventPayload.TurnFinished done = s.turn("press Submit", TURN);

      assertEquals("done", done.status().wire(), s.types() + "\n" + s.output() + s.payloads(EventPayload.Error.class));
      assertEquals("name=\nagreed=0\n", Files.readString(work.resolve("result.txt")));
    } finally {
      Files.deleteIfExists(hostOnly);
    }
  }

  @Test
  void typingAPasswordAsksFirstAndIsDeniedWhereNobodyCanAnswerEvenUnderYes() throws Exception {
    String code = """
        try:
            computer.keyboard.write("correct horse battery", secret=True)
        except ComputerError as e:
            print("refused:", e)
        """;
    var s = start(cassetteJson(
        turn(null, "```python\n" + code + "```"),
        turn("refused: typing a password was not allowed", "I may not type it.")), Sandbox.none());

    EventPayload.TurnFinished done = s.turn("log in", TURN);

    assertEquals("done", done.status().wire(), s.types() + "\n" + s.output() + s.payloads(EventPayload.Error.class));
    EventPayload.ComputerAction write = s.payloads(EventPayload.ComputerAction.class).get(0);
    assertEquals("keyboard.write", write.action());
    assertFalse(write.ok());
    assertEquals("[REDACTED]", write.text());
  }
}
