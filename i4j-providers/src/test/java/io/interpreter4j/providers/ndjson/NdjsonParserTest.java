package io.interpreter4j.providers.ndjson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** JSON lines cut anywhere: inside a line, inside a UTF-8 character, between CR and LF. */
class NdjsonParserTest {

  @Test
  void linesCutAtEveryByteComeOutWhole() {
    byte[] stream = "{\"a\":\"héllo ✓\"}\r\n\n{\"done\":true}\n".getBytes(StandardCharsets.UTF_8);
    for (int cut = 1; cut < stream.length; cut++) {
      NdjsonParser parser = new NdjsonParser(1024);
      List<String> lines = new ArrayList<>(parser.feed(Arrays.copyOfRange(stream, 0, cut)));
      lines.addAll(parser.feed(Arrays.copyOfRange(stream, cut, stream.length)));

      assertEquals(List.of("{\"a\":\"héllo ✓\"}", "{\"done\":true}"), lines, "cut at " + cut);
    }
  }

  @Test
  void aLineWithoutItsEndIsHeldBack() {
    NdjsonParser parser = new NdjsonParser(1024);

    assertEquals(List.of("{\"a\":1}"), parser.feed("{\"a\":1}\n{\"a\":".getBytes(StandardCharsets.UTF_8)));
    assertEquals(List.of(), parser.feed("2}".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aLineLongerThanTheBoundFailsAndNamesTheSetting() {
    NdjsonParser parser = new NdjsonParser(8);

    NdjsonParser.NdjsonException e = assertThrows(NdjsonParser.NdjsonException.class,
        () -> parser.feed("{\"long\":\"line\"}".getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains("longer than 8 bytes"), e.getMessage());
    assertTrue(e.getMessage().contains("max-event-size"), e.getMessage());
  }
}
