package io.interpreter4j.cli.render.inline;

import java.util.Base64;

/**
 * Writes an image file for iTerm2's inline images (also WezTerm's and mintty's):
 * {@code ESC ] 1337 ; File=inline=1;size=N;width=COLUMNS;preserveAspectRatio=1 : BASE64 BEL}.
 */
public final class ITerm2Encoder {

  private ITerm2Encoder() {}

  public static String encode(byte[] file, int columns) {
    return "\u001b]1337;File=inline=1;size=" + file.length + ";width=" + columns + ";preserveAspectRatio=1:"
        + Base64.getEncoder().encodeToString(file) + "\u0007";
  }
}
