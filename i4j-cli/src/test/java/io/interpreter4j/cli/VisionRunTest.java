package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code i4j run} as a child process on a replay cassette whose python block (the python3 on PATH) writes a 3x2 PNG
 * with the standard library and shows it, and whose next turn expects one image: {@code --vision} and
 * {@code I4J_VISION} reach the replay model.
 */
class VisionRunTest {
  private static final String BLOCK = String.join("\n",
      "import struct, zlib",
      "def chunk(kind, data):",
      "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))",
      "rows = b''.join(b'\\x00' + b'\\xff\\x00\\x00' * 3 for _ in range(2))",
      "open('red.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 3, 2, 8, 2, 0, 0, 0))"
          + " + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))",
      "display('red.png')");

  @TempDir Path tmp;
  private Path work;
  private Path cassette;

  @BeforeEach
  void setUp() throws Exception {
    work = Files.createDirectories(tmp.resolve("work"));
    cassette = tmp.resolve("vision.json");
    Files.writeString(cassette, new ObjectMapper().writeValueAsString(Map.of("turns", List.of(
        Map.of("reply", "```python\n" + BLOCK + "\n```\n"),
        Map.of("expect", "\\[image 3x2 PNG: ", "expect_images", 1, "reply", "A red picture.")))));
  }

  private CliProcess.Result run(Map<String, String> env, String... args) throws Exception {
    return CliProcess.finish(CliProcess.start(work, tmp.resolve("data"), tmp.resolve("config"), env, args), null,
        Duration.ofSeconds(90));
  }

  @Test
  void theReplayModelSeesTheImageUnlessVisionIsOff() throws Exception {
    CliProcess.Result seeing = run(Map.of(), "run", "-y", "--json", "-m", "replay:" + cassette, "draw");
    assertEquals(0, seeing.exit(), seeing.stdout() + seeing.stderr());
    assertTrue(seeing.stdout().contains("A red picture."), seeing.stdout());

    CliProcess.Result blind = run(Map.of(), "run", "-y", "--json", "--vision", "off", "-m", "replay:" + cassette,
        "draw");
    assertEquals(1, blind.exit(), blind.stdout() + blind.stderr());
    assertTrue(blind.stdout().contains("cassette mismatch at turn 2: expected 1 image(s), got 0"), blind.stdout());

    CliProcess.Result blindByEnv = run(Map.of("I4J_VISION", "off"), "run", "-y", "--json", "-m",
        "replay:" + cassette, "draw");
    assertEquals(1, blindByEnv.exit(), blindByEnv.stdout() + blindByEnv.stderr());
    assertTrue(blindByEnv.stdout().contains("expected 1 image(s), got 0"), blindByEnv.stdout());

    CliProcess.Result bad = run(Map.of(), "run", "--vision", "sometimes", "-m", "replay:" + cassette, "x");
    assertEquals(2, bad.exit());
    assertTrue(bad.stderr().contains("'sometimes' is not on, off or auto"), bad.stderr());
  }
}
