package io.interpreter4j.cli.render;

import java.util.ArrayList;
import java.util.List;

/**
 * Word-wraps styled text to a terminal width. Widths are display columns ({@link Ansi#width}); a word longer than
 * a line is cut. A style open at a line break is closed at the end of that line and opened again after the next
 * line's indent, so indents and gutters are never styled by accident.
 */
public final class TextWrap {

  /** Narrowest text column used, however deep the indent: below it wrapping stops making sense. */
  static final int MIN_TEXT_WIDTH = 12;

  private TextWrap() {}

  /**
   * @param first indent (or gutter) of the first line
   * @param rest  indent of the lines after it
   */
  public static List<String> wrap(String text, int width, String first, String rest) {
    if (text.indexOf('\n') >= 0) {
      // Each line of the text is wrapped on its own; styles carry over from line to line.
      List<String> rows = new ArrayList<>();
      SgrState sgr = new SgrState();
      String indent = first;
      for (String line : text.split("\n", -1)) {
        String reopened = sgr.reopen();
        sgr.track(line);
        rows.addAll(wrapLine(reopened + line, width, indent, rest));
        indent = rest;
      }
      return rows;
    }
    return wrapLine(text, width, first, rest);
  }

  /**
   * Lines of status text wrapped at spaces: the rows after a line's first are indented by {@code hang} columns, or as
   * far as the line itself is indented when that is more (the second line of a table's cell).
   */
  public static List<String> hanging(String text, int width, int hang) {
    List<String> rows = new ArrayList<>();
    SgrState sgr = new SgrState(); // a style opened on one line goes on over the next, as wrap() carries it
    for (String line : text.split("\n", -1)) {
      String reopened = sgr.reopen();
      sgr.track(line);
      String plain = Ansi.strip(line);
      int leading = plain.length() - plain.stripLeading().length();
      String indent = " ".repeat(leading);
      boolean plainIndent = line.startsWith(indent); // the indent before any style: kept as the first row's indent
      rows.addAll(wrapLine(reopened + (plainIndent ? line.substring(leading) : line), width,
          plainIndent ? indent : "", " ".repeat(Math.max(leading, hang))));
    }
    return rows;
  }

  private static List<String> wrapLine(String text, int width, String first, String rest) {
    List<String> lines = new ArrayList<>();
    Line line = new Line(first, Math.max(width, Ansi.width(first) + MIN_TEXT_WIDTH));
    SgrState sgr = new SgrState();
    String pendingSpace = "";
    int i = 0;
    while (i < text.length()) {
      int end = i;
      boolean space = text.charAt(i) == ' ';
      while (end < text.length() && (text.charAt(end) == ' ') == space) {
        int esc = Ansi.escapeLength(text, end);
        end += esc > 0 ? esc : 1;
      }
      String token = text.substring(i, end);
      i = end;
      if (space) {
        pendingSpace = token;
        continue;
      }
      int tokenWidth = Ansi.width(token);
      if (line.hasText && line.width + Ansi.width(pendingSpace) + tokenWidth > line.limit) {
        lines.add(line.close(sgr));
        line = new Line(rest + sgr.reopen(), Math.max(width, Ansi.width(rest) + MIN_TEXT_WIDTH));
        pendingSpace = "";
      }
      if (line.hasText) {
        line.append(pendingSpace);
      }
      pendingSpace = "";
      // A word wider than a whole line is cut wherever the line is full.
      while (line.width + Ansi.width(token) > line.limit) {
        int cut = cutAt(token, line.limit - line.width);
        if (cut == 0 && line.hasText) {
          lines.add(line.close(sgr));
          line = new Line(rest + sgr.reopen(), Math.max(width, Ansi.width(rest) + MIN_TEXT_WIDTH));
          continue;
        }
        cut = Math.max(cut, firstCharLength(token));
        String head = token.substring(0, cut);
        line.append(head);
        sgr.track(head);
        token = token.substring(cut);
        lines.add(line.close(sgr));
        line = new Line(rest + sgr.reopen(), Math.max(width, Ansi.width(rest) + MIN_TEXT_WIDTH));
      }
      line.append(token);
      sgr.track(token);
    }
    if (line.hasText || lines.isEmpty()) {
      lines.add(line.close(sgr));
    }
    return lines;
  }

