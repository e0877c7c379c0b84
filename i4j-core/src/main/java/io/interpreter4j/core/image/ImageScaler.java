package io.interpreter4j.core.image;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;

/**
 * Makes an image fit for a vision model: at most {@value #MAX_EDGE} px on its long edge and about
 * {@value #MAX_PIXELS} pixels (1.15 megapixels), and under {@value #MAX_ENCODED_BYTES} bytes once base64-encoded
 * (5 MB, as Anthropic counts). An image that already fits is passed on unchanged; a larger one is decoded, scaled
 * down (aspect kept) and re-encoded: PNG when it was a PNG or GIF, else JPEG; a PNG still too large is tried as JPEG
 * at falling quality, then smaller. Pure: bytes in, bytes out (javax.imageio, headless).
 */
public final class ImageScaler {

  public static final int MAX_EDGE = 1568;
  public static final long MAX_PIXELS = 1_150_000;
  public static final long MAX_ENCODED_BYTES = 5L * 1024 * 1024;
  /** Raw bytes whose base64 form is at most {@link #MAX_ENCODED_BYTES}. */
  static final long MAX_RAW_BYTES = MAX_ENCODED_BYTES / 4 * 3;

  /** Pixels past which an image is decoded subsampled (16 megapixels: 64 MB as ARGB). */
  static final long SUBSAMPLE_ABOVE = 16_000_000;

  private static final float[] JPEG_QUALITIES = {0.85f, 0.7f, 0.5f};

  private ImageScaler() {}

  /** A size in pixels. */
  public record Size(int width, int height) {}

  /** An image ready to send: its bytes, format and size. */
  public record Scaled(byte[] bytes, ImageFormat format, int width, int height) {}

  /** The size an image of {@code width x height} is scaled to: the same when it fits, else smaller with its aspect. */
  public static Size fit(int width, int height) {
    if (width < 1 || height < 1) {
      return new Size(Math.max(width, 1), Math.max(height, 1));
    }
    double scale = Math.min(1.0, (double) MAX_EDGE / Math.max(width, height));
    scale = Math.min(scale, Math.sqrt((double) MAX_PIXELS / ((double) width * height)));
    if (scale >= 1.0) {
      return new Size(width, height);
    }
    return new Size(Math.max(1, (int) Math.round(width * scale)), Math.max(1, (int) Math.round(height * scale)));
  }

  /**
   * The image of {@code bytes}, made to fit.
   *
   * @throws IllegalArgumentException saying why when the bytes are no image, or one that must be scaled but cannot be
   *     decoded here (WebP: the JDK has no WebP decoder)
   */
  public static Scaled scale(byte[] bytes) {
    ImageHeader header = ImageHeader.read(bytes);
    Size target = fit(header.width(), header.height());
    boolean sizeFits = target.width() == header.width() && target.height() == header.height();
    if (sizeFits && bytes.length <= MAX_RAW_BYTES) {
      return new Scaled(bytes, header.format(), header.width(), header.height());
    }
    if (header.format() == ImageFormat.WEBP) {
      throw new IllegalArgumentException("a " + header.describe() + " image of " + bytes.length + " bytes is too "
          + "large to send and cannot be scaled here (the JDK has no WebP decoder); save it as PNG or JPEG");
    }
    BufferedImage source = decode(bytes, header, target);
    ImageFormat first = header.format() == ImageFormat.JPEG ? ImageFormat.JPEG : ImageFormat.PNG;
    Size size = target;
    while (true) {
      BufferedImage scaled = resize(source, size);
      if (first == ImageFormat.PNG) {
        byte[] png = encodePng(scaled);
        if (png.length <= MAX_RAW_BYTES) {
          return new Scaled(png, ImageFormat.PNG, size.width(), size.height());
        }
      }
      BufferedImage opaque = opaque(scaled);
      for (float quality : JPEG_QUALITIES) {
        byte[] jpeg = encodeJpeg(opaque, quality);
        if (jpeg.length <= MAX_RAW_BYTES) {
          return new Scaled(jpeg, ImageFormat.JPEG, size.width(), size.height());
        }
      }
      if (size.width() <= 16 || size.height() <= 16) {
        throw new IllegalArgumentException("a " + header.describe() + " image that stays above 5 MB even at "
            + size.width() + "x" + size.height());
      }
      size = new Size(Math.max(1, size.width() * 3 / 4), Math.max(1, size.height() * 3 / 4));
    }
  }

  /**
   * Decodes the image; one of more than {@value #SUBSAMPLE_ABOVE} pixels is read at every n-th pixel only (no smaller
   * than {@code target}), so that a huge picture that compresses well never fills the heap.
   */
  private static BufferedImage decode(byte[] bytes, ImageHeader header, Size target) {
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        throw new IllegalArgumentException("a " + header.describe() + " image no decoder here can read");
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        ImageReadParam param = reader.getDefaultReadParam();
        if ((long) header.width() * header.height() > SUBSAMPLE_ABOVE) {
          int step = Math.max(1, Math.min(header.width() / target.width(), header.height() / target.height()));
          param.setSourceSubsampling(step, step, 0, 0);
        }
        return reader.read(0, param);
      } finally {
        reader.dispose();
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException known && known.getMessage() != null
          && known.getMessage().startsWith("a ")) {
        throw known;
      }
      throw new IllegalArgumentException("a " + header.describe() + " image that does not decode: " + e.getMessage(),
          e);
    }
  }

  /** Scaled down in halving steps, then once bilinearly: smooth, without the cost of area averaging. */
  private static BufferedImage resize(BufferedImage source, Size size) {
    BufferedImage current = source;
    int w = source.getWidth();
    int h = source.getHeight();
    do {
      w = Math.max(size.width(), w / 2);
      h = Math.max(size.height(), h / 2);
      current = draw(current, w, h);
    } while (w != size.width() || h != size.height());
    return current;
  }

  private static BufferedImage draw(BufferedImage source, int width, int height) {
    BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
      g.drawImage(source, 0, 0, width, height, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  /** JPEG has no alpha: the image over white. */
  private static BufferedImage opaque(BufferedImage image) {
    BufferedImage out = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.drawImage(image, 0, 0, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  private static byte[] encodePng(BufferedImage image) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(image, "png", out)) {
        throw new IllegalStateException("the JDK has no PNG writer");
      }
    } catch (IOException e) {
      throw new IllegalStateException("writing a PNG to memory failed", e);
    }
    return out.toByteArray();
  }

  private static byte[] encodeJpeg(BufferedImage image, float quality) {
    Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
    if (!writers.hasNext()) {
      throw new IllegalStateException("the JDK has no JPEG writer");
    }
    ImageWriter writer = writers.next();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ImageOutputStream stream = ImageIO.createImageOutputStream(out)) {
      writer.setOutput(stream);
      ImageWriteParam param = writer.getDefaultWriteParam();
      param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
      param.setCompressionQuality(quality);
      writer.write(null, new IIOImage(image, null, null), param);
    } catch (IOException e) {
      throw new IllegalStateException("writing a JPEG to memory failed", e);
    } finally {
      writer.dispose();
    }
    return out.toByteArray();
  }
}
