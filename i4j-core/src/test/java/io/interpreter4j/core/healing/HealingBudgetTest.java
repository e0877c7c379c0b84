package io.interpreter4j.core.healing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HealingBudgetTest {

  @Test
  void stopsAfterMaxIterations() {
    HealingBudget budget = new HealingBudget(3, 5);
    assertTrue(budget.beforeModelCall().isEmpty());
    assertTrue(budget.beforeModelCall().isEmpty());
    assertTrue(budget.beforeModelCall().isEmpty());
    assertTrue(budget.beforeModelCall().orElseThrow().contains("max-iterations"));
    assertEquals(3, budget.iterations());
  }

  @Test
  void stopsAfterConsecutiveFailuresAndASuccessResetsTheStreak() {
    HealingBudget budget = new HealingBudget(30, 3);
    assertTrue(budget.afterBlock("a", true, "err a").isEmpty());
    assertTrue(budget.afterBlock("b", true, "err b").isEmpty());
    assertTrue(budget.afterBlock("ok", false, "").isEmpty());
    assertTrue(budget.afterBlock("c", true, "err c").isEmpty());
    assertTrue(budget.afterBlock("d", true, "err d").isEmpty());
    assertTrue(budget.afterBlock("e", true, "err e").orElseThrow().contains("3 failed blocks in a row"));
  }

  @Test
  void sameCodeWithSameErrorStopsAtOnce() {
    HealingBudget budget = new HealingBudget(30, 5);
    assertTrue(budget.afterBlock("x = 1/0\n", true, "ZeroDivisionError at 0x7f01").isEmpty());
    assertEquals("the same code failed twice with the same error",
        budget.afterBlock("x = 1/0", true, "ZeroDivisionError at 0x7f99").orElseThrow());
  }

  @Test
  void tracebacksOfDifferentBlockFilesCompareEqual() {
    HealingBudget budget = new HealingBudget(30, 5);
    assertTrue(budget.afterBlock("1/0", true,
        "File \"/s/code/block-1.py\", line 1\nZeroDivisionError: division by zero").isEmpty());
    assertTrue(budget.afterBlock("1/0", true,
        "File \"/s/code/block-2.py\", line 1\nZeroDivisionError: division by zero").isPresent());
  }

  @Test
  void sameCodeWithADifferentErrorGoesOn() {
    HealingBudget budget = new HealingBudget(30, 5);
    assertTrue(budget.afterBlock("run()", true, "NameError").isEmpty());
    assertTrue(budget.afterBlock("run()", true, "TypeError").isEmpty());
  }
}
