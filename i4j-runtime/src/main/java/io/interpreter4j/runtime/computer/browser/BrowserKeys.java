package io.interpreter4j.runtime.computer.browser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The key names {@code computer.browser.press(key)} accepts, turned into Playwright's: its own names ("Enter",
 * "Control+a", "ArrowDown") pass through, and the lower-case and xdotool-style names a model also writes ("enter",
 * "ctrl+a", "down", "page_down", "Return") are mapped to them.
 */
public final class BrowserKeys {

  private static final Map<String, String> NAMES = Map.ofEntries(
      Map.entry("enter", "Enter"), Map.entry("return", "Enter"), Map.entry("kp_enter", "Enter"),
      Map.entry("tab", "Tab"), Map.entry("esc", "Escape"), Map.entry("escape", "Escape"),
      Map.entry("backspace", "Backspace"), Map.entry("delete", "Delete"), Map.entry("del", "Delete"),
      Map.entry("insert", "Insert"), Map.entry("space", "Space"), Map.entry("up", "ArrowUp"),
      Map.entry("down", "ArrowDown"), Map.entry("left", "ArrowLeft"), Map.entry("right", "ArrowRight"),
      Map.entry("arrowup", "ArrowUp"), Map.entry("arrowdown", "ArrowDown"), Map.entry("arrowleft", "ArrowLeft"),
      Map.entry("arrowright", "ArrowRight"), Map.entry("home", "Home"), Map.entry("end", "End"),
      Map.entry("pageup", "PageUp"), Map.entry("page_up", "PageUp"), Map.entry("prior", "PageUp"),
      Map.entry("pagedown", "PageDown"), Map.entry("page_down", "PageDown"), Map.entry("next", "PageDown"),
      Map.entry("ctrl", "Control"), Map.entry("control", "Control"), Map.entry("control_l", "Control"),
      Map.entry("shift", "Shift"), Map.entry("shift_l", "Shift"), Map.entry("alt", "Alt"), Map.entry("alt_l", "Alt"),
      Map.entry("option", "Alt"), Map.entry("meta", "Meta"), Map.entry("cmd", "Meta"), Map.entry("command", "Meta"),
      Map.entry("super", "Meta"), Map.entry("win", "Meta"));

  private BrowserKeys() {}

  /**
   * Playwright's form of {@code key}, a key or a chord joined by +.
   *
   * @throws IllegalArgumentException when it is empty or has an empty part
   */
  public static String playwright(String key) {
    String given = key == null ? "" : key.strip();
    if (given.isEmpty()) {
      throw new IllegalArgumentException("press needs a key: \"Enter\", \"Tab\", \"ArrowDown\", \"Control+a\"");
    }
    if (given.equals("+")) {
      return "+";
    }
    List<String> parts = new ArrayList<>();
    for (String part : given.split("\\+", -1)) {
      String p = part.strip();
      if (p.isEmpty()) {
        throw new IllegalArgumentException("'" + key + "' has an empty key in it: write chords as \"Control+a\"");
      }
      parts.add(one(p));
    }
    return String.join("+", parts);
  }

  /** Whether the chord ends with Enter, which submits the form of a focused field. */
  public static boolean endsWithEnter(String playwrightKey) {
    return playwrightKey.equals("Enter") || playwrightKey.endsWith("+Enter");
  }

  private static String one(String key) {
    if (key.length() == 1) {
      return key;
    }
    String lower = key.toLowerCase(Locale.ROOT);
    String mapped = NAMES.get(lower);
    if (mapped != null) {
      return mapped;
    }
    if (lower.matches("f([1-9]|1[0-9]|2[0-4])")) {
      return "F" + lower.substring(1);
    }
    return key;
  }
}
