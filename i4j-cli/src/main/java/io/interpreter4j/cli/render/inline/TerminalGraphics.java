package io.interpreter4j.cli.render.inline;

import java.util.Map;
import java.util.Set;

/**
 * Which picture protocol the terminal speaks, told by the environment it sets: kitty and Ghostty (kitty graphics),
 * iTerm2, WezTerm and mintty (iTerm2 inline images), foot, mlterm, Konsole 22.04 or later, and any {@code TERM}
 * naming sixel (sixel). Nothing inside tmux or screen, which would need each sequence wrapped to pass it on, nor on
 * a terminal not known here: a wrong guess prints garbage.
 */
public final class TerminalGraphics {

  private static final Set<String> SIXEL_TERMS = Set.of("foot", "foot-extra", "mlterm", "yaft-256color");

  private TerminalGraphics() {}

  /** The protocol, or null when the terminal is not one known to draw pictures. An empty variable counts as unset. */
  public static ImageProtocol detect(Map<String, String> env) {
    String term = value(env, "TERM");
    String program = value(env, "TERM_PROGRAM");
    if (term.equals("dumb") || !value(env, "TMUX").isEmpty() || term.startsWith("screen") || term.startsWith("tmux")) {
      return null;
    }
    if (!value(env, "KITTY_WINDOW_ID").isEmpty() || term.equals("xterm-kitty") || program.equals("ghostty")
        || term.equals("xterm-ghostty")) {
      return ImageProtocol.KITTY;
    }
    if (program.equals("iTerm.app") || value(env, "LC_TERMINAL").equals("iTerm2") || program.equals("WezTerm")
        || program.equals("mintty")) {
      return ImageProtocol.ITERM2;
    }
    if (SIXEL_TERMS.contains(term) || term.contains("sixel") || konsoleWithSixel(value(env, "KONSOLE_VERSION"))) {
      return ImageProtocol.SIXEL;
    }
    return null;
  }

  private static String value(Map<String, String> env, String name) {
    String v = env.get(name);
    return v == null ? "" : v.strip();
  }

  /** Konsole draws sixel since 22.04 ({@code KONSOLE_VERSION=220400}). */
  private static boolean konsoleWithSixel(String version) {
    try {
      return !version.isEmpty() && Integer.parseInt(version) >= 220400;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
