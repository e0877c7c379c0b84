package io.interpreter4j.core.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.replay.Cassette.Turn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CassetteTest {

  @Test
  void parsesTurnsWithDefaults() {
    Cassette cassette = Cassette.parse("""
        {"turns": [
          {"reply": "Hello"},
          {"expect": "exit code \\\\d+", "reply": "```python\\nprint(1)\\n```", "chunk_chars": 2, "delay_ms": 15}
        ]}""", "inline");

    assertEquals("inline", cassette.source());
    assertEquals(List.of(
        new Turn(null, "Hello", 4, 0),
        new Turn("exit code \\d+", "```python\nprint(1)\n```", 2, 15)), cassette.turns());
    assertNull(cassette.turns().get(0).expect());
    assertTrue(cassette.turns().get(0).expectPattern().isEmpty());
  }

  @Test
  void loadsAFileAndNamesItAsGiven(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hello.json");
    Files.writeString(file, "{\"turns\": [{\"reply\": \"hi\"}]}");

    Cassette cassette = Cassette.load(file);

    assertEquals(file.toString(), cassette.source());
    assertEquals(List.of(Turn.of("hi")), cassette.turns());
  }

  @Test
  void writesTheFormatItReads() {
    List<Turn> turns = List.of(Turn.of("```python\nprint(1)\n```"), new Turn("exit code \\d+", "done", 2, 15));

    String json = new String(new Cassette("recorded", turns).toJson(), StandardCharsets.UTF_8);

    assertEquals("""
        {
          "turns" : [ {
            "reply" : "```python\\nprint(1)\\n```",
            "chunk_chars" : 4,
            "delay_ms" : 0
          }, {
            "expect" : "exit code \\\\d+",
            "reply" : "done",
            "chunk_chars" : 2,
            "delay_ms" : 15
          } ]
        }""".replace("\n", System.lineSeparator()), json);
    assertEquals(turns, Cassette.parse(json, "recorded").turns());
  }

  @Test
  void aMissingFileNamesThePath(@TempDir Path dir) {
    Path file = dir.resolve("nope.json");
    CassetteException e = assertThrows(CassetteException.class, () -> Cassette.load(file));
    assertTrue(e.getMessage().startsWith("cassette " + file + ": cannot read the file"), e.getMessage());
    assertTrue(e.getMessage().contains("check the path"), e.getMessage());
  }

  @Test
  void badTurnsInAFileNameTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.json");
    Files.writeString(file, "{\"turns\": [{\"reply\": \"a\", \"chunk_chars\": 0}]}");
    CassetteException e = assertThrows(CassetteException.class, () -> Cassette.load(file));
    assertEquals("cassette " + file + ": turn 1: \"chunk_chars\" is 0; use a whole number of at least 1 (default 4)",
        e.getMessage());
  }

  /** json, what the message must contain after "cassette bad.json: ". */
  static Stream<Arguments> badCassettes() {
    return Stream.of(
        Arguments.of("{\"turns\": [{\"reply\": \"a\", \"chunkChars\": 2}]}",
            "turn 1: unknown field \"chunkChars\"; the allowed fields are expect, expect_images, reply, chunk_chars, delay_ms"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\"}], \"model\": \"x\"}",
            "unknown top-level field \"model\"; the only top-level field is \"turns\""),
        Arguments.of("{\"turns\": [{\"reply\": \"a\"}, {\"expect\": \"x\"}]}",
            "turn 2: missing \"reply\"; add the markdown text the model should answer"),
        Arguments.of("{\"turns\": [{\"reply\": 3}]}",
            "turn 1: \"reply\" must be a string, found 3"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\", \"chunk_chars\": -1}]}",
            "turn 1: \"chunk_chars\" is -1; use a whole number of at least 1 (default 4)"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\", \"chunk_chars\": \"4\"}]}",
            "turn 1: \"chunk_chars\" is \"4\"; use a whole number of at least 1 (default 4)"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\", \"chunk_chars\": 2.5}]}",
            "turn 1: \"chunk_chars\" is 2.5; use a whole number of at least 1 (default 4)"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\", \"delay_ms\": -5}]}",
            "turn 1: \"delay_ms\" is -5; use a whole number of at least 0 (default 0)"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\"}, {\"reply\": \"b\", \"expect\": \"run (this\"}]}",
            "turn 2: \"expect\" is not a valid Java regex: Unclosed group near index 9 of /run (this/;"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\", \"expect\": [\"x\"]}]}",
            "turn 1: \"expect\" must be a string (a Java regex), found [\"x\"]"),
        Arguments.of("{\"turns\": [\"hello\"]}",
            "turn 1: must be an object like {\"reply\": \"...\"}, found \"hello\""),
        Arguments.of("{\"turns\": []}",
            "\"turns\" is empty; add at least one turn with a \"reply\""),
        Arguments.of("{\"turns\": {\"reply\": \"a\"}}",
            "missing \"turns\" array;"),
        Arguments.of("{}",
            "missing \"turns\" array;"),
        Arguments.of("[{\"reply\": \"a\"}]",
            "the top level must be an object;"),
        Arguments.of("",
            "the top level must be an object;"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\"}",
            "not valid JSON at line 1"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\", \"reply\": \"b\"}]}",
            "not valid JSON at line 1"),
        Arguments.of("{\"turns\": [{\"reply\": \"a\"}]} {}",
            "not valid JSON at line 1"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badCassettes")
  void badCassettesGiveClearErrors(String json, String expected) {
    CassetteException e = assertThrows(CassetteException.class, () -> Cassette.parse(json, "bad.json"));
    assertTrue(e.getMessage().startsWith("cassette bad.json: " + expected), e.getMessage());
    assertTrue(e instanceof IllegalArgumentException);
  }

  @Test
  void turnRejectsImpossibleValues() {
    assertThrows(IllegalArgumentException.class, () -> new Turn(null, null, 4, 0));
    assertThrows(IllegalArgumentException.class, () -> new Turn(null, "a", 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new Turn(null, "a", 4, -1));
  }

  @Test
  void expectImagesIsReadAndWrittenBack() {
    Cassette cassette = Cassette.parse("{\"turns\": [{\"expect_images\": 2, \"reply\": \"ok\"}, {\"reply\": \"no\"}]}",
        "c.json");

    assertEquals(2, cassette.turns().get(0).expectImages());
    assertEquals(null, cassette.turns().get(1).expectImages());
    Cassette again = Cassette.parse(new String(cassette.toJson(), java.nio.charset.StandardCharsets.UTF_8), "c.json");
    assertEquals(cassette.turns(), again.turns());
  }

  @Test
  void aNegativeExpectImagesIsRefused() {
    CassetteException e = org.junit.jupiter.api.Assertions.assertThrows(CassetteException.class,
        () -> Cassette.parse("{\"turns\": [{\"expect_images\": -1, \"reply\": \"ok\"}]}", "c.json"));

    assertEquals("cassette c.json: turn 1: \"expect_images\" is -1; use a whole number of at least 0 (leave it out to "
        + "accept any number)", e.getMessage());
  }
}
