package io.interpreter4j.batch.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result lines read while a batch may be appending: whole lines only, from an offset, at most so many. */
class ResultLinesTest {
  @TempDir Path tmp;

  @Test
  void readsWholeLinesFromAnOffsetAndLeavesATornLastLine() throws Exception {
    Path file = tmp.resolve("results.jsonl");
    Files.write(file, "{\"id\":\"a\"}\n{\"id\":\"é\"}\n{\"id\":\"c\"}\n{\"id\":\"d".getBytes(StandardCharsets.UTF_8));
    assertEquals(List.of("{\"id\":\"a\"}", "{\"id\":\"é\"}", "{\"id\":\"c\"}"), ResultLines.read(file, 0, 100));
    assertEquals(List.of("{\"id\":\"é\"}", "{\"id\":\"c\"}"), ResultLines.read(file, 1, 100));
    assertEquals(List.of("{\"id\":\"é\"}"), ResultLines.read(file, 1, 1));
    assertEquals(List.of(), ResultLines.read(file, 3, 100));
    assertEquals(3, ResultLines.count(file));
  }

  @Test
  void aMissingFileHasNoLines() throws Exception {
    assertEquals(List.of(), ResultLines.read(tmp.resolve("none"), 0, 10));
    assertEquals(0, ResultLines.count(tmp.resolve("none")));
  }
}
