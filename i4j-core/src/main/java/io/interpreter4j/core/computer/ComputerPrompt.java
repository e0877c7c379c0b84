package io.interpreter4j.core.computer;

/** The part of the system prompt that tells the model it can use the computer, and how. Pure. */
public final class ComputerPrompt {

  private ComputerPrompt() {}

  /**
   * @param size    the screen's size in model coordinates ("1280x720"), or null when not known yet
   * @param grid    whether screenshots carry a labelled grid
   * @param browser whether the browser target is available
   */
  public static String describe(String size, boolean grid, boolean browser) {
    StringBuilder s = new StringBuilder();
    s.append("You can use this computer's screen, mouse and keyboard from python: the global `computer` is there in ")
        .append("every python block (Open Interpreter's names). The screen is ")
        .append(size != null ? size : "as large as computer.display.size() says")
        .append(" in your coordinates (x to the right, y down, from the top-left corner 0,0); ")
        .append("every point you give is in that space, and a point outside it is an error, never a click ")
        .append("elsewhere. Programs you start (a GUI app, a browser) appear on this screen.\n")
        .append("- computer.display.view(): a screenshot, shown to you as an image")
        .append(grid ? " with a labelled grid every 100 pixels to help you name places" : "")
        .append("; computer.display.size() -> (width, height)\n")
        .append("- computer.mouse.move(x, y); computer.mouse.click(x, y, button=\"left\", clicks=1) (no point: where ")
        .append("the pointer is); computer.mouse.click(\"Submit\") clicks the visible text (OCR); ")
        .append("computer.mouse.scroll(dy) (positive: down); computer.mouse.drag(x1, y1, x2, y2)\n")
        .append("- computer.keyboard.write(\"text\"); computer.keyboard.press(\"enter\") (xdotool key names, ")
        .append("chords like \"ctrl+a\"); computer.keyboard.hotkey(\"ctrl\", \"c\")\n");
    if (browser) {
      s.append("- computer.browser.go(url); computer.browser.snapshot() (the page's accessibility tree, each ")
          .append("element with [ref=eN]); computer.browser.click(ref); computer.browser.type(ref, text, ")
          .append("submit=False); computer.browser.press(key); computer.browser.view() (a screenshot of the page); ")
          .append("computer.browser.text()\n")
          .append("For web pages prefer computer.browser to pixels: snapshot() names every element, so clicks and ")
          .append("typing hit the right one; use the screen for desktop programs and what the browser cannot do.\n");
    }
    s.append("Each call returns a short text or raises ComputerError saying why (point off screen, no such text). ")
        .append("Look before you act and after: view() after a click shows whether it did what you meant. Some ")
        .append("actions (typing a password, submitting a form, downloading) may ask the user first.");
    return s.toString();
  }
}
