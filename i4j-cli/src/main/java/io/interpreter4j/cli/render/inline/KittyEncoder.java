package io.interpreter4j.cli.render.inline;

import java.util.Base64;

/**
 * Writes a PNG for the kitty graphics protocol: {@code ESC _G a=T,f=100,q=2,c=COLUMNS,m=1;BASE64 ESC \} in
 * chunks of at most 4096 base64 characters, the last with {@code m=0}. The terminal scales the picture to
 * {@code COLUMNS} cells, keeping its aspect; {@code q=2} asks it not to answer on the input, which is the user's.
 */
public final class KittyEncoder {

  static final int CHUNK = 4096;

  private KittyEncoder() {}

  public static String encode(byte[] png, int columns) {
    String data = Base64.getEncoder().encodeToString(png);
    StringBuilder out = new StringBuilder(data.length() + data.length() / CHUNK * 16 + 48);
    for (int at = 0; at < data.length() || at == 0; at += CHUNK) {
      int end = Math.min(data.length(), at + CHUNK);
      boolean more = end < data.length();
      out.append("\u001b_G");
      if (at == 0) {
        out.append("a=T,f=100,q=2,c=").append(columns).append(',');
      }
      out.append("m=").append(more ? 1 : 0).append(';').append(data, at, end).append("\u001b\\");
      if (!more) {
        break;
      }
    }
    return out.toString();
  }
}
