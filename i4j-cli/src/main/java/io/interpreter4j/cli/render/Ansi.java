package io.interpreter4j.cli.render;

import java.util.regex.Pattern;

/** ANSI escape sequences and the display width of text that may contain them (wide and zero-width characters). */
public final class Ansi {
  public static final String ESC = "\u001b";
  public static final String RESET = ESC + "[0m";
  /** Carriage return and erase to the end of the line: removes what is on the cursor's row. */
  public static final String ERASE_LINE = "\r" + ESC + "[K";
  /** Erase from the cursor to the end of the screen. */
  public static final String ERASE_DOWN = ESC + "[J";

  private static final Pattern CSI = Pattern.compile("\u001b\\[[0-9;?]*[ -/]*[@-~]");

  private Ansi() {}

  /** Moves the cursor up {@code rows} rows (none for 0). */
  public static String up(int rows) {
    return rows <= 0 ? "" : ESC + "[" + rows + "A";
  }

  /** The text without escape sequences. */
  public static String strip(String s) {
    return s.indexOf('\u001b') < 0 ? s : CSI.matcher(s).replaceAll("");
  }

  /** Length of the escape sequence starting at {@code i}, or 0 if none starts there. */
  static int escapeLength(String s, int i) {
    if (s.charAt(i) != '\u001b' || i + 1 >= s.length() || s.charAt(i + 1) != '[') {
      return 0;
    }
    int j = i + 2;
    while (j < s.length()) {
      char c = s.charAt(j);
      if (c >= '@' && c <= '~') {
        return j - i + 1;
      }
      j++;
    }
    return s.length() - i;
  }

  /** Columns the text takes on a terminal: escape sequences take none, wide characters two. */
  public static int width(String s) {
    int w = 0;
    for (int i = 0; i < s.length(); ) {
      int esc = escapeLength(s, i);
      if (esc > 0) {
        i += esc;
        continue;
      }
      int cp = s.codePointAt(i);
      w += charWidth(cp);
      i += Character.charCount(cp);
    }
    return w;
  }

  /** Columns of one code point: 0 for controls, combining marks and joiners, 2 for East Asian wide and emoji. */
  public static int charWidth(int cp) {
    if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) {
      return 0;
    }
    int type = Character.getType(cp);
    if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
        || cp == 0x200b || (cp >= 0xfe00 && cp <= 0xfe0f)) {
      return 0;
    }
    if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff)
        || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf)
        || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f)
        || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f)
        || (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)) {
      return 2;
    }
    return 1;
  }
}
