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

  /** The protocol, or null when the terminal is not one known to draw pictures. */
  public static ImageProtocol detect(Map<String, String> env) {
    String term = env.getOrDefault("TERM", "");
    String program = env.getOrDefault("TERM_PROGRAM", "");
    if (term.equals("dumb") || env.containsKey("TMUX") || term.startsWith("screen") || term.startsWith("tmux")) {
      return null;
    }
    if (env.containsKey("KITTY_WINDOW_ID") || term.equals("xterm-kitty") || program.equals("ghostty")
        || term.equals("xterm-ghostty")) {
      return ImageProtocol.KITTY;
    }
    if (program.equals("iTerm.app") || "iTerm2".equals(env.get("LC_TERMINAL")) || program.equals("WezTerm")
        || program.equals("mintty")) {
      return ImageProtocol.ITERM2;
    }
    if (SIXEL_TERMS.contains(term) || term.contains("sixel") || konsoleWithSixel(env.get("KONSOLE_VERSION"))) {
      return ImageProtocol.SIXEL;
    }
    return null;
  }

  /** Konsole draws sixel since 22.04 ({@code KONSOLE_VERSION=220400}). */
  private static boolean konsoleWithSixel(String version) {
    try {
      return version != null && Integer.parseInt(version.strip()) >= 220400;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
