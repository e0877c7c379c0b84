package io.interpreter4j.runtime.computer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Key names as a model writes them ({@code "enter"}, {@code "ctrl+a"}, {@code "cmd"}, {@code "pagedown"}) turned
 * into xdotool's keysym chords ({@code Return}, {@code ctrl+a}, {@code super}, {@code Next}); names xdotool knows
 * already pass through. Pure.
 */
public final class KeyNames {

  private static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("enter", "Return"), Map.entry("return", "Return"), Map.entry("esc", "Escape"),
      Map.entry("escape", "Escape"), Map.entry("tab", "Tab"), Map.entry("backspace", "BackSpace"),
      Map.entry("delete", "Delete"), Map.entry("del", "Delete"), Map.entry("insert", "Insert"),
      Map.entry("space", "space"), Map.entry("up", "Up"), Map.entry("down", "Down"), Map.entry("left", "Left"),
      Map.entry("right", "Right"), Map.entry("home", "Home"), Map.entry("end", "End"),
      Map.entry("pageup", "Prior"), Map.entry("page_up", "Prior"), Map.entry("pagedown", "Next"),
      Map.entry("page_down", "Next"), Map.entry("ctrl", "ctrl"), Map.entry("control", "ctrl"),
      Map.entry("alt", "alt"), Map.entry("option", "alt"), Map.entry("shift", "shift"), Map.entry("cmd", "super"),
      Map.entry("command", "super"), Map.entry("win", "super"), Map.entry("super", "super"),
      Map.entry("meta", "super"), Map.entry("capslock", "Caps_Lock"), Map.entry("menu", "Menu"),
      Map.entry("printscreen", "Print"), Map.entry("plus", "plus"), Map.entry("minus", "minus"));

  private KeyNames() {}

  /**
   * One chord ({@code "ctrl+shift+t"}) as xdotool's key argument.
   *
   * @throws IllegalArgumentException for an empty chord or an empty key in it
   */
  public static String chord(String chord) {
    if (chord == null || chord.isBlank()) {
      throw new IllegalArgumentException("no key given: name one, e.g. \"enter\" or \"ctrl+a\"");
    }
    String text = chord.strip();
    if (text.equals("+")) {
      return "plus";
    }
    List<String> keys = new ArrayList<>();
    for (String part : text.split("\\+", -1)) {
      String key = part.strip();
      if (key.isEmpty()) {
        throw new IllegalArgumentException("'" + chord + "' has an empty key; write chords as \"ctrl+a\"");
      }
      keys.add(key(key));
    }
    return String.join("+", keys);
  }

  /** Several keys held together ({@code hotkey("ctrl", "c")}). */
  public static String chord(List<String> keys) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("no key given: name one or more, e.g. hotkey(\"ctrl\", \"c\")");
    }
    List<String> out = new ArrayList<>();
    for (String key : keys) {
      out.add(chord(key));
    }
    return String.join("+", out);
  }

  private static String key(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    String alias = ALIASES.get(lower);
    if (alias != null) {
      return alias;
    }
    if (lower.matches("f([1-9]|1[0-9]|2[0-4])")) {
      return "F" + lower.substring(1);
    }
    return key; // a keysym xdotool knows (Return, XF86AudioMute) or one character
  }
}
