package io.interpreter4j.runtime.repl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.interpreter4j.core.event.StreamName;
import io.interpreter4j.core.image.ImageFormat;
import io.interpreter4j.core.image.ImageHeader;
import io.interpreter4j.core.image.ImageSource;
import io.interpreter4j.core.testing.RequiredTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images shown by python blocks: display(x) and matplotlib figures, through the real python driver. The standard
 * library cases run the {@code python3} on the PATH; the PIL and matplotlib cases run Debian's
 * {@code /usr/bin/python3} with python3-pil and python3-matplotlib.
 */
class PythonImagesTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final Duration WAIT = Duration.ofSeconds(60);
  static final String DEBIAN_PYTHON = "/usr/bin/python3";

  /** A 3x2 PNG written with zlib and struct only, as a block would without any library. */
  static final String WRITE_PNG = """
      import struct, zlib
      def png(path, width, height):
          def chunk(kind, data):
              return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
          rows = b"".join(b"\\x00" + b"\\xff\\x00\\x00" * width for _ in range(height))
          header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
          with open(path, "wb") as f:
              f.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
                      + chunk(b"IEND", b""))
      """;

  @TempDir
  Path sessionDir;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  record Run(String stdout, String stderr, List<BlockImage> images, List<ReplWorker.Html> html, ExecResult result) {}

  static Run run(ActorRef<ReplWorker.Command> worker, int block, String code) {
    TestProbe<ReplWorker.Reply> probe = testKit.createTestProbe();
    worker.tell(new ReplWorker.Execute(block, code, WAIT, probe.getRef()));
    List<ReplWorker.Output> outputs = new ArrayList<>();
    List<BlockImage> images = new ArrayList<>();
    List<ReplWorker.Html> html = new ArrayList<>();
    while (true) {
      ReplWorker.Reply reply = probe.receiveMessage(WAIT);
      if (reply instanceof ReplWorker.Output o) {
        outputs.add(o);
      } else if (reply instanceof ReplWorker.Image i) {
        assertEquals(block, i.block());
        images.add(i.image());
      } else if (reply instanceof ReplWorker.Html h) {
        assertEquals(block, h.block());
        html.add(h);
      } else if (reply instanceof ReplWorker.Finished f) {
        return new Run(text(outputs, StreamName.STDOUT), text(outputs, StreamName.STDERR), images, html,
            f.result());
      } else {
        fail("unexpected reply " + reply);
      }
    }
  }

  static String text(List<ReplWorker.Output> outputs, StreamName stream) {
    return outputs.stream().filter(o -> o.stream() == stream).map(ReplWorker.Output::text)
        .collect(Collectors.joining());
  }

  ActorRef<ReplWorker.Command> worker(String python) {
    ReplConfig defaults = ReplConfig.defaults("python", sessionDir, sessionDir);
    return testKit.spawn(ReplWorker.create(new ReplConfig("python", sessionDir, sessionDir, defaults.idleTimeout(),
        defaults.interruptGrace(), defaults.maxOutput(), defaults.liveOutputLimit(), java.util.Map.of(), python)));
  }

  Path outputs() {
    return sessionDir.toAbsolutePath().resolve("outputs");
  }

  @Test
  void displayOfAPathAPurePathAndBytesSavesEachUnderOutputs() throws IOException {
    ActorRef<ReplWorker.Command> python = worker(null);
    Run run = run(python, 1, WRITE_PNG + """
        import pathlib
        png("red.png", 3, 2)
        print("before")
        display("red.png")
        display(pathlib.Path("red.png"))
        display(open("red.png", "rb").read())
        print("after")
        """);
    assertEquals(0, run.result().exitCode(), run.stderr());
    assertEquals("before\nafter\n", run.stdout());
    assertEquals(3, run.images().size());
    byte[] written = Files.readAllBytes(sessionDir.resolve("red.png"));
    for (int i = 0; i < 3; i++) {
      BlockImage image = run.images().get(i);
      assertEquals(outputs().resolve("block-1-" + (i + 1) + ".png"), image.path());
      assertEquals(new ImageHeader(ImageFormat.PNG, 3, 2), image.header());
      assertEquals(ImageSource.DISPLAY, image.source());
      assertArrayEquals(written, Files.readAllBytes(image.path()));
    }
  }

  @Test
  void whatIsNoImageGivesALineOnStderrAndTheBlockGoesOn() {
    ActorRef<ReplWorker.Command> python = worker(null);
    Run run = run(python, 2, """
        open("notes.txt", "w").write("just text")
        display("notes.txt")
        display("missing.png")
        display(b"\\x89PNG\\r\\n\\x1a\\n")
        print("still here")
        """);
    assertEquals(0, run.result().exitCode());
    assertEquals("still here\n", run.stdout());
    assertEquals(List.of(), run.images());
    // whole lines; the Java side's line may come before or after the driver's (stdout and stderr are two pipes)
    List<String> lines = List.of(run.stderr().split("\n"));
    assertEquals(3, lines.size(), run.stderr());
    assertTrue(lines.contains("display('notes.txt'): not a PNG, JPEG, GIF or WebP image (9 bytes); nothing shown"),
        run.stderr());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("display('missing.png'): cannot show it: FileNotFoundError:")),
        run.stderr());
    // a PNG signature without a header passes the driver's check and is refused by the Java side's reading
    assertTrue(lines.contains("[image not shown: a PNG image cut short: 8 bytes, its header needs 24]"), run.stderr());
  }

  @Test
  void aLineAboutAnImageNeverBreaksALineTheBlockWritesOnStderr() {
    ActorRef<ReplWorker.Command> python = worker(null);
    Run run = run(python, 7, """
        import sys
        sys.stderr.write("half a line")
        sys.stderr.flush()
        display(b"\\x89PNG\\r\\n\\x1a\\n")
        sys.stderr.write(", then its end\\n")
        sys.stderr.write("left open")
        display(b"\\x89PNG\\r\\n\\x1a\\n")
        """);
    assertEquals(0, run.result().exitCode());
    String note = "[image not shown: a PNG image cut short: 8 bytes, its header needs 24]";
    List<String> lines = List.of(run.stderr().split("\n"));
    assertEquals(4, lines.size(), run.stderr());
    assertTrue(lines.contains("half a line, then its end"), run.stderr());
    assertTrue(lines.contains("left open"), run.stderr());
    assertEquals(2, lines.stream().filter(note::equals).count(), run.stderr());
  }

  @Test
  void atMostEightImagesABlockAndANoteSaysHowManyWereDropped() {
    ActorRef<ReplWorker.Command> python = worker(null);
    Run run = run(python, 3, WRITE_PNG + """
        png("dot.png", 1, 1)
        for _ in range(11):
            display("dot.png")
        """);
    assertEquals(0, run.result().exitCode());
    assertEquals(8, run.images().size());
    assertEquals("[3 image(s) dropped: a block shows at most 8 images and 20 MB]\n", run.stderr());
    assertTrue(run.result().modelOutput().contains("3 image(s) dropped"), run.result().modelOutput());
  }

  @Test
  void reprPngAndReprHtmlFollowIPythonsConventions() throws IOException {
    ActorRef<ReplWorker.Command> python = worker(null);
    Run run = run(python, 4, WRITE_PNG + """
        import base64
        png("x.png", 5, 4)
        class Chart:
            def _repr_png_(self):
                return open("x.png", "rb").read()
        class Table:
            def _repr_html_(self):
                return "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
        display(Chart(), Table(), 42)
        """);
    assertEquals(0, run.result().exitCode(), run.stderr());
    assertEquals(1, run.images().size());
    assertEquals(new ImageHeader(ImageFormat.PNG, 5, 4), run.images().get(0).header());
    assertEquals("a\tb\n1\t2\n42\n", run.stdout());
    // the HTML itself is saved for the dashboard's sandboxed frame
    assertEquals(1, run.html().size());
    Path saved = outputs().resolve("block-4-1.html");
    assertEquals(saved, run.html().get(0).path());
    String table = "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>";
    assertEquals(table, Files.readString(saved));
    assertEquals(table.length(), run.html().get(0).bytes());
  }

  @Test
  void htmlPastEightDocumentsIsDroppedWithANoteAndAReprHtmlThatIsNoStringIsPrinted() {
    ActorRef<ReplWorker.Command> python = worker(null);
    Run run = run(python, 5, """
        class Cell:
            def _repr_html_(self):
                return "<b>été</b>"
        class Odd:
            def _repr_html_(self):
                return None
            def __repr__(self):
                return "Odd()"
        for _ in range(10):
            display(Cell())
        display(Odd())
        """);
    assertEquals(0, run.result().exitCode(), run.stderr());
    assertEquals("été\n".repeat(10) + "Odd()\n", run.stdout());
    assertEquals(8, run.html().size());
    assertEquals(outputs().resolve("block-5-8.html"), run.html().get(7).path());
    assertEquals(run.html().get(0).bytes(), "<b>été</b>".getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    assertEquals("[2 HTML document(s) dropped: a block shows at most 8 and 20 MB of them]\n", run.stderr());
  }

  @Test
  void pilImagesAndMatplotlibFiguresWithDebiansPython() throws Exception {
    boolean present = false;
    if (Files.isExecutable(Path.of(DEBIAN_PYTHON))) {
      Process probe = new ProcessBuilder(DEBIAN_PYTHON, "-c", "import matplotlib, PIL").start();
      present = probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0;
      probe.destroyForcibly();
    }
    RequiredTool.assume(present, "/usr/bin/python3 with matplotlib and PIL",
        "apt-get install python3-matplotlib python3-pil");
    ActorRef<ReplWorker.Command> python = worker(DEBIAN_PYTHON);
    Run first = run(python, 5, """
        from PIL import Image
        import matplotlib.pyplot as plt
        display(Image.new("RGB", (30, 20), "blue"))
        fig, ax = plt.subplots(figsize=(4, 3), dpi=50)
        ax.plot([1, 2, 3], [3, 1, 2])
        plt.show()
        print("shown", plt.get_fignums())
        plt.figure(figsize=(2, 2), dpi=50)
        plt.plot([0, 1])
        print("left open", plt.get_fignums())
        """);
    assertEquals(0, first.result().exitCode(), first.stderr());
    assertEquals("shown []\nleft open [1]\n", first.stdout()); // plt.show() closed figure 1, so its number is free
    assertEquals(List.of(ImageSource.DISPLAY, ImageSource.MATPLOTLIB, ImageSource.MATPLOTLIB),
        first.images().stream().map(BlockImage::source).toList());
    assertEquals(new ImageHeader(ImageFormat.PNG, 30, 20), first.images().get(0).header());
    for (BlockImage image : first.images()) {
      assertEquals(image.header(), ImageHeader.read(Files.readAllBytes(image.path())));
    }
    Run second = run(python, 6, """
        import matplotlib
        print(matplotlib.get_backend(), plt.get_fignums())
        fig = plt.figure(figsize=(2, 1), dpi=50)
        display(fig)
        plt.close(fig)
        """);
    assertEquals("module://_i4j_backend []\n", second.stdout(), second.stderr());
    assertEquals(1, second.images().size());
    assertEquals(ImageSource.DISPLAY, second.images().get(0).source());
  }
}
