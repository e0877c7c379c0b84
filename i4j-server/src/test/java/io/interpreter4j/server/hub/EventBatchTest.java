package io.interpreter4j.server.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch's bytes are its events' frames one after the other; a client that has some of them gets the rest. */
class EventBatchTest {
  private static final EventLine ONE = new EventLine("s", 1, "{\"seq\":1,\"type\":\"session_started\"}");
  private static final EventLine TWO = new EventLine("s", 2, "{\"seq\":2,\"type\":\"output\",\"text\":\"é\\n\"}");
  private static final EventLine THREE = new EventLine("s", 3, "{\"seq\":3}");

  @Test
  void theFramesOfABatchAreItsEventsFramesOneAfterTheOther() {
    EventBatch batch = new EventBatch(List.of(ONE, TWO, THREE));
    assertEquals("id: 1\ndata: {\"seq\":1,\"type\":\"session_started\"}\n\n"
            + "id: 2\ndata: {\"seq\":2,\"type\":\"output\",\"text\":\"é\\n\"}\n\n"
            + "id: 3\ndata: {\"seq\":3}\n\n",
        batch.sseFrames(true).utf8String());
    assertEquals("data: {\"seq\":1,\"type\":\"session_started\"}\n\n"
            + "data: {\"seq\":2,\"type\":\"output\",\"text\":\"é\\n\"}\n\n"
            + "data: {\"seq\":3}\n\n",
        batch.sseFrames(false).utf8String());
    assertSame(batch.sseFrames(true), batch.sseFrames(true), "made once, shared by every client");
    assertEquals(ONE.sseFrame(true), EventBatch.of(ONE).sseFrames(true), "one event: its own frame");
  }

  @Test
  void aClientGetsOnlyTheEventsItHasNotSeen() {
    EventBatch batch = new EventBatch(List.of(ONE, TWO, THREE));
    assertSame(batch, batch.after(0));
    assertEquals(List.of(TWO, THREE), batch.after(1).lines());
    assertEquals("id: 3\ndata: {\"seq\":3}\n\n", batch.after(2).sseFrames(true).utf8String());
    assertNull(batch.after(3));
    assertNull(batch.after(9));
    assertEquals(1, batch.firstSeq());
    assertEquals(3, batch.lastSeq());
  }

  @Test
  void aBatchHasAtLeastOneEvent() {
    assertThrows(IllegalArgumentException.class, () -> new EventBatch(List.of()));
  }
}
