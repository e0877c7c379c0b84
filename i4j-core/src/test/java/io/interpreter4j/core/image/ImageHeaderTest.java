package io.interpreter4j.core.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ImageHeaderTest {

  /** A real image of the size and format, written by the JDK's own encoders. */
  static byte[] encoded(String format, int width, int height) throws IOException {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertTrue(ImageIO.write(image, format, out), "the JDK writes " + format);
    return out.toByteArray();
  }

  @Test
  void readsTheSizeOfPngJpegAndGif() throws IOException {
    assertEquals(new ImageHeader(ImageFormat.PNG, 640, 480), ImageHeader.read(encoded("png", 640, 480)));
    assertEquals(new ImageHeader(ImageFormat.JPEG, 300, 17), ImageHeader.read(encoded("jpg", 300, 17)));
    assertEquals(new ImageHeader(ImageFormat.GIF, 3, 1000), ImageHeader.read(encoded("gif", 3, 1000)));
    assertEquals("640x480 PNG", ImageHeader.read(encoded("png", 640, 480)).describe());
  }

  @Test
  void readsTheSizeOfTheThreeKindsOfWebp() {
    // VP8 (lossy): frame tag (3), start code 9d 01 2a, then 14-bit width and height, little-endian
    byte[] lossy = webp("VP8 ", 0, 0, 0, 0, 0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01);
    assertEquals(new ImageHeader(ImageFormat.WEBP, 640, 480), ImageHeader.read(lossy));
    // VP8L (lossless): signature 2f, then width-1 and height-1 in 14 bits each
    int bits = (640 - 1) | (480 - 1) << 14;
    byte[] lossless = webp("VP8L", 0, 0, 0, 0, 0x2f, bits & 0xFF, bits >> 8 & 0xFF, bits >> 16 & 0xFF,
        bits >> 24 & 0xFF, 0, 0, 0, 0, 0);
    assertEquals(new ImageHeader(ImageFormat.WEBP, 640, 480), ImageHeader.read(lossless));
    // VP8X (extended): flags (4), then width-1 and height-1 in 24 bits each
    byte[] extended = webp("VP8X", 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0x02, 0, 0xdf, 0x01, 0);
    assertEquals(new ImageHeader(ImageFormat.WEBP, 640, 480), ImageHeader.read(extended));
  }

  @Test
  void whatIsNoImageIsToldApartClearly() throws IOException {
    IllegalArgumentException text = assertThrows(IllegalArgumentException.class,
        () -> ImageHeader.read("hello, world".getBytes()));
    assertEquals("not a PNG, JPEG, GIF or WebP image (its first bytes are no such signature)", text.getMessage());
    byte[] png = encoded("png", 10, 10);
    IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
        () -> ImageHeader.read(Arrays.copyOf(png, 12)));
    assertEquals("a PNG image cut short: 12 bytes, its header needs 24", cut.getMessage());
    byte[] jpeg = encoded("jpg", 10, 10);
    assertThrows(IllegalArgumentException.class, () -> ImageHeader.read(Arrays.copyOf(jpeg, 6)));
    assertThrows(IllegalArgumentException.class, () -> ImageHeader.read(new byte[0]));
  }

  private static byte[] webp(String chunk, int... body) {
    byte[] b = new byte[16 + body.length];
    byte[] head = ("RIFF\0\0\0\0WEBP" + chunk).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    System.arraycopy(head, 0, b, 0, 16);
    for (int i = 0; i < body.length; i++) {
      b[16 + i] = (byte) body[i];
    }
    return b;
  }
}
