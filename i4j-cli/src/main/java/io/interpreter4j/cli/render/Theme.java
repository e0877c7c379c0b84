package io.interpreter4j.cli.render;

/**
 * The styles of the terminal renderer. Each style switches itself off with its own SGR code (not a full reset), so
 * styles nest: bold text can hold a code span. Without colour every style returns the text unchanged.
 */
public record Theme(boolean color) {

  public static final Theme COLOR = new Theme(true);
  public static final Theme NONE = new Theme(false);

  private String sgr(String on, String off, String s) {
    return color && !s.isEmpty() ? Ansi.ESC + "[" + on + "m" + s + Ansi.ESC + "[" + off + "m" : s;
  }

  public String bold(String s) { return sgr("1", "22", s); }

  public String dim(String s) { return sgr("2", "22", s); }

  public String italic(String s) { return sgr("3", "23", s); }

  public String underline(String s) { return sgr("4", "24", s); }

  public String strike(String s) { return sgr("9", "29", s); }

  public String red(String s) { return sgr("31", "39", s); }

  public String green(String s) { return sgr("32", "39", s); }

  public String yellow(String s) { return sgr("33", "39", s); }

  public String blue(String s) { return sgr("34", "39", s); }

  public String magenta(String s) { return sgr("35", "39", s); }

  public String cyan(String s) { return sgr("36", "39", s); }

  public String gray(String s) { return sgr("90", "39", s); }

  // ---- roles ----

  public String heading(int level, String s) {
    return switch (level) {
      case 1 -> bold(underline(magenta(s)));
      case 2 -> bold(magenta(s));
      default -> bold(s);
    };
  }

  public String code(String s) { return cyan(s); }

  public String link(String s) { return underline(blue(s)); }

  public String keyword(String s) { return magenta(s); }

  public String string(String s) { return green(s); }

  public String comment(String s) { return gray(italic(s)); }

  public String number(String s) { return yellow(s); }

  public String builtin(String s) { return cyan(s); }

  public String function(String s) { return blue(s); }

  public String variable(String s) { return cyan(s); }

  public String option(String s) { return yellow(s); }

  public String frame(String s) { return gray(s); }

  public String stderr(String s) { return red(s); }

  public String ok(String s) { return green(s); }

  public String bad(String s) { return bold(red(s)); }

  public String warn(String s) { return yellow(s); }
}
