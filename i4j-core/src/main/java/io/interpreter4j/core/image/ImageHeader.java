package io.interpreter4j.core.image;

/**
 * The format and size of a PNG, JPEG, GIF or WebP image, read from its header without decoding the pixels.
 *
 * @param format the format its signature names
 * @param width  in pixels, at least 1
 * @param height in pixels, at least 1
 */
public record ImageHeader(ImageFormat format, int width, int height) {

  /** Reads the header of {@code bytes}; IllegalArgumentException saying what is wrong when it is no such image. */
  public static ImageHeader read(byte[] bytes) {
    ImageHeader header;
    if (startsWith(bytes, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
      header = png(bytes);
    } else if (startsWith(bytes, 0xFF, 0xD8, 0xFF)) {
      header = jpeg(bytes);
    } else if (startsWith(bytes, 'G', 'I', 'F', '8')) {
      header = gif(bytes);
    } else if (startsWith(bytes, 'R', 'I', 'F', 'F') && bytes.length >= 12 && bytes[8] == 'W' && bytes[9] == 'E'
        && bytes[10] == 'B' && bytes[11] == 'P') {
      header = webp(bytes);
    } else {
      throw new IllegalArgumentException("not a PNG, JPEG, GIF or WebP image (its first bytes are no such signature)");
    }
    if (header.width < 1 || header.height < 1) {
      throw new IllegalArgumentException("a " + header.format + " image of impossible size " + header.width + "x"
          + header.height);
    }
    return header;
  }

  /** {@code 640x480 PNG}. */
  public String describe() {
    return width + "x" + height + " " + format;
  }

  private static ImageHeader png(byte[] b) {
    // the IHDR chunk comes first: length (4), "IHDR" (4), width (4), height (4)
    need(b, 24, ImageFormat.PNG);
    if (b[12] != 'I' || b[13] != 'H' || b[14] != 'D' || b[15] != 'R') {
      throw new IllegalArgumentException("a PNG whose first chunk is not IHDR: the file is damaged");
    }
    return new ImageHeader(ImageFormat.PNG, int32(b, 16), int32(b, 20));
  }

  private static ImageHeader gif(byte[] b) {
    need(b, 10, ImageFormat.GIF);
    return new ImageHeader(ImageFormat.GIF, u16le(b, 6), u16le(b, 8));
  }

  private static ImageHeader jpeg(byte[] b) {
    int at = 2;
    while (at + 4 <= b.length) {
      if ((b[at] & 0xFF) != 0xFF) {
        throw new IllegalArgumentException("a JPEG whose segments are damaged (no marker at byte " + at + ")");
      }
      int marker = b[at + 1] & 0xFF;
      if (marker == 0xFF) {
        at++; // fill byte
        continue;
      }
      if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
        at += 2; // markers without a length
        continue;
      }
      int length = u16be(b, at + 2);
      boolean startOfFrame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (startOfFrame) {
        need(b, at + 9, ImageFormat.JPEG);
        return new ImageHeader(ImageFormat.JPEG, u16be(b, at + 7), u16be(b, at + 5));
      }
      if (marker == 0xD9 || marker == 0xDA || length < 2) {
        break; // end of image or start of scan before any frame header
      }
      at += 2 + length;
    }
    throw new IllegalArgumentException("a JPEG without a frame header: the file is cut short or damaged");
  }

  private static ImageHeader webp(byte[] b) {
    need(b, 30, ImageFormat.WEBP);
    String chunk = new String(b, 12, 4, java.nio.charset.StandardCharsets.US_ASCII);
    switch (chunk) {
      case "VP8 " -> {
        return new ImageHeader(ImageFormat.WEBP, u16le(b, 26) & 0x3FFF, u16le(b, 28) & 0x3FFF);
      }
      case "VP8L" -> {
        int bits = (b[21] & 0xFF) | (b[22] & 0xFF) << 8 | (b[23] & 0xFF) << 16 | (b[24] & 0xFF) << 24;
        return new ImageHeader(ImageFormat.WEBP, (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1);
      }
      case "VP8X" -> {
        int w = (b[24] & 0xFF) | (b[25] & 0xFF) << 8 | (b[26] & 0xFF) << 16;
        int h = (b[27] & 0xFF) | (b[28] & 0xFF) << 8 | (b[29] & 0xFF) << 16;
        return new ImageHeader(ImageFormat.WEBP, w + 1, h + 1);
      }
      default -> throw new IllegalArgumentException("a WebP with an unknown first chunk '" + chunk.strip() + "'");
    }
  }

  private static boolean startsWith(byte[] b, int... signature) {
    if (b.length < signature.length) {
      return false;
    }
    for (int i = 0; i < signature.length; i++) {
      if ((b[i] & 0xFF) != signature[i]) {
        return false;
      }
    }
    return true;
  }

  private static void need(byte[] b, int length, ImageFormat format) {
    if (b.length < length) {
      throw new IllegalArgumentException("a " + format + " image cut short: " + b.length + " bytes, its header needs "
          + length);
    }
  }

  private static int int32(byte[] b, int at) {
    long v = (b[at] & 0xFFL) << 24 | (b[at + 1] & 0xFFL) << 16 | (b[at + 2] & 0xFFL) << 8 | (b[at + 3] & 0xFFL);
    return v > Integer.MAX_VALUE ? -1 : (int) v;
  }

  private static int u16be(byte[] b, int at) {
    return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
  }

  private static int u16le(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
  }
}
