package io.interpreter4j.cli.render;

import io.interpreter4j.core.intercept.Languages;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a model's markdown, as it streams in pieces, into terminal rows, line by line. Prose lines go through the
 * {@link MarkdownRenderer}; a fenced block becomes a frame labelled with its language (and number, for code that
 * runs) whose lines are syntax-highlighted. A line is rendered once, when its newline arrives; until then
 * {@link #preview()} is the raw partial line, which the renderer shows and replaces with the rendered rows.
 */
public final class MarkdownStream {

  private static final Pattern OPEN_FENCE = Pattern.compile("^( {0,3})(`{3,}|~{3,})\\s*(.*)$");

  private final Theme theme;
  private final MarkdownRenderer prose;
  private final StringBuilder partial = new StringBuilder();
  private int nextBlockIndex = 1;

  private boolean inFence;
  private char fenceChar;
  private int fenceLength;
  private int fenceIndent;
  private Highlighter highlighter;
  private final StringBuilder code = new StringBuilder();
  private String lastFrameCode;

  public MarkdownStream(Theme theme) {
    this.theme = theme;
    this.prose = new MarkdownRenderer(theme);
  }

  /** The number the next runnable block will get (the session numbers blocks per session). */
  public void nextBlockIndex(int index) {
    nextBlockIndex = index;
  }

  /** Takes the next piece of the answer; returns the rows of the lines it completed. */
  public List<String> feed(String text, int width) {
    List<String> rows = new ArrayList<>();
    int start = 0;
    for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      partial.append(text, start, nl);
      rows.addAll(line(partial.toString(), width));
      partial.setLength(0);
      start = nl + 1;
    }
    partial.append(text, start, text.length());
    return rows;
  }

  /** Ends the answer: the partial line is rendered as complete, and an open frame is closed. */
  public List<String> finish(int width) {
    List<String> rows = new ArrayList<>();
    if (partial.length() > 0) {
      rows.addAll(line(partial.toString(), width));
      partial.setLength(0);
    }
    if (inFence) {
      rows.add(closeFrame(width));
    }
    return rows;
  }

  /** The partial current line, raw (inside a block, after the frame's gutter); "" when none. */
  public String preview() {
    if (partial.length() == 0) {
      return "";
    }
    String raw = partial.toString().replace("\t", "    ").replace("\r", "");
    return inFence ? theme.frame("│ ") + raw : raw;
  }

  public boolean inCode() {
    return inFence;
  }

  /** The code of the last frame closed, to tell whether an approval question is about the block just shown. */
  public String lastFrameCode() {
    return lastFrameCode;
  }

  private List<String> line(String raw, int width) {
    String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
    if (inFence) {
      if (closesFence(line)) {
        return List.of(closeFrame(width));
      }
      String body = stripIndent(line, fenceIndent).replace("\t", "    ");
      code.append(body).append('\n');
      return TextWrap.hardWrap(highlighter.line(body), width, theme.frame("│ "), theme.frame("┆ "));
    }
    Matcher m = OPEN_FENCE.matcher(line);
    if (m.matches() && !(m.group(2).charAt(0) == '`' && m.group(3).contains("`"))) {
      inFence = true;
      fenceIndent = m.group(1).length();
      fenceChar = m.group(2).charAt(0);
      fenceLength = m.group(2).length();
      String tag = Languages.tagOf(m.group(3));
      highlighter = Highlighter.of(tag, theme);
      code.setLength(0);
      String label = tag.isEmpty() ? "code" : tag;
      if (Languages.isRunnable(tag)) {
        label = label + " · block " + nextBlockIndex++;
      }
      return List.of(frameTop(label, width));
    }
    return prose.render(line, width);
  }

  private boolean closesFence(String line) {
    String s = line.stripTrailing();
    int indent = 0;
    while (indent < s.length() && indent < 4 && s.charAt(indent) == ' ') {
      indent++;
    }
    if (indent > 3) {
      return false;
    }
    String fence = s.substring(indent);
    return fence.length() >= fenceLength && fence.chars().allMatch(c -> c == fenceChar);
  }

  private String frameTop(String label, int width) {
    String head = "╭─ ";
    int rest = Math.max(3, width - 1 - Ansi.width(head) - Ansi.width(label) - 1);
    return theme.frame(head) + theme.bold(label) + " " + theme.frame("─".repeat(rest));
  }

  private String closeFrame(int width) {
    inFence = false;
    String c = code.toString();
    lastFrameCode = c.endsWith("\n") ? c.substring(0, c.length() - 1) : c;
    return theme.frame("╰" + "─".repeat(Math.max(3, width - 2)));
  }

  /** Whether a rendered row is the bottom line of a code frame. */
  public static boolean isFrameEnd(String row) {
    return Ansi.strip(row).startsWith("╰");
  }

  private static String stripIndent(String line, int indent) {
    int i = 0;
    while (i < indent && i < line.length() && line.charAt(i) == ' ') {
      i++;
    }
    return line.substring(i);
  }
}
