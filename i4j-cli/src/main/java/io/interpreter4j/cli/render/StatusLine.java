package io.interpreter4j.cli.render;

/** The text of the terminal's status line: "⠋ thinking · 2.4s", "⠙ running block 2 · 5.1s · Ctrl-C interrupts". */
final class StatusLine {

  private static final String[] SPINNER = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};

  private StatusLine() {}

  /** {@code runningBlock}: the block that runs, 0 while the model thinks; cut to fit {@code width} columns. */
  static String text(int frame, int runningBlock, long elapsedMillis, int width) {
    String label = runningBlock > 0 ? "running block " + runningBlock : "thinking";
    String hint = runningBlock > 0 ? " · Ctrl-C interrupts" : "";
    String text = SPINNER[frame % SPINNER.length] + " " + label + " · " + seconds(elapsedMillis) + hint;
    return text.substring(0, TextWrap.cutAt(text, Math.max(10, width - 1)));
  }

  private static String seconds(long millis) {
    return millis < 60_000 ? (millis / 1000) + "." + (millis % 1000 / 100) + "s" : EventRenderer.duration(millis);
  }
}
