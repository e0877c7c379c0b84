package io.interpreter4j.cli.render.inline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reduces an image's colours to a palette of at most {@code maxColors} for sixel. An image with that few distinct
 * colours (a plot, mostly) keeps them exactly; any other is cut by median cut over a histogram of 5 bits per channel:
 * the box whose widest channel spans most is split at its pixel median along that channel, until there are enough
 * boxes, and each box's colour is the mean of the pixels in it.
 */
public final class PaletteQuantizer {

  /** A pixel left out: transparent (alpha under half). */
  public static final int TRANSPARENT = -1;

  /**
   * The result: {@code palette} holds {@code 0xRRGGBB} colours; {@code indices} one palette index per pixel, row
   * by row, or {@link #TRANSPARENT}.
   */
  public record Indexed(int width, int height, int[] palette, int[] indices) {}

  private final int maxColors;

  public PaletteQuantizer(int maxColors) {
    if (maxColors < 2 || maxColors > 256) {
      throw new IllegalArgumentException("a palette holds 2 to 256 colours, not " + maxColors);
    }
    this.maxColors = maxColors;
  }

  /** {@code argb}: the image's pixels row by row, as {@code BufferedImage.getRGB} gives them. */
  public Indexed quantize(int width, int height, int[] argb) {
    if (argb.length != width * height) {
      throw new IllegalArgumentException(argb.length + " pixels for a " + width + "x" + height + " image");
    }
    Indexed exact = exact(width, height, argb);
    return exact != null ? exact : medianCut(width, height, argb);
  }

  /** The image's own colours as the palette, when there are few enough of them; else null. */
  private Indexed exact(int width, int height, int[] argb) {
    Map<Integer, Integer> index = new HashMap<>();
    int[] indices = new int[argb.length];
    for (int i = 0; i < argb.length; i++) {
      if (transparent(argb[i])) {
        indices[i] = TRANSPARENT;
        continue;
      }
      int rgb = argb[i] & 0xFFFFFF;
      Integer at = index.get(rgb);
      if (at == null) {
        if (index.size() == maxColors) {
          return null;
        }
        at = index.size();
        index.put(rgb, at);
      }
      indices[i] = at;
    }
    int[] palette = new int[index.size()];
    index.forEach((rgb, at) -> palette[at] = rgb);
    return new Indexed(width, height, palette, indices);
  }

  private Indexed medianCut(int width, int height, int[] argb) {
    int bins = 1 << 15;
    long[] count = new long[bins];
    long[] sumR = new long[bins];
    long[] sumG = new long[bins];
    long[] sumB = new long[bins];
    for (int p : argb) {
      if (transparent(p)) {
        continue;
      }
      int bin = bin(p);
      count[bin]++;
      sumR[bin] += (p >> 16) & 0xFF;
      sumG[bin] += (p >> 8) & 0xFF;
      sumB[bin] += p & 0xFF;
    }
    List<int[]> boxes = new ArrayList<>();
    int[] used = java.util.stream.IntStream.range(0, bins).filter(b -> count[b] > 0).toArray();
    boxes.add(used);
    while (boxes.size() < maxColors) {
      int widest = -1;
      int widestSpan = 0;
      int widestChannel = 0;
      for (int i = 0; i < boxes.size(); i++) {
        int[] box = boxes.get(i);
        if (box.length < 2) {
          continue;
        }
        for (int channel = 0; channel < 3; channel++) {
          int span = span(box, channel);
          if (span > widestSpan) {
            widest = i;
            widestSpan = span;
            widestChannel = channel;
          }
        }
      }
      if (widest < 0) {
        break; // every box holds one bin: no split can help
      }
      int[][] halves = split(boxes.get(widest), widestChannel, count);
      boxes.set(widest, halves[0]);
      boxes.add(halves[1]);
    }
    int[] palette = new int[boxes.size()];
    int[] binToIndex = new int[bins];
    for (int i = 0; i < boxes.size(); i++) {
      long n = 0;
      long r = 0;
      long g = 0;
      long b = 0;
      for (int bin : boxes.get(i)) {
        n += count[bin];
        r += sumR[bin];
        g += sumG[bin];
        b += sumB[bin];
        binToIndex[bin] = i;
      }
      palette[i] = (int) ((r + n / 2) / n) << 16 | (int) ((g + n / 2) / n) << 8 | (int) ((b + n / 2) / n);
    }
    int[] indices = new int[argb.length];
    for (int i = 0; i < argb.length; i++) {
      indices[i] = transparent(argb[i]) ? TRANSPARENT : binToIndex[bin(argb[i])];
    }
    return new Indexed(width, height, palette, indices);
  }

  /** Splits a box of bins at the pixel median along a channel; both halves keep at least one bin. */
  private static int[][] split(int[] box, int channel, long[] count) {
    int[] sorted = java.util.Arrays.stream(box).boxed()
        .sorted(java.util.Comparator.comparingInt(b -> component(b, channel))).mapToInt(Integer::intValue).toArray();
    long total = 0;
    for (int bin : sorted) {
      total += count[bin];
    }
    long seen = 0;
    int cut = 1;
    for (int i = 0; i < sorted.length - 1; i++) {
      seen += count[sorted[i]];
      cut = i + 1;
      if (seen * 2 >= total) {
        break;
      }
    }
    // never split between bins of the same value on this channel: the halves would overlap
    while (cut < sorted.length && cut > 0
        && component(sorted[cut], channel) == component(sorted[cut - 1], channel)) {
      cut++;
    }
    if (cut == sorted.length) {
      cut = sorted.length - 1;
      while (cut > 1 && component(sorted[cut], channel) == component(sorted[cut - 1], channel)) {
        cut--;
      }
    }
    return new int[][] {java.util.Arrays.copyOfRange(sorted, 0, cut),
        java.util.Arrays.copyOfRange(sorted, cut, sorted.length)};
  }

  private static int span(int[] box, int channel) {
    int min = 31;
    int max = 0;
    for (int bin : box) {
      int c = component(bin, channel);
      min = Math.min(min, c);
      max = Math.max(max, c);
    }
    return max - min;
  }

  private static int component(int bin, int channel) {
    return (bin >> (10 - 5 * channel)) & 0x1F;
  }

  private static int bin(int argb) {
    return ((argb >> 19) & 0x1F) << 10 | ((argb >> 11) & 0x1F) << 5 | ((argb >> 3) & 0x1F);
  }

  private static boolean transparent(int argb) {
    return (argb >>> 24) < 128;
  }
}
