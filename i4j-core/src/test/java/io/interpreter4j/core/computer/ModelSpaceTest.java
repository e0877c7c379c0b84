package io.interpreter4j.core.computer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ModelSpaceTest {

  @Test
  void aScreenOfAboutOneMegapixelStaysAsItIs() {
    ModelSpace space = new ModelSpace(1280, 800);
    assertEquals(1280, space.width());
    assertEquals(800, space.height());
    assertEquals(new ModelSpace.Point(640, 400), space.toScreen(640, 400));
    assertEquals(new ModelSpace.Point(1279, 799), space.toScreen(1279, 799));
  }

  @Test
  void fullHdBecomes1280x720AndMapsBackToTheCentreOfThePixelsCovered() {
    ModelSpace space = new ModelSpace(1920, 1080);
    assertEquals(1280, space.width());
    assertEquals(720, space.height());
    assertEquals(new ModelSpace.Point(0, 0), space.toScreen(0, 0));
    assertEquals(new ModelSpace.Point(960, 540), space.toScreen(640, 360));
    assertEquals(new ModelSpace.Point(1919, 1079), space.toScreen(1279, 719));
    assertEquals(new ModelSpace.Point(640, 360), space.toModel(960, 540));
  }

  @Test
  void aLargeScreenIsLimitedByItsAreaAsWellAsItsLongEdge() {
    ModelSpace wide = new ModelSpace(2560, 1600);
    assertEquals(1280, wide.width());
    assertEquals(800, wide.height());
    ModelSpace square = new ModelSpace(1200, 1200); // long edge fits, area does not
    assertTrue(square.width() * square.height() <= ModelSpace.MAX_AREA + square.width());
    assertEquals(square.width(), square.height());
  }

  @Test
  void aSmallScreenIsNeverEnlarged() {
    ModelSpace space = new ModelSpace(800, 600);
    assertEquals(800, space.width());
    assertEquals(600, space.height());
  }

  @Test
  void aPointOffTheModelScreenIsAnErrorNamingTheSpace() {
    ModelSpace space = new ModelSpace(1920, 1080);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> space.toScreen(1280, 10));
    assertTrue(e.getMessage().contains("1280x720"), e.getMessage());
    assertTrue(e.getMessage().contains("nothing was done"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> space.toScreen(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> space.toScreen(10, 720));
    assertThrows(IllegalArgumentException.class, () -> space.toScreen(Double.NaN, 10));
    assertFalse(space.contains(1280, 0));
  }
}
