package io.interpreter4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code i4j resume} as a real child process, of a session whose block output lives only in the journal. */
class ResumeTest {
  @TempDir Path tmp;

  private CliProcess.Result i4j(String... args) throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    return CliProcess.finish(CliProcess.start(work, tmp.resolve("data"), tmp.resolve("config"), Map.of(), args),
        null, Duration.ofSeconds(90));
  }

  @Test
  void aBlockWithoutAnOutputFileIsShownAgainFromTheJournal() throws Exception {
    Path cassette = Files.writeString(tmp.resolve("c.json"), "{\"turns\": ["
        + "{\"reply\": \"```python\\nprint('only-in-the-journal-' + str(6 * 7))\\n```\"},"
        + "{\"expect\": \"only-in-the-journal-42\", \"reply\": \"It printed its line.\"}]}");
    CliProcess.Result run = i4j("run", "-y", "-m", "replay:" + cassette, "print a line");
    assertEquals(0, run.exit(), run.stderr());

    Path session;
    try (Stream<Path> sessions = Files.list(tmp.resolve("data/sessions"))) {
      session = sessions.findFirst().orElseThrow();
    }
    List<EventPayload.ExecFinished> finished = Files.readAllLines(session.resolve("events.jsonl")).stream()
        .map(EventCodec::fromJson).map(Event::payload).filter(EventPayload.ExecFinished.class::isInstance)
        .map(EventPayload.ExecFinished.class::cast).toList();
    assertEquals(1, finished.size());
    assertEquals(null, finished.get(0).output_file(), "the whole output is in the output events");
    assertTrue(Files.notExists(session.resolve("outputs")), "no output file was made");

    CliProcess.Result resumed = i4j("resume");
    assertEquals(0, resumed.exit(), resumed.stderr());
    assertTrue(resumed.stdout().contains("only-in-the-journal-42"), "the recap shows the block's output: "
        + resumed.stdout());
    assertTrue(resumed.stdout().contains("resumed session " + session.getFileName()), resumed.stdout());
  }
}
