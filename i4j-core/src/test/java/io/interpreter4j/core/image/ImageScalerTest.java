package io.interpreter4j.core.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ImageScalerTest {

  @Test
  void aWidePngIsScaledToTheLongEdgeLimit() throws IOException {
    byte[] png = png(3000, 1000, false);

    ImageScaler.Scaled scaled = ImageScaler.scale(png);

    assertEquals(ImageFormat.PNG, scaled.format());
    assertEquals(1568, scaled.width());
    assertEquals(523, scaled.height());
    BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(scaled.bytes()));
    assertEquals(1568, decoded.getWidth());
    assertEquals(523, decoded.getHeight());
  }

  @Test
  void aSquareImageIsScaledToAboutOnePointFifteenMegapixels() {
    ImageScaler.Size size = ImageScaler.fit(1500, 1500);

    assertEquals(1072, size.width());
    assertEquals(1072, size.height());
    assertTrue((long) size.width() * size.height() <= ImageScaler.MAX_PIXELS);
  }

  @Test
  void anImageThatFitsIsPassedOnUnchanged() throws IOException {
    byte[] png = png(640, 480, false);

    ImageScaler.Scaled scaled = ImageScaler.scale(png);

    assertArrayEquals(png, scaled.bytes());
    assertEquals(640, scaled.width());
    assertEquals(480, scaled.height());
  }

  @Test
  void aPngTooLargeEvenWhenScaledBecomesAJpegUnderFiveMegabytes() throws IOException {
    byte[] noise = png(1500, 1500, true); // random pixels do not compress: about 9 MB as PNG

    ImageScaler.Scaled scaled = ImageScaler.scale(noise);

    assertTrue(noise.length > ImageScaler.MAX_RAW_BYTES, "the test image must start above the limit");
    assertTrue(((scaled.bytes().length + 2) / 3) * 4 <= ImageScaler.MAX_ENCODED_BYTES,
        "base64 of " + scaled.bytes().length + " bytes must stay under 5 MB");
    assertTrue((long) scaled.width() * scaled.height() <= ImageScaler.MAX_PIXELS);
    assertEquals(ImageHeader.read(scaled.bytes()).format(), scaled.format());
  }

  @Test
  void aHugeImageIsDecodedSubsampledAndStillScaledToTheLimit() throws IOException {
    BufferedImage gray = new BufferedImage(6000, 3000, BufferedImage.TYPE_BYTE_GRAY); // 18 megapixels
    byte[] pixels = ((java.awt.image.DataBufferByte) gray.getRaster().getDataBuffer()).getData();
    for (int i = 0; i < pixels.length; i++) {
      pixels[i] = (byte) (i % 6000 / 24);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(gray, "png", out);
    byte[] huge = out.toByteArray();
    assertTrue(6000L * 3000 > ImageScaler.SUBSAMPLE_ABOVE, "past the subsampling threshold");

    ImageScaler.Scaled scaled = ImageScaler.scale(huge);

    assertEquals(1517, scaled.width());
    assertEquals(758, scaled.height());
    BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(scaled.bytes()));
    assertEquals(1517, decoded.getWidth());
  }

  @Test
  void bytesThatAreNoImageAreAClearError() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ImageScaler.scale("just some text".getBytes()));

    assertTrue(e.getMessage().contains("not a PNG, JPEG, GIF or WebP"), e.getMessage());
  }

  @Test
  void tokensAreCountedOnTheScaledSize() {
    assertEquals((1568 * 523 + 749) / 750, new ImageRef("/x.png", "image/png", 3000, 1000).tokens());
    assertEquals((640 * 480 + 749) / 750, new ImageRef("/x.png", "image/png", 640, 480).tokens());
  }

  static byte[] png(int width, int height, boolean noise) throws IOException {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(7);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, noise ? random.nextInt() : (x * 255 / width) << 16 | (y * 255 / height) << 8);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(image, "png", out);
    return out.toByteArray();
  }
}
