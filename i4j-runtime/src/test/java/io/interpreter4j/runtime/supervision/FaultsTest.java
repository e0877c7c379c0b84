package io.interpreter4j.runtime.supervision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.runtime.supervision.Faults.InjectedFault;
import io.interpreter4j.runtime.supervision.Faults.Point;
import org.junit.jupiter.api.Test;

class FaultsTest {

  @Test
  void noneNeverThrows() {
    for (Point point : Point.values()) {
      Faults.NONE.hit(point);
    }
    assertFalse(Faults.NONE.armed());
  }

  @Test
  void onceThrowsAtTheFirstHitOfEachArmedPointOnly() {
    Faults faults = Faults.once(Point.WORKER_EXECUTE, Point.GATE_REVIEW);
    faults.hit(Point.WORKER_EXECUTING);
    InjectedFault fault = assertThrows(InjectedFault.class, () -> faults.hit(Point.WORKER_EXECUTE));
    assertEquals("injected fault at worker_execute", fault.getMessage());
    faults.hit(Point.WORKER_EXECUTE);
    assertTrue(faults.armed());
    assertThrows(InjectedFault.class, () -> faults.hit(Point.GATE_REVIEW));
    assertFalse(faults.armed());
  }

  @Test
  void alwaysThrowsAtEveryHit() {
    Faults faults = Faults.always(Point.WORKER_EXECUTING);
    for (int i = 0; i < 5; i++) {
      assertThrows(InjectedFault.class, () -> faults.hit(Point.WORKER_EXECUTING));
    }
    faults.hit(Point.WORKER_EXECUTE);
  }

  @Test
  void onHitLetsTheEarlierHitsPassAndThrowsAtTheNthOnly() {
    Faults faults = Faults.onHit(Point.WORKER_EXECUTE, 3);
    faults.hit(Point.WORKER_EXECUTING); // another point counts for nothing
    faults.hit(Point.WORKER_EXECUTE);
    faults.hit(Point.WORKER_EXECUTE);
    assertThrows(InjectedFault.class, () -> faults.hit(Point.WORKER_EXECUTE));
    faults.hit(Point.WORKER_EXECUTE);
    assertFalse(faults.armed());
    assertThrows(IllegalArgumentException.class, () -> Faults.onHit(Point.WORKER_EXECUTE, 0));
  }
}
