package io.interpreter4j.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.interpreter4j.server.hub.EventLine;
import org.junit.jupiter.api.Test;

class SseTest {

  @Test
  void framesCarryTheSeqAsIdAndTheJsonAsData() {
    assertEquals("id: 7\ndata: {\"seq\":7}\n\n", Sse.frame(new EventLine("s", 7, "{\"seq\":7}"), true).utf8String());
    assertEquals("data: {\"seq\":7}\n\n", Sse.frame(new EventLine("s", 7, "{\"seq\":7}"), false).utf8String());
    assertEquals("id: 1\ndata: a\ndata: b\n\n", Sse.frame(new EventLine("s", 1, "a\nb"), true).utf8String());
    assertEquals(": keep-alive\n\n", Sse.KEEP_ALIVE.utf8String());
  }

  @Test
  void lastEventIdMustBeASeq() {
    assertEquals(12, EventRoutes.seq(" 12 "));
    assertEquals(0, EventRoutes.seq(""));
    org.junit.jupiter.api.Assertions.assertThrows(ApiError.class, () -> EventRoutes.seq("x"));
    org.junit.jupiter.api.Assertions.assertThrows(ApiError.class, () -> EventRoutes.seq("-3"));
  }

  @Test
  void errorCodesComeFromReasonPhrases() {
    assertEquals("method_not_allowed", ApiErrors.code("Method Not Allowed"));
    assertEquals("unsupported_media_type", ApiErrors.code("Unsupported Media Type"));
  }
}
