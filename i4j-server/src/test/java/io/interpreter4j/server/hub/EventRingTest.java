package io.interpreter4j.server.hub;

import io.interpreter4j.core.event.StreamName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventPayload;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventRingTest {

  static Event event(long seq) {
    return new Event("s", seq, Instant.EPOCH, new EventPayload.AssistantDelta("x"));
  }

  private static List<Long> seqs(EventRing.Slice slice) {
    return slice.events().stream().map(Event::seq).toList();
  }

  @Test
  void keepsTheLastEventsAndSaysWhenTheJournalIsNeeded() {
    EventRing ring = new EventRing(3, Long.MAX_VALUE);
    assertEquals(0, ring.after(0).firstSeq());
    assertTrue(ring.after(0).needsJournal(0), "empty: all history is in the journal (or there is none)");
    for (long s = 1; s <= 5; s++) {
      ring.add(event(s));
    }
    EventRing.Slice all = ring.after(0);
    assertEquals(List.of(3L, 4L, 5L), seqs(all));
    assertEquals(3, all.firstSeq());
    assertTrue(all.needsJournal(0), "1 and 2 are gone from the ring");
    assertTrue(all.needsJournal(1));
    assertFalse(ring.after(2).needsJournal(2), "3 onwards is in the ring");
    assertEquals(List.of(5L), seqs(ring.after(4)));
    assertEquals(List.of(), seqs(ring.after(5)));
    assertFalse(ring.after(9).needsJournal(9));
  }

  @Test
  void releaseFreesTheEvents() {
    EventRing ring = new EventRing(3, Long.MAX_VALUE);
    ring.add(event(1));
    ring.release();
    assertEquals(0, ring.size());
    ring.add(event(2));
    assertEquals(0, ring.size(), "a released ring stays empty");
    assertThrows(IllegalArgumentException.class, () -> new EventRing(0, 1));
  }

  @Test
  void keepsAboutMaxBytesOfText() {
    int weight = EventRing.weigh(event(1));
    EventRing ring = new EventRing(100, 3L * weight);
    for (long s = 1; s <= 10; s++) {
      ring.add(event(s));
    }
    assertEquals(3, ring.size());
    assertEquals(8, ring.after(0).firstSeq());
    Event huge = new Event("s", 11, Instant.EPOCH, new EventPayload.Output(1, StreamName.STDOUT, "y".repeat(10_000)));
    ring.add(huge);
    assertEquals(List.of(11L), seqs(ring.after(0)), "an event bigger than the budget is still kept, alone");
  }
}
