package io.interpreter4j.cli.render.inline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PaletteQuantizerTest {

  @Test
  void anImageWithFewColoursKeepsThemExactly() {
    int[] argb = {0xFFFFFFFF, 0xFF1F77B4, 0xFFFF7F0E, 0xFFFFFFFF, 0x00123456, 0xFF1F77B4};
    PaletteQuantizer.Indexed indexed = new PaletteQuantizer(256).quantize(3, 2, argb);
    assertArrayEquals(new int[] {0xFFFFFF, 0x1F77B4, 0xFF7F0E}, indexed.palette());
    assertArrayEquals(new int[] {0, 1, 2, 0, PaletteQuantizer.TRANSPARENT, 1}, indexed.indices());
  }

  @Test
  void aGradientOfManyColoursGetsAtMostTheLimitAndStaysClose() {
    int width = 256;
    int height = 64;
    int[] argb = new int[width * height];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        argb[y * width + x] = 0xFF000000 | x << 16 | (y * 4) << 8 | (255 - x);
      }
    }
    for (int limit : new int[] {256, 16}) {
      PaletteQuantizer.Indexed indexed = new PaletteQuantizer(limit).quantize(width, height, argb);
      assertTrue(indexed.palette().length <= limit && indexed.palette().length > limit / 2,
          indexed.palette().length + " colours for a limit of " + limit);
      int worst = 0;
      long total = 0;
      for (int i = 0; i < argb.length; i++) {
        int index = indexed.indices()[i];
        assertTrue(index >= 0 && index < indexed.palette().length);
        int error = distance(argb[i], indexed.palette()[index]);
        worst = Math.max(worst, error);
        total += error;
      }
      // a 256-colour palette over 16k colours: no channel off by more than a box's width (5-bit bins)
      int bound = limit == 256 ? 40 : 110;
      assertTrue(worst <= bound, "worst channel error " + worst + " for a limit of " + limit);
      assertTrue(total / argb.length < bound / 2, "mean error " + total / argb.length);
    }
  }

  @Test
  void everyPixelOfOneColourMapsToOneEntryAndBadInputIsRefused() {
    int[] argb = new int[300];
    for (int i = 0; i < argb.length; i++) {
      argb[i] = 0xFF000000 | i * 97 % 0xFFFFFF; // 300 distinct colours
    }
    argb[299] = argb[0];
    PaletteQuantizer.Indexed indexed = new PaletteQuantizer(256).quantize(300, 1, argb);
    assertEquals(indexed.indices()[0], indexed.indices()[299]);
    assertTrue(Arrays.stream(indexed.indices()).allMatch(i -> i >= 0 && i < 256));
    assertThrows(IllegalArgumentException.class, () -> new PaletteQuantizer(256).quantize(2, 2, new int[3]));
    assertThrows(IllegalArgumentException.class, () -> new PaletteQuantizer(300));
  }

  private static int distance(int a, int b) {
    return Math.max(Math.abs(((a >> 16) & 0xFF) - ((b >> 16) & 0xFF)), Math.max(
        Math.abs(((a >> 8) & 0xFF) - ((b >> 8) & 0xFF)), Math.abs((a & 0xFF) - (b & 0xFF))));
  }
}
