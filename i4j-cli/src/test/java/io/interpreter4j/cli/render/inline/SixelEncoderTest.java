package io.interpreter4j.cli.render.inline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SixelEncoderTest {

  /** The percent a palette colour is written with, as the decoder reads it back. */
  private static int percentRgb(int rgb) {
    return pct(rgb >> 16) << 16 | pct(rgb >> 8) << 8 | pct(rgb);
  }

  private static int pct(int channel) {
    return ((channel & 0xFF) * 100 + 127) / 255;
  }

  @Test
  void decodingTheOutputGivesBackEveryPixelTransparentOnesUnpainted() {
    int width = 23;
    int height = 14; // two full bands and a part band
    int[] argb = new int[width * height];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        argb[y * width + x] = (x + y) % 7 == 0 ? 0 // transparent
            : 0xFF000000 | ((x * 11) & 0xFF) << 16 | ((y * 17) & 0xFF) << 8 | (x < 5 ? 0x20 : 0xC0);
      }
    }
    PaletteQuantizer.Indexed indexed = new PaletteQuantizer(256).quantize(width, height, argb);
    SixelDecoder.Picture picture = SixelDecoder.decode(SixelEncoder.encode(indexed));
    assertEquals(width, picture.width());
    assertEquals(height, picture.height());
    for (int i = 0; i < argb.length; i++) {
      int expected = indexed.indices()[i] < 0 ? -1 : percentRgb(indexed.palette()[indexed.indices()[i]]);
      assertEquals(expected, picture.rgb()[i], "pixel " + i % width + "," + i / width);
      assertEquals(indexed.indices()[i] < 0, (argb[i] >>> 24) < 128);
    }
  }

  @Test
  void runsOfFourOrMoreAreCountedAndABandEndsWithADash() {
    int[] argb = new int[10 * 7];
    java.util.Arrays.fill(argb, 0xFFFF0000);
    String sixel = SixelEncoder.encode(new PaletteQuantizer(256).quantize(10, 7, argb));
    // one colour; the first band all six rows (~ = 63 + 63), the second only its top row (@ = 63 + 1)
    assertEquals("\u001bP0;1;0q\"1;1;10;7#0;2;100;0;0#0!10~-#0!10@\u001b\\", sixel);
    assertTrue(sixel.length() < 10 * 7, "run-length coded");
  }
}
