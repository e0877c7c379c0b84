package io.interpreter4j.cluster.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.interpreter4j.server.hub.EventLine;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mirror's waiting events: gathered by session in order, cut by count and by size. */
class WaitingEventsTest {

  @Test
  void gathersEachSessionsEventsInOrderSessionsInTheOrderTheyCame() {
    WaitingEvents waiting = new WaitingEvents(256, 1 << 20)
        .add(line("b", 1)).add(line("a", 7)).add(line("b", 2)).add(line("a", 8)).add(line("b", 3));
    assertEquals(5, waiting.count());
    List<WaitingEvents.Batch> batches = waiting.batches();
    assertEquals(List.of("b", "a"), batches.stream().map(WaitingEvents.Batch::session).toList());
    assertEquals(List.of(1L, 2L, 3L), seqs(batches.get(0)));
    assertEquals(List.of(7L, 8L), seqs(batches.get(1)));
    assertEquals("{\"n\":8}", batches.get(1).entries().get(1).json());
    assertEquals(8, batches.get(1).lastSeq());
  }

  @Test
  void cutsASessionsEventsIntoBatchesOfAtMostMaxEvents() {
    WaitingEvents waiting = new WaitingEvents(2, 1 << 20);
    for (long seq = 1; seq <= 5; seq++) {
      waiting.add(line("s", seq));
    }
    assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(5L)),
        waiting.batches().stream().map(WaitingEventsTest::seqs).toList());
  }

  @Test
  void cutsByCharactersAndLetsALongerEventGoAlone() {
    // each line {"n":N} is 7 characters; the long one 107
    WaitingEvents waiting = new WaitingEvents(100, 20)
        .add(line("s", 1)).add(line("s", 2)).add(new EventLine("s", 3, "{\"t\":\"" + "x".repeat(99) + "\"}"))
        .add(line("s", 4)).add(line("s", 5)).add(line("s", 6));
    assertEquals(List.of(List.of(1L, 2L), List.of(3L), List.of(4L, 5L), List.of(6L)),
        waiting.batches().stream().map(WaitingEventsTest::seqs).toList());
  }

  @Test
  void refusesABatchThatCouldHoldNothing() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WaitingEvents(0, 10));
    assertEquals("a batch holds at least one event of at least one character, not 0 events of 10", e.getMessage());
  }

  private static EventLine line(String session, long seq) {
    return new EventLine(session, seq, "{\"n\":" + seq + "}");
  }

  private static List<Long> seqs(WaitingEvents.Batch batch) {
    return batch.entries().stream().map(e -> e.seq()).toList();
  }
}
