package io.interpreter4j.cli.render.inline;

/**
 * Writes an image with at most 256 colours as DEC sixel graphics: {@code ESC P 0;1;0 q}, the raster size, the colour
 * registers ({@code #i;2;r;g;b} in percent), then bands of six pixel rows, one pass per colour used in the band
 * ({@code #i}, the sixel characters run-length coded with {@code !n}, {@code $} back to the band's start), {@code -}
 * to the next band, and {@code ESC \}. Transparent pixels are left unpainted (the second parameter, 1).
 */
public final class SixelEncoder {

  private static final String START = "\u001bP0;1;0q";
  private static final String END = "\u001b\\";

  private SixelEncoder() {}

  public static String encode(PaletteQuantizer.Indexed image) {
    int width = image.width();
    int height = image.height();
    int[] palette = image.palette();
    int[] indices = image.indices();
    StringBuilder out = new StringBuilder(START).append("\"1;1;").append(width).append(';').append(height);
    for (int i = 0; i < palette.length; i++) {
      out.append('#').append(i).append(";2;").append(percent(palette[i] >> 16)).append(';')
          .append(percent(palette[i] >> 8)).append(';').append(percent(palette[i]));
    }
    int[] bits = new int[width];
    boolean[] inBand = new boolean[palette.length];
    for (int top = 0; top < height; top += 6) {
      int rows = Math.min(6, height - top);
      java.util.Arrays.fill(inBand, false);
      for (int y = top; y < top + rows; y++) {
        for (int x = 0; x < width; x++) {
          int index = indices[y * width + x];
          if (index >= 0) {
            inBand[index] = true;
          }
        }
      }
      boolean firstColour = true;
      for (int colour = 0; colour < palette.length; colour++) {
        if (!inBand[colour]) {
          continue;
        }
        java.util.Arrays.fill(bits, 0);
        int last = -1;
        for (int y = 0; y < rows; y++) {
          int row = (top + y) * width;
          for (int x = 0; x < width; x++) {
            if (indices[row + x] == colour) {
              bits[x] |= 1 << y;
              last = Math.max(last, x);
            }
          }
        }
        if (!firstColour) {
          out.append('$');
        }
        firstColour = false;
        out.append('#').append(colour);
        runs(out, bits, last + 1);
      }
      if (top + 6 < height) {
        out.append('-');
      }
    }
    return out.append(END).toString();
  }

  /** The sixel characters of {@code bits[0..length)}, a run of four or more as {@code !n<char>}. */
  private static void runs(StringBuilder out, int[] bits, int length) {
    int x = 0;
    while (x < length) {
      int run = 1;
      while (x + run < length && bits[x + run] == bits[x]) {
        run++;
      }
      char c = (char) ('?' + bits[x]);
      if (run >= 4) {
        out.append('!').append(run).append(c);
      } else {
        for (int i = 0; i < run; i++) {
          out.append(c);
        }
      }
      x += run;
    }
  }

  private static int percent(int channel) {
    return ((channel & 0xFF) * 100 + 127) / 255;
  }
}
