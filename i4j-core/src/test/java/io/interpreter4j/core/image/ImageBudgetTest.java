package io.interpreter4j.core.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ImageBudgetTest {

  @Test
  void keepsEightImagesAndCountsTheRest() {
    ImageBudget budget = new ImageBudget();
    for (int i = 0; i < 8; i++) {
      assertTrue(budget.admit(1000));
    }
    assertNull(budget.droppedNote());
    assertFalse(budget.admit(1000));
    assertFalse(budget.admit(1000));
    assertEquals(8, budget.kept());
    assertEquals("[2 image(s) dropped: a block shows at most 8 images and 20 MB]", budget.droppedNote());
  }

  @Test
  void twentyMegabytesInAllAndASmallerImageStillFits() {
    ImageBudget budget = new ImageBudget();
    assertTrue(budget.admit(15L * 1024 * 1024));
    assertFalse(budget.admit(6L * 1024 * 1024));
    assertTrue(budget.admit(5L * 1024 * 1024));
    budget.dropOne();
    assertEquals(2, budget.kept());
    assertEquals(2, budget.dropped());
  }
}
