package io.interpreter4j.cli.render.inline;

import java.util.HashMap;
import java.util.Map;

/**
 * A small sixel reader for the tests: follows the sequence as a terminal would ({@code #} selects or defines a colour,
 * {@code !} repeats, {@code $} returns, {@code -} moves down a band) and gives the colour of each pixel painted, or -1.
 * It refuses anything it does not expect, so an encoder's slip shows as a failure here.
 */
final class SixelDecoder {

  record Picture(int width, int height, int[] rgb) {}

  static Picture decode(String sequence) {
    String start = "\u001bP0;1;0q";
    if (!sequence.startsWith(start) || !sequence.endsWith("\u001b\\")) {
      throw new IllegalArgumentException("not a DCS sixel sequence with P2=1");
    }
    String body = sequence.substring(start.length(), sequence.length() - 2);
    int at = 0;
    if (body.charAt(at) != '"') {
      throw new IllegalArgumentException("no raster attributes");
    }
    int end = at + 1;
    while (Character.isDigit(body.charAt(end)) || body.charAt(end) == ';') {
      end++;
    }
    String[] raster = body.substring(at + 1, end).split(";");
    int width = Integer.parseInt(raster[2]);
    int height = Integer.parseInt(raster[3]);
    int[] rgb = new int[width * height];
    java.util.Arrays.fill(rgb, -1);
    Map<Integer, Integer> colours = new HashMap<>();
    int colour = -1;
    int x = 0;
    int top = 0;
    at = end;
    while (at < body.length()) {
      char c = body.charAt(at);
      if (c == '#') {
        end = at + 1;
        while (end < body.length() && (Character.isDigit(body.charAt(end)) || body.charAt(end) == ';')) {
          end++;
        }
        String[] parts = body.substring(at + 1, end).split(";");
        colour = Integer.parseInt(parts[0]);
        if (parts.length == 5) {
          if (!parts[1].equals("2")) {
            throw new IllegalArgumentException("colour " + colour + " is not RGB");
          }
          colours.put(colour, Integer.parseInt(parts[2]) << 16 | Integer.parseInt(parts[3]) << 8
              | Integer.parseInt(parts[4]));
        } else if (parts.length != 1 || !colours.containsKey(colour)) {
          throw new IllegalArgumentException("colour " + colour + " used before it is defined");
        }
        at = end;
      } else if (c == '$') {
        x = 0;
        at++;
      } else if (c == '-') {
        x = 0;
        top += 6;
        at++;
      } else {
        int repeat = 1;
        if (c == '!') {
          end = at + 1;
          while (Character.isDigit(body.charAt(end))) {
            end++;
          }
          repeat = Integer.parseInt(body.substring(at + 1, end));
          at = end;
          c = body.charAt(at);
        }
        if (c < '?' || c > '~') {
          throw new IllegalArgumentException("not a sixel character: " + (int) c + " at " + at);
        }
        int bits = c - '?';
        for (int i = 0; i < repeat; i++, x++) {
          for (int y = 0; y < 6; y++) {
            if ((bits & (1 << y)) != 0) {
              if (x >= width || top + y >= height) {
                throw new IllegalArgumentException("a pixel painted outside the raster at " + x + "," + (top + y));
              }
              rgb[(top + y) * width + x] = colours.get(colour);
            }
          }
        }
        at++;
      }
    }
    return new Picture(width, height, rgb);
  }
}