  /** Cuts text into rows of at most {@code width} columns, each continuing row starting with {@code gutter}. */
  public static List<String> hardWrap(String text, int width, String first, String gutter) {
    List<String> rows = new ArrayList<>();
    int limit = Math.max(width, Ansi.width(first) + MIN_TEXT_WIDTH);
    SgrState sgr = new SgrState();
    String prefix = first;
    String remaining = text;
    while (true) {
      int room = limit - Ansi.width(prefix);
      if (Ansi.width(remaining) <= room) {
        rows.add(prefix + remaining);
        return rows;
      }
      int cut = Math.max(cutAt(remaining, room), firstCharLength(remaining));
      String head = remaining.substring(0, cut);
      sgr.track(head);
      rows.add(prefix + head + (sgr.plain() ? "" : Ansi.RESET));
      remaining = remaining.substring(cut);
      limit = Math.max(width, Ansi.width(gutter) + MIN_TEXT_WIDTH);
      prefix = gutter + sgr.reopen();
    }
  }

  /** The longest prefix of {@code s} (in chars) that fits in {@code columns}, never inside an escape sequence. */
  static int cutAt(String s, int columns) {
    int w = 0;
    int i = 0;
    while (i < s.length()) {
      int esc = Ansi.escapeLength(s, i);
      if (esc > 0) {
        i += esc;
        continue;
      }
      int cp = s.codePointAt(i);
      int cw = Ansi.charWidth(cp);
      if (w + cw > columns) {
        return i;
      }
      w += cw;
      i += Character.charCount(cp);
    }
    return i;
  }

  private static int firstCharLength(String s) {
    int i = 0;
    while (i < s.length()) {
      int esc = Ansi.escapeLength(s, i);
      if (esc == 0) {
        return i + Character.charCount(s.codePointAt(i));
      }
      i += esc;
    }
    return i;
  }

  /** The SGR attributes in effect after some styled text: what to close at a line end and reopen after it. */
  static final class SgrState {
    private boolean bold;
    private boolean dim;
    private boolean italic;
    private boolean underline;
    private boolean strike;
    private String foreground;

    void track(String text) {
      for (int i = 0; i < text.length(); ) {
        int esc = Ansi.escapeLength(text, i);
        if (esc == 0) {
          i++;
          continue;
        }
        String seq = text.substring(i, i + esc);
        if (seq.endsWith("m")) {
          String params = seq.substring(2, seq.length() - 1);
          for (String p : (params.isEmpty() ? "0" : params).split(";")) {
            apply(p);
          }
        }
        i += esc;
      }
    }

    private void apply(String code) {
      switch (code) {
        case "0", "" -> {
          bold = dim = italic = underline = strike = false;
          foreground = null;
        }
        case "1" -> bold = true;
        case "2" -> dim = true;
        case "22" -> bold = dim = false;
        case "3" -> italic = true;
        case "23" -> italic = false;
        case "4" -> underline = true;
        case "24" -> underline = false;
        case "9" -> strike = true;
        case "29" -> strike = false;
        case "39" -> foreground = null;
        default -> {
          if (code.matches("3[0-7]|9[0-7]")) {
            foreground = code;
          }
        }
      }
    }

    boolean plain() {
      return !bold && !dim && !italic && !underline && !strike && foreground == null;
    }

    String reopen() {
      if (plain()) {
        return "";
      }
      StringBuilder sb = new StringBuilder();
      if (bold) {
        sb.append(";1");
      }
      if (dim) {
        sb.append(";2");
      }
      if (italic) {
        sb.append(";3");
      }
      if (underline) {
        sb.append(";4");
      }
      if (strike) {
        sb.append(";9");
      }
      if (foreground != null) {
        sb.append(';').append(foreground);
      }
      return Ansi.ESC + "[" + sb.substring(1) + "m";
    }
  }

  private static final class Line {
    final StringBuilder text = new StringBuilder();
    final int limit;
    int width;
    boolean hasText;

    Line(String indent, int limit) {
      this.limit = limit;
      text.append(indent);
      width = Ansi.width(indent);
    }

    void append(String s) {
      text.append(s);
      width += Ansi.width(s);
      hasText = true;
    }

    String close(SgrState sgr) {
      if (!sgr.plain()) {
        text.append(Ansi.RESET);
      }
      return text.toString();
    }
  }
}
