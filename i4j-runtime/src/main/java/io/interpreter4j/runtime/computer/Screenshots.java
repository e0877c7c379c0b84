package io.interpreter4j.runtime.computer;

import io.interpreter4j.core.computer.ModelSpace;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/**
 * Screenshots as the model sees them: scaled into the {@link ModelSpace}, optionally with a labelled grid every
 * {@value #GRID} model pixels, encoded as PNG. Pure (no display needed).
 */
public final class Screenshots {

  /** Distance between grid lines, in model pixels. */
  public static final int GRID = 100;

  private Screenshots() {}

  /** {@code screen} (the full-size screenshot) scaled to {@code space}, with the grid when {@code grid}. */
  public static BufferedImage forModel(BufferedImage screen, ModelSpace space, boolean grid) {
    BufferedImage out = new BufferedImage(space.width(), space.height(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
      g.drawImage(screen, 0, 0, space.width(), space.height(), null);
      if (grid) {
        drawGrid(g, space.width(), space.height());
      }
    } finally {
      g.dispose();
    }
    return out;
  }

  /** Thin lines every {@value #GRID} pixels, each labelled with its coordinate, readable on light and dark. */
  static void drawGrid(Graphics2D g, int width, int height) {
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setStroke(new BasicStroke(1f));
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    Color line = new Color(255, 0, 160, 110);
    for (int x = GRID; x < width; x += GRID) {
      g.setColor(line);
      g.drawLine(x, 0, x, height - 1);
      label(g, Integer.toString(x), x + 2, 11);
    }
    for (int y = GRID; y < height; y += GRID) {
      g.setColor(line);
      g.drawLine(0, y, width - 1, y);
      label(g, Integer.toString(y), 2, y - 2);
    }
  }

  private static void label(Graphics2D g, String text, int x, int y) {
    int w = g.getFontMetrics().stringWidth(text);
    g.setColor(new Color(255, 255, 255, 200));
    g.fillRect(x - 1, y - 10, w + 2, 12);
    g.setColor(new Color(200, 0, 120));
    g.drawString(text, x, y);
  }

  /**
   * Black text on white for OCR: each pixel by its luminance against the middle grey, the whole inverted when the
   * screen is mostly dark (light text on a dark theme). tesseract's own global threshold fails on screens that are
   * mostly a light grey.
   */
  public static BufferedImage forOcr(BufferedImage screen) {
    int w = screen.getWidth();
    int h = screen.getHeight();
    int[] rgb = screen.getRGB(0, 0, w, h, null, 0, w);
    long sum = 0;
    for (int i = 0; i < rgb.length; i++) {
      int p = rgb[i];
      int luminance = (299 * ((p >> 16) & 0xff) + 587 * ((p >> 8) & 0xff) + 114 * (p & 0xff)) / 1000;
      rgb[i] = luminance;
      sum += luminance;
    }
    boolean dark = sum / Math.max(1, rgb.length) < 100;
    BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
    int[] bw = new int[rgb.length];
    for (int i = 0; i < rgb.length; i++) {
      boolean ink = dark ? rgb[i] >= 128 : rgb[i] < 128;
      bw[i] = ink ? 0xff000000 : 0xffffffff;
    }
    out.setRGB(0, 0, w, h, bw, 0, w);
    return out;
  }

  public static byte[] png(BufferedImage image) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
