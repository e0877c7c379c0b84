package io.interpreter4j.providers.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {

  private static final String STREAM = "\uFEFF: comment line\n"
      + "event: content_block_delta\r\n"
      + "id: 7\r\n"
      + "data: first line\r\n"
      + "data:second line\r\n"
      + "data:  two spaces\r\n"
      + "\r\n"
      + "data: lone CR ends\rdata: a line\r\r"
      + "retry: 3000\n"
      + "data\n"
      + "\n"
      + "event: ping\n\n"
      + "data: ünïcödé \uD83C\uDF0D\n\n"
      + "data: never finished";

  private static final List<SseEvent> EXPECTED = List.of(
      new SseEvent("content_block_delta", "first line\nsecond line\n two spaces", "7"),
      new SseEvent("message", "lone CR ends\na line", "7"),
      new SseEvent("message", "", "7"),
      new SseEvent("message", "ünïcödé \uD83C\uDF0D", "7"));

  @Test
  void parsesAWholeStream() {
    assertEquals(EXPECTED, new SseParser(1 << 20).feed(STREAM));
  }

  @Test
  void eventsCutAtEveryByteBoundaryParseTheSame() {
    byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
    for (int size = 1; size <= 9; size++) {
      SseParser parser = new SseParser(1 << 20);
      List<SseEvent> events = new ArrayList<>();
      for (int i = 0; i < bytes.length; i += size) {
        byte[] piece = java.util.Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + size));
        events.addAll(parser.feed(piece));
      }
      assertEquals(EXPECTED, events, "pieces of " + size + " bytes");
    }
  }

  @Test
  void crlfCutBetweenCrAndLfIsOneLineEnd() {
    SseParser parser = new SseParser(1024);
    List<SseEvent> events = new ArrayList<>();
    events.addAll(parser.feed("data: a\r"));
    events.addAll(parser.feed("\n\r"));
    events.addAll(parser.feed("\ndata: b\r\n\r\n"));
    assertEquals(List.of(SseEvent.message("a"), SseEvent.message("b")), events);
  }

  @Test
  void commentsAndFieldlessEventsDispatchNothing() {
    assertEquals(List.of(), new SseParser(1024).feed(": keep-alive\n\n: another\r\n\r\nevent: x\nid: 1\n\n"));
  }

  @Test
  void anEventTypeDoesNotLeakIntoTheNextEvent() {
    assertEquals(List.of(new SseEvent("a", "1", ""), SseEvent.message("2")),
        new SseParser(1024).feed("event: a\ndata: 1\n\ndata: 2\n\n"));
  }

  @Test
  void oversizedEventsAndLinesFail() {
    assertThrows(SseParser.SseException.class, () -> new SseParser(16).feed("data: " + "x".repeat(20) + "\n"));
    assertThrows(SseParser.SseException.class, () -> new SseParser(16).feed("data: 0123456789\ndata: 0123456789\n"));
  }
}
