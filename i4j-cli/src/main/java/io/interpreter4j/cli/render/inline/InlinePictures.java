package io.interpreter4j.cli.render.inline;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Turns an image file a block saved into the escape sequence that draws it in the terminal: read (PNG, JPEG, GIF;
 * the JDK reads no WebP), scaled down to its {@link CellLayout}, encoded for the terminal's {@link ImageProtocol}.
 */
public final class InlinePictures {

  /** Files larger than the most a block may show are not read (they did not come from a block). */
  static final long MAX_FILE = 20L * 1024 * 1024;

  private final ImageProtocol protocol;
  private final PaletteQuantizer quantizer = new PaletteQuantizer(256);

  public InlinePictures(ImageProtocol protocol) {
    this.protocol = protocol;
  }

  public ImageProtocol protocol() {
    return protocol;
  }

  /** The sequence drawing {@code file} on a terminal of that size; IOException saying why it cannot be drawn. */
  public String draw(Path file, int termColumns, int termRows) throws IOException {
    if (Files.size(file) > MAX_FILE) {
      throw new IOException("larger than 20 MB");
    }
    BufferedImage image = ImageIO.read(file.toFile());
    if (image == null) {
      throw new IOException("not a PNG, JPEG or GIF this JVM can read");
    }
    CellLayout layout = CellLayout.fit(image.getWidth(), image.getHeight(), termColumns, termRows);
    BufferedImage scaled = scale(image, layout.width(), layout.height());
    return switch (protocol) {
      case KITTY -> KittyEncoder.encode(png(scaled), layout.columns());
      case ITERM2 -> ITerm2Encoder.encode(png(scaled), layout.columns());
      case SIXEL -> {
        int[] argb = scaled.getRGB(0, 0, scaled.getWidth(), scaled.getHeight(), null, 0, scaled.getWidth());
        yield SixelEncoder.encode(quantizer.quantize(scaled.getWidth(), scaled.getHeight(), argb));
      }
    };
  }

  /** Downscaled in halving steps, then bilinear to the size: smooth without the cost of area averaging. */
  static BufferedImage scale(BufferedImage image, int width, int height) {
    BufferedImage current = image;
    int w = image.getWidth();
    int h = image.getHeight();
    do {
      w = Math.max(width, w / 2);
      h = Math.max(height, h / 2);
      BufferedImage next = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
      Graphics2D g = next.createGraphics();
      g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g.drawImage(current, 0, 0, w, h, null);
      g.dispose();
      current = next;
    } while (w != width || h != height);
    return current;
  }

  private static byte[] png(BufferedImage image) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(image, "png", out);
    return out.toByteArray();
  }
}
