package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chat or a resume on a closed stdin (Ctrl-D at once): no library log lines, and no session left behind. */
class ClosedStdinTest {
  @TempDir Path tmp;

  private CliProcess.Result i4j(String stdin, String... args) throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    return CliProcess.finish(CliProcess.start(work, tmp.resolve("data"), tmp.resolve("config"), Map.of(), args),
        stdin, Duration.ofSeconds(90));
  }

  @Test
  void aChatWhereNothingWasSaidLeavesNoSessionAndNoLogLines() throws Exception {
    Path cassette = Files.writeString(tmp.resolve("hello.json"), "{\"turns\": [{\"reply\": \"Hello there.\"}]}");
    CliProcess.Result chat = i4j(null, "-m", "replay:" + cassette);
    assertEquals(0, chat.exit(), chat.stderr());
    assertFalse(chat.stderr().contains("org.jline") || chat.stderr().contains("WARNING"),
        "no library log lines: " + chat.stderr());
    assertTrue(i4j(null, "sessions").stdout().startsWith("no sessions yet"), "nothing was said, nothing is kept");

    CliProcess.Result run = i4j(null, "run", "-m", "replay:" + cassette, "say hello");
    assertEquals(0, run.exit(), run.stderr());
    CliProcess.Result resumed = i4j(null, "resume");
    assertEquals(0, resumed.exit(), resumed.stderr());
    String listed = i4j(null, "sessions").stdout();
    assertEquals(2, listed.lines().count(), "the header and the one session something was said in: " + listed);
    assertTrue(listed.contains("say hello"), listed);
    try (var sessions = Files.list(tmp.resolve("data/sessions"))) {
      assertEquals(1, sessions.count(), "the resume where nothing was said left no folder");
    }
  }
}
