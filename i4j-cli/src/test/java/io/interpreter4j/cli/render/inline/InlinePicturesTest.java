package io.interpreter4j.cli.render.inline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real PNG file, written with ImageIO, drawn for each protocol. */
class InlinePicturesTest {

  @TempDir
  Path dir;

  /** 1280x960: left half red, right half blue. */
  private Path plot() throws IOException {
    BufferedImage image = new BufferedImage(1280, 960, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < 960; y++) {
      for (int x = 0; x < 1280; x++) {
        image.setRGB(x, y, x < 640 ? 0xFF0000 : 0x0000FF);
      }
    }
    Path file = dir.resolve("plot.png");
    ImageIO.write(image, "png", file.toFile());
    return file;
  }

  @Test
  void sixelDrawsTheScaledPictureWithItsColours() throws IOException {
    String sixel = new InlinePictures(ImageProtocol.SIXEL).draw(plot(), 120, 50);
    SixelDecoder.Picture picture = SixelDecoder.decode(sixel);
    assertEquals(640, picture.width());
    assertEquals(480, picture.height());
    assertEquals(100 << 16, picture.rgb()[100 * 640 + 10], "red on the left, in percent");
    assertEquals(100, picture.rgb()[100 * 640 + 630], "blue on the right");
  }

  @Test
  void kittyAndITerm2SendAScaledPng() throws IOException {
    String kitty = new InlinePictures(ImageProtocol.KITTY).draw(plot(), 120, 50);
    StringBuilder data = new StringBuilder();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(";([A-Za-z0-9+/=]*)\u001b\\\\").matcher(kitty);
    while (m.find()) {
      data.append(m.group(1));
    }
    assertTrue(kitty.startsWith("\u001b_Ga=T,f=100,q=2,c=64,"), kitty.substring(0, 40));
    BufferedImage sent = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(data.toString())));
    assertEquals(640, sent.getWidth());
    assertEquals(480, sent.getHeight());

    String iterm = new InlinePictures(ImageProtocol.ITERM2).draw(plot(), 60, 50);
    assertTrue(iterm.startsWith("\u001b]1337;File=inline=1;size="), iterm.substring(0, 40));
    assertTrue(iterm.contains(";width=56;preserveAspectRatio=1:"), iterm.substring(0, 80));
    String base64 = iterm.substring(iterm.indexOf(':') + 1, iterm.length() - 1);
    assertEquals(560, ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(base64))).getWidth());
  }

  @Test
  void whatIsNoReadablePictureSaysWhy() throws IOException {
    Path text = Files.writeString(dir.resolve("notes.png"), "not a picture");
    IOException e = assertThrows(IOException.class, () -> new InlinePictures(ImageProtocol.SIXEL).draw(text, 80, 24));
    assertEquals("not a PNG, JPEG or GIF this JVM can read", e.getMessage());
    assertThrows(IOException.class, () -> new InlinePictures(ImageProtocol.KITTY).draw(dir.resolve("gone.png"), 80, 24));
  }
}
