package io.interpreter4j.cli.render.inline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CellLayoutTest {

  @Test
  void aWidePlotIsScaledToAtMostSixtyFourColumns() {
    assertEquals(new CellLayout(64, 24, 640, 480), CellLayout.fit(1280, 960, 200, 60));
  }

  @Test
  void aNarrowTerminalOrAShortScreenLimitsItKeepingTheAspect() {
    assertEquals(new CellLayout(36, 14, 360, 270), CellLayout.fit(640, 480, 40, 60));
    // 20 rows: at most 16 rows of 20 px, so 320 px down and 427 across
    assertEquals(new CellLayout(43, 16, 427, 320), CellLayout.fit(640, 480, 200, 20));
  }

  @Test
  void aSmallPictureIsNeverEnlarged() {
    assertEquals(new CellLayout(1, 1, 3, 2), CellLayout.fit(3, 2, 80, 24));
    assertEquals(new CellLayout(13, 4, 121, 80), CellLayout.fit(121, 80, 80, 24));
    assertThrows(IllegalArgumentException.class, () -> CellLayout.fit(0, 10, 80, 24));
  }
}
