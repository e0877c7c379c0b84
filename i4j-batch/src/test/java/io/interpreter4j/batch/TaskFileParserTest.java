package io.interpreter4j.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.batch.TaskFileParser.Format;
import io.interpreter4j.batch.TaskFileParser.ParseError;
import io.interpreter4j.batch.TaskFileParser.ParseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskFileParserTest {

  @TempDir Path dir;

  @BeforeEach
  void files() throws Exception {
    Files.createDirectories(dir.resolve("work"));
    Files.writeString(dir.resolve("ok.json"), "{\"turns\": [{\"reply\": \"hi\"}]}");
    Files.writeString(dir.resolve("broken.json"), "{\"turns\": []}");
  }

  private ParseResult parse(String text) {
    return TaskFileParser.parse(text, dir);
  }

  private static String messages(ParseResult r) {
    return r.errors().toString();
  }

  @Test
  void readsEveryFieldAndResolvesPathsAgainstTheFilesFolder() {
    ParseResult r = parse("""
        {"id": "t1", "prompt": "do it", "model": "openai/gpt-4o", "workdir": "work", "timeout_s": 1.5, \
        "max_iterations": 3}
        {"id": "t2", "prompt": "replay it", "cassette": "ok.json"}
        """);
    assertTrue(r.valid(), messages(r));
    assertEquals(Format.JSONL, r.format());
    BatchTask t1 = r.tasks().get(0);
    assertEquals("t1", t1.id());
    assertEquals(1, t1.line());
    assertEquals("do it", t1.prompt());
    assertEquals("openai/gpt-4o", t1.modelSpec());
    assertEquals(dir.resolve("work").toAbsolutePath().normalize(), t1.workdir());
    assertEquals(Duration.ofMillis(1500), t1.timeout());
    assertEquals(3, t1.maxIterations());
    BatchTask t2 = r.tasks().get(1);
    assertEquals("replay:" + dir.resolve("ok.json").toAbsolutePath().normalize(), t2.modelSpec());
    assertNull(t2.timeout());
  }

  @Test
  void plainTextIsOnePromptALineWithLineNumbersAsIdsAndBlankLinesSkipped() {
    ParseResult r = parse("list the files\n\n  \ncount the lines of README.md\r\n");
    assertTrue(r.valid());
    assertEquals(Format.TEXT, r.format());
    assertEquals(List.of("1", "4"), r.tasks().stream().map(BatchTask::id).toList());
    assertEquals("count the lines of README.md", r.tasks().get(1).prompt());
  }

  @Test
  void theFirstNonBlankLineDecidesTheFormat() {
    ParseResult r = parse("\n\n  {\"prompt\": \"a\"}\nnot json\n");
    assertEquals(Format.JSONL, r.format());
    assertEquals(List.of(4), r.errors().stream().map(ParseError::line).toList());
    assertEquals("3", r.tasks().get(0).id(), "a JSONL task without an id is named by its line");
  }

  @Test
  void everyBadLineIsReportedWithItsNumberAndWhatIsWrong() {
    ParseResult r = parse("""
        {"id": "a", "prompt": "fine"}
        {"id": "b", "prompt": "broken
        {"id": "c"}
        {"id": "d", "prompt": "   "}
        {"id": "a", "prompt": "again"}
        {"id": "e", "prompt": "x", "colour": "red"}
        {"id": 7, "prompt": "x"}
        {"id": "f", "prompt": "x", "timeout_s": 0}
        {"id": "g", "prompt": "x", "timeout_s": "10"}
        {"id": "h", "prompt": "x", "max_iterations": 0}
        {"id": "i", "prompt": "x", "max_iterations": 2.5}
        {"id": "j", "prompt": "x", "cassette": "missing.json"}
        {"id": "k", "prompt": "x", "workdir": "nowhere"}
        {"id": "l", "prompt": "x", "cassette": "broken.json"}
        {"id": "m", "prompt": "x", "cassette": "ok.json", "model": "openai/gpt-4o"}
        ["not", "an", "object"]
        {"id": "n", "prompt": "x", "prompt": "twice"}
        {"id": "o", "prompt": "fine too"}
        """);
    assertEquals(List.of("a", "o"), r.tasks().stream().map(BatchTask::id).toList());
    assertEquals(16, r.invalidLines());
    assertError(r, 2, "not valid JSON");
    assertError(r, 3, "missing \"prompt\"");
    assertError(r, 4, "\"prompt\" is blank");
    assertError(r, 5, "duplicate id \"a\" (first used on line 1)");
    assertError(r, 6, "unknown field \"colour\"");
    assertError(r, 7, "\"id\" must be a string");
    assertError(r, 8, "\"timeout_s\" must be more than 0");
    assertError(r, 9, "\"timeout_s\" must be a number");
    assertError(r, 10, "\"max_iterations\" must be at least 1");
    assertError(r, 11, "\"max_iterations\" must be a whole number");
    assertError(r, 12, "cassette file " + dir.resolve("missing.json").toAbsolutePath().normalize() + " not found");
    assertError(r, 13, "workdir " + dir.resolve("nowhere").toAbsolutePath().normalize() + " does not exist");
    assertError(r, 14, "\"turns\" is empty");
    assertError(r, 15, "either \"model\" or \"cassette\"");
    assertError(r, 16, "must be a JSON object");
    assertError(r, 17, "Duplicate field 'prompt'");
  }

  @Test
  void anEmptyFileHasNoTasksAndNoErrors() {
    ParseResult r = parse("\n \n");
    assertTrue(r.valid());
    assertTrue(r.tasks().isEmpty());
  }

  @Test
  void theFingerprintFollowsTheDefinitionNotTheLine() {
    BatchTask a = BatchTask.ofPrompt("1", 1, "same");
    BatchTask b = BatchTask.ofPrompt("1", 9, "same");
    BatchTask c = BatchTask.ofPrompt("1", 1, "changed");
    assertEquals(a.fingerprint(), b.fingerprint());
    assertTrue(!a.fingerprint().equals(c.fingerprint()));
  }

  private static void assertError(ParseResult r, int line, String fragment) {
    assertTrue(r.errors().stream().anyMatch(e -> e.line() == line && e.message().contains(fragment)),
        "expected line " + line + " to say '" + fragment + "'; errors: " + r.errors());
  }
}
