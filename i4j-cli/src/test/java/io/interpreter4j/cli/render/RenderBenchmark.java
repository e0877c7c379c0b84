package io.interpreter4j.cli.render;

import io.interpreter4j.core.event.TurnStatus;

import io.interpreter4j.core.event.StreamName;

import io.interpreter4j.cli.history.SessionCatalog;
import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How fast the terminal renderer keeps up with a model and how fast {@code i4j sessions} reads a data folder.
 * Reports, never asserts; not picked up by the default test run (no Test suffix): {@code -Dtest=RenderBenchmark}.
 */
class RenderBenchmark {
  @TempDir Path tmp;

  private static final String ANSWER = """
      ## Plan

      I'll **count** the files, then `sum` their sizes. See [the docs](https://example.com/docs) for more; this
      paragraph is long enough to wrap twice on an eighty-column terminal, with *emphasis* and ~~strikes~~.

      - first step with `code`
      - second step
        - nested

      | file | size |
      |------|-----:|
      | a.py | 12 |

      ```python
      import os, sys  # tools
      total = sum(os.path.getsize(f) for f in os.listdir('.') if os.path.isfile(f))
      print(f"{total:,} bytes in {len(os.listdir('.'))} entries")
      ```
      """;

  @Test
  void streamingMarkdownThroughTheTerminalRenderer() {
    PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
    TerminalRenderer renderer = new TerminalRenderer(sink, () -> 80, () -> 40, false, false);
    int answers = 2000;
    int chunk = 4;
    for (int round = 0; round < 2; round++) {
      long chars = 0;
      long start = System.nanoTime();
      for (int a = 0; a < answers; a++) {
        for (int i = 0; i < ANSWER.length(); i += chunk) {
          renderer.accept(new Event("s", 0, Instant.EPOCH,
              new EventPayload.AssistantDelta(ANSWER.substring(i, Math.min(ANSWER.length(), i + chunk)))));
        }
        renderer.accept(new Event("s", 0, Instant.EPOCH, new EventPayload.TurnFinished(TurnStatus.DONE, 1, null)));
        chars += ANSWER.length();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("render (%s): %,d chars in %d-char deltas: %.2f s, %,.0f chars/s, %.1f us a delta%n",
          round == 0 ? "cold" : "warm", chars, chunk, seconds, chars / seconds, seconds * 1e6 / (chars / chunk));
    }
  }

  @Test
  void listingAThousandSessions() throws Exception {
    Path data = tmp.resolve("data");
    String output = "x".repeat(200) + "\\n";
    for (int s = 0; s < 1000; s++) {
      String id = String.format("20260101-%06d-abcdef", s);
      Path file = data.resolve("sessions").resolve(id).resolve("events.jsonl");
      Files.createDirectories(file.getParent());
      StringBuilder sb = new StringBuilder();
      int seq = 0;
      sb.append(EventCodec.toJson(new Event(id, ++seq, Instant.EPOCH.plusSeconds(s),
          new EventPayload.SessionStarted("m", "/w")))).append('\n');
      for (int t = 0; t < 5; t++) {
        sb.append(EventCodec.toJson(new Event(id, ++seq, Instant.EPOCH, new EventPayload.UserMessage("task " + t))))
            .append('\n');
        for (int o = 0; o < 100; o++) {
          sb.append(EventCodec.toJson(new Event(id, ++seq, Instant.EPOCH,
              new EventPayload.Output(1, StreamName.STDOUT, output)))).append('\n');
        }
        sb.append(EventCodec.toJson(new Event(id, ++seq, Instant.EPOCH,
            new EventPayload.TurnFinished(TurnStatus.DONE, 1, null)))).append('\n');
      }
      Files.writeString(file, sb);
    }
    long bytes;
    try (var files = Files.walk(data)) {
      bytes = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
    for (int round = 0; round < 2; round++) {
      long start = System.nanoTime();
      int n = SessionCatalog.list(data).size();
      System.out.printf("i4j sessions (%s): %d sessions, %,d MB of journals: %d ms%n", round == 0 ? "cold" : "warm",
          n, bytes >> 20, (System.nanoTime() - start) / 1_000_000);
    }
  }
}
