package io.interpreter4j.runtime.computer;

import io.interpreter4j.runtime.sandbox.Subprocess;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * One X display as the programs see it: input through xdotool, screenshots through the X server (ImageMagick's
 * {@code import -window root}), text found with tesseract. Coordinates here are the screen's own pixels. Each call
 * runs a short command with a timeout; a failure throws {@link IllegalStateException} with the command's last
 * line. Blocking: call off actor threads.
 */
final class Desktop {

  static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);
  static final String MISSING_XDOTOOL = "xdotool is not installed: the mouse and keyboard need it "
      + "(apt-get install xdotool)";
  static final String MISSING_IMPORT = "ImageMagick's import is not installed: screenshots need it "
      + "(apt-get install imagemagick)";
  static final String MISSING_TESSERACT = "tesseract is not installed: finding text on the screen needs it "
      + "(apt-get install tesseract-ocr), or click at coordinates instead";

  private final String display;
  private final Path scratch;

  /** @param scratch a private folder for screenshot files */
  Desktop(String display, Path scratch) {
    this.display = display;
    this.scratch = scratch;
  }

  String display() {
    return display;
  }

  /** The screen's size in pixels: {width, height}. */
  int[] geometry() {
    String out = xdotool("getdisplaygeometry").strip();
    String[] parts = out.split("\\s+");
    try {
      return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot read the screen's size from xdotool: '" + out + "'");
    }
  }

  /** The whole screen at full size. */
  BufferedImage capture() {
    String importer = Subprocess.executable("import").map(Path::toString)
        .orElseThrow(() -> new IllegalStateException(MISSING_IMPORT));
    Path file;
    try {
      Files.createDirectories(scratch);
      file = Files.createTempFile(scratch, "screen-", ".png");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a screenshot in " + scratch + ": " + e.getMessage(), e);
    }
    try {
      run(List.of(importer, "-display", display, "-window", "root", "png:" + file), "import");
      BufferedImage image = ImageIO.read(file.toFile());
      if (image == null) {
        throw new IllegalStateException("the screenshot could not be read");
      }
      return image;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the screenshot: " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // a stray file in the scratch folder, removed with the session
      }
    }
  }

  /** tesseract's words on {@code image} (a full-size screenshot). */
  OcrWords read(BufferedImage image) {
    String tesseract = Subprocess.executable("tesseract").map(Path::toString)
        .orElseThrow(() -> new IllegalStateException(MISSING_TESSERACT));
    Path file;
    try {
      Files.createDirectories(scratch);
      file = Files.createTempFile(scratch, "ocr-", ".png");
      Files.write(file, Screenshots.png(Screenshots.forOcr(image)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a screenshot in " + scratch + ": " + e.getMessage(), e);
    }
    try {
      Path out = Path.of(file + ".out");
      Subprocess.Result r = Subprocess.run(List.of(tesseract, file.toString(), out.toString(), "--psm", "11",
          "tsv"), scratch,
          Map.of(), COMMAND_TIMEOUT);
      Path tsv = Path.of(out + ".tsv");
      if (!r.ok() || !Files.exists(tsv)) {
        throw new IllegalStateException("tesseract failed: " + (r.timedOut() ? "timed out" : r.lastLine()));
      }
      String text = Files.readString(tsv);
      Files.deleteIfExists(tsv);
      return OcrWords.parseTsv(text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read tesseract's result: " + e.getMessage(), e);
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // removed with the session's scratch folder
      }
    }
  }

  void move(int x, int y) {
    xdotool("mousemove", Integer.toString(x), Integer.toString(y));
  }

  /** {@code button}: 1 left, 2 middle, 3 right, 4/5 wheel up/down, 6/7 wheel left/right. */
  void click(int button, int clicks) {
    xdotool("click", "--repeat", Integer.toString(clicks), "--delay", "80", Integer.toString(button));
  }

  void drag(int x1, int y1, int x2, int y2) {
    xdotool("mousemove", Integer.toString(x1), Integer.toString(y1), "mousedown", "1",
        "mousemove", Integer.toString((x1 + x2) / 2), Integer.toString((y1 + y2) / 2),
        "mousemove", Integer.toString(x2), Integer.toString(y2), "mouseup", "1");
  }

  /** The pointer's position, {x, y}. */
  int[] pointer() {
    String out = xdotool("getmouselocation", "--shell");
    int x = -1;
    int y = -1;
    for (String line : out.split("\n")) {
      if (line.startsWith("X=")) {
        x = Integer.parseInt(line.substring(2).strip());
      } else if (line.startsWith("Y=")) {
        y = Integer.parseInt(line.substring(2).strip());
      }
    }
    if (x < 0 || y < 0) {
      throw new IllegalStateException("cannot read the pointer's position from xdotool: '" + out.strip() + "'");
    }
    return new int[] {x, y};
  }

  void type(String text) {
    xdotool("type", "--delay", "12", "--", text);
  }

  /** One chord as xdotool names keys ({@link KeyNames}). */
  void key(String chord) {
    xdotool("key", "--clearmodifiers", "--", chord);
  }

  private String xdotool(String... args) {
    String xdotool = Subprocess.executable("xdotool").map(Path::toString)
        .orElseThrow(() -> new IllegalStateException(MISSING_XDOTOOL));
    List<String> argv = new ArrayList<>();
    argv.add(xdotool);
    argv.addAll(List.of(args));
    return run(argv, "xdotool " + args[0]);
  }

  private String run(List<String> argv, String what) {
    Subprocess.Result r = Subprocess.run(argv, scratch.getParent() != null && Files.isDirectory(scratch.getParent())
        ? scratch.getParent() : null, Map.of("DISPLAY", display), COMMAND_TIMEOUT);
    if (r.timedOut()) {
      throw new IllegalStateException(what + " did not finish within " + COMMAND_TIMEOUT.toSeconds() + " s");
    }
    if (!r.ok()) {
      throw new IllegalStateException(what + " failed on display " + display + ": " + r.lastLine());
    }
    return r.output();
  }
}
