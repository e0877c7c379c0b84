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
