package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --inline-images} through real {@code i4j run} and {@code i4j show} processes: a python block (the python3 on
 * the PATH) shows a 3x2 PNG; with pictures on, a sixel picture follows its {@code image} line (the environment names
 * a sixel terminal and empties the variables of the others, so the choice does not depend on where the test runs).
 */
class InlineImagesTest {
  @TempDir Path tmp;

  /** A sixel terminal, and the variables that would name another emptied (an empty variable counts as unset). */
  static final Map<String, String> FOOT = Map.of("TERM", "foot", "KITTY_WINDOW_ID", "", "TMUX", "",
      "TERM_PROGRAM", "", "LC_TERMINAL", "", "KONSOLE_VERSION", "");

  static final String BLOCK = """
      import struct, zlib
      def chunk(kind, data):
          return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
      rows = b"".join(b"\\\\x00" + b"\\\\xff\\\\x00\\\\x00" * 3 for _ in range(2))
      with open("red.png", "wb") as f:
          f.write(b"\\\\x89PNG\\\\r\\\\n\\\\x1a\\\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 3, 2, 8, 2, 0, 0, 0))
                  + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
      display("red.png")
      """;

  /** The picture of the 3x2 red image: one red register; each column paints the band's top two rows (B = 63 + 0b11). */
  static final String SIXEL = "\u001bP0;1;0q\"1;1;3;2#0;2;100;0;0#0BBB\u001b\\";

  private CliProcess.Result i4j(String... args) throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    return CliProcess.finish(CliProcess.start(work, tmp.resolve("data"), tmp.resolve("config"), FOOT, args), null,
        Duration.ofSeconds(90));
  }

  @Test
  void withPicturesOnASixelPictureFollowsTheImageLineInRunAndShow() throws Exception {
    Path cassette = tmp.resolve("red.json");
    String reply = "```python\n" + BLOCK.replace("\\\\", "\\") + "```\n";
    Files.writeString(cassette, "{\"turns\": [{\"reply\": " + quote(reply) + "}, {\"reply\": \"Red.\"}]}");
    CliProcess.Result run = i4j("run", "-y", "--inline-images", "on", "--model", "replay:" + cassette, "red");
    assertEquals(0, run.exit(), run.stderr());
    Matcher line = Pattern.compile("image 3x2 · (\\S+/outputs/block-1-1\\.png)\n").matcher(run.stdout());
    assertTrue(line.find(), run.stdout());
    assertTrue(run.stdout().startsWith(SIXEL + "\n", line.end()), "the picture under its line: " + run.stdout());

    CliProcess.Result show = i4j("show", "--inline-images", "on");
    assertEquals(0, show.exit(), show.stderr());
    assertTrue(show.stdout().contains("image 3x2 · " + line.group(1) + "\n" + SIXEL + "\n"), show.stdout());

    // auto: stdout is a pipe here, so the line alone; off: the line alone
    for (String mode : List.of("auto", "off")) {
      CliProcess.Result plain = i4j("show", "--inline-images", mode);
      assertTrue(plain.stdout().contains("image 3x2 · " + line.group(1) + "\n"), plain.stdout());
      assertFalse(plain.stdout().contains("\u001bP"), mode + ": " + plain.stdout());
    }

    Files.delete(Path.of(line.group(1)));
    CliProcess.Result gone = i4j("show", "--inline-images", "on");
    assertTrue(gone.stdout().contains("image 3x2 · " + line.group(1) + "\n(picture not drawn: the file is gone)\n"),
        gone.stdout());
  }

  @Test
  void aModeThatIsNoneOfTheThreeIsAUsageError() throws Exception {
    CliProcess.Result bad = i4j("show", "--inline-images", "maybe");
    assertEquals(2, bad.exit(), bad.stderr());
    assertTrue(bad.stderr().contains("'maybe' is not on, off or auto"), bad.stderr());

    Files.createDirectories(tmp.resolve("config/interpreter4j"));
    Files.writeString(tmp.resolve("config/interpreter4j/config.conf"), "interpreter4j.terminal.inline-images = sometimes\n");
    CliProcess.Result configured = i4j("run", "-y", "--model", "replay:" + tmp.resolve("none.json"), "x");
    assertEquals(2, configured.exit(), configured.stderr());
    assertTrue(configured.stderr().contains(
        "interpreter4j.terminal.inline-images: inline images must be on, off or auto, not 'sometimes'"), configured.stderr());
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }
}
