package io.interpreter4j.core.intercept;

import java.util.ArrayList;
import java.util.List;

/**
 * Incremental CommonMark-style fenced-code scanner over the model's markdown as it streams in arbitrary
 * chunks: prose comes out as {@link Segment.Text} as early as possible, runnable fences as
 * {@link Segment.BlockOpen} / {@link Segment.Code} / {@link Segment.BlockClosed}, and non-runnable fences
 * (text, output, json, ...) verbatim as Text.
 *
 * <p>Text is lossless: the Text segments plus the fence markdown of the runnable blocks are the input.
 * Inside runnable blocks a line's trailing '\r' is dropped and up to the opening fence's indentation is
 * removed from each line. Not thread-safe; one instance per streamed answer.
 */
public final class FenceScanner {

  private enum Mode { PROSE, RUNNABLE, PASSTHROUGH }

  private final String defaultLanguage;
  private int nextIndex;

  private Mode mode = Mode.PROSE;
  /** Characters of the current line not emitted yet: held back while the line could still be a fence. */
  private final StringBuilder line = new StringBuilder();
  /** The current line can no longer be a fence, so its characters go straight out as Text. */
  private boolean lineIsPlain;

  // The open fence (RUNNABLE or PASSTHROUGH).
  private char fenceChar;
  private int fenceLength;
  private int fenceIndent;
  private int blockIndex;
  private String blockLanguage;
  private String blockInfo;
  /** The open runnable block's code so far: each line with its '\n'. */
  private final StringBuilder blockCode = new StringBuilder();

  // Output of the current feed()/finish() call.
  private final List<Segment> out = new ArrayList<>();
  private final StringBuilder text = new StringBuilder();
  private boolean finished;

  /**
   * @param defaultLanguage language of a fence without an info string
   * @param firstBlockIndex index given to the first runnable block; later ones count up from it
   */
  public FenceScanner(String defaultLanguage, int firstBlockIndex) {
    this.defaultLanguage = defaultLanguage;
    this.nextIndex = firstBlockIndex;
  }

  /** Consumes the next piece of the answer and returns what is certain so far. */
  public List<Segment> feed(String chunk) {
    if (finished) {
      throw new IllegalStateException("feed() after finish()");
    }
    // Most chunks are a few characters inside a line: they take one of the two paths below, and feed() stays small
    // enough for the JIT to inline into the caller's loop. Nothing is held in `out` between calls.
    int newline = chunk.indexOf('\n');
    int n = chunk.length();
    if (newline < 0 && n > 0) {
      if (mode == Mode.RUNNABLE) {
        line.append(chunk); // more of a line of code, emitted whole at its end
        return List.of();
      }
      if (lineIsPlain && text.length() == 0 && !Character.isHighSurrogate(chunk.charAt(n - 1))) {
        return List.of(new Segment.Text(chunk)); // more of a prose line, passed on as it came
      }
    }
    return scan(chunk, newline);
  }

  /**
   * The general path of {@link #feed}, character by character where a line may still be a fence; {@code newline} is
   * the chunk's first '\n' or -1. Kept one method, larger than the JIT's limit for inlining a hot call
   * ({@code FreqInlineSize}, 325 bytes of bytecode), so that feed() compiles small and is inlined into its caller.
   */
  private List<Segment> scan(String chunk, int newline) {
    int n = chunk.length();
    boolean nothingHeld = text.length() == 0 && line.length() == 0;
    int i = 0;
    while (i < n) {
      char c = chunk.charAt(i);
      if (c == '\n') {
        endLine();
        i++;
        continue;
      }
      if (!lineIsPlain && line.length() == 0 && mode != Mode.RUNNABLE && cannotStartFence(c)) {
        lineIsPlain = true; // decided by its first character, as most lines of prose are
      }
      if (lineIsPlain || mode == Mode.RUNNABLE) {
        // the rest of a line that cannot be a fence (or a line of code, emitted whole): copied in one go
        if (newline >= 0 && newline < i) {
          newline = chunk.indexOf('\n', i);
        }
        int end = newline < 0 ? n : newline;
        (lineIsPlain ? text : line).append(chunk, i, end);
        i = end;
        continue;
      }
      // a line that may still be the fence looked for: held back one character at a time until that is decided
      line.append(c);
      boolean stillPossible = mode == Mode.PROSE ? couldBeOpeningFence(line) : couldBeClosingFence(line);
      if (!stillPossible) {
        text.append(line);
        line.setLength(0);
        lineIsPlain = true;
      }
      i++;
    }
    if (n > 0 && nothingHeld && out.isEmpty() && line.length() == 0 && text.length() == n
        && !Character.isHighSurrogate(chunk.charAt(n - 1))) {
      // all of the chunk, and only it, is text: passed on as it came rather than copied
      text.setLength(0);
      return List.of(new Segment.Text(chunk));
    }
    return drain(false);
  }

  /** Whether a line starting with {@code c} cannot be the fence looked for (opening in prose, closing in passthrough). */
  private boolean cannotStartFence(char c) {
    return c != ' ' && (mode == Mode.PROSE ? c != '`' && c != '~' : c != fenceChar);
  }

  /** The answer is complete: flushes held-back text and closes a block left open (unterminated). */
  public List<Segment> finish() {
    if (finished) {
      throw new IllegalStateException("finish() called twice");
    }
    finished = true;
    switch (mode) {
      case PROSE -> finishProse();
      case PASSTHROUGH -> text.append(line);
      case RUNNABLE -> finishRunnable();
    }
    line.setLength(0);
    return drain(true);
  }

  /** The index the next runnable block will get. */
  public int nextBlockIndex() {
    return nextIndex;
  }

  private void endLine() {
    if (lineIsPlain) {
      text.append('\n');
    } else if (mode == Mode.RUNNABLE) {
      if (isClosingFence(line)) {
        closeBlock(false);
      } else {
        addCodeLine();
      }
    } else {
      String l = line.toString();
      if (mode == Mode.PROSE) {
        if (!openFence(l, false)) {
          text.append(l).append('\n');
        }
      } else { // PASSTHROUGH
        text.append(l).append('\n');
        if (isClosingFence(l)) {
          mode = Mode.PROSE;
        }
      }
    }
    line.setLength(0);
    lineIsPlain = false;
  }

  private void finishProse() {
    String l = line.toString();
    if (lineIsPlain || l.isEmpty()) {
      return;
    }
    // CommonMark: an opening fence on the last line starts a block that the end of the document closes.
    if (!openFence(l, true)) {
      text.append(l);
    } else if (mode == Mode.RUNNABLE) {
      closeBlock(true);
    }
  }

  private void finishRunnable() {
    if (line.length() > 0 && isClosingFence(line)) {
      closeBlock(false);
      return;
    }
    if (line.length() > 0) {
      addCodeLine();
    }
    closeBlock(true);
  }

  /**
   * Recognises a complete opening fence line and enters the block; returns false when {@code l} is prose.
   * A non-runnable fence line is emitted as Text. {@code atEnd} is the last line of the answer, without newline.
   */
  private boolean openFence(String l, boolean atEnd) {
    int indent = leadingSpaces(l);
    if (indent > 3 || indent >= l.length()) {
      return false;
    }
    char c = l.charAt(indent);
    if (c != '`' && c != '~') {
      return false;
    }
    int run = runLength(l, indent, c);
    if (run < 3) {
      return false;
    }
    String info = l.substring(indent + run).strip();
    if (c == '`' && info.indexOf('`') >= 0) {
      return false;
    }
    String tag = Languages.tagOf(info);
    fenceChar = c;
    fenceLength = run;
    fenceIndent = indent;
    if (!Languages.isRunnable(tag)) {
      text.append(l);
      if (!atEnd) {
        text.append('\n');
      }
      mode = Mode.PASSTHROUGH;
      return true;
    }
    blockIndex = nextIndex++;
    blockLanguage = Languages.normalize(tag, defaultLanguage);
    blockInfo = info;
    blockCode.setLength(0);
    emit(new Segment.BlockOpen(blockIndex, blockLanguage, blockInfo, true));
    mode = Mode.RUNNABLE;
    return true;
  }

  /**
   * The complete line of code in {@link #line} (without its '\n'; the caller empties it): its trailing '\r' dropped,
   * up to the fence's indentation removed, kept for the block and emitted with a '\n', made in one copy.
   */
  private void addCodeLine() {
    int end = line.length();
    if (end > 0 && line.charAt(end - 1) == '\r') {
      end--;
    }
    line.setLength(end);
    int strip = Math.min(fenceIndent, leadingSpaces(line));
    String code = line.append('\n').substring(strip);
    blockCode.append(code);
    emit(new Segment.Code(blockIndex, code));
  }

  private void closeBlock(boolean unterminated) {
    // the lines joined by '\n': all of them but the last one's '\n'
    String code = blockCode.length() == 0 ? "" : blockCode.substring(0, blockCode.length() - 1);
    emit(new Segment.BlockClosed(new CodeBlock(blockIndex, blockLanguage, blockInfo, code, true, unterminated)));
    blockCode.setLength(0);
    mode = Mode.PROSE;
  }

  /** Whether a line starting with {@code l} may still turn out to be an opening fence once it is complete. */
  private static boolean couldBeOpeningFence(CharSequence l) {
    int indent = leadingSpaces(l);
    if (indent > 3) {
      return false;
    }
    if (indent == l.length()) {
      return true;
    }
    char c = l.charAt(indent);
    if (c != '`' && c != '~') {
      return false;
    }
    int run = runLength(l, indent, c);
    if (indent + run == l.length()) {
      return true;
    }
    if (run < 3) {
      return false;
    }
    // The info string of a backtick fence may not contain a backtick.
    return c != '`' || indexOf(l, '`', indent + run) < 0;
  }

  /** Whether a line starting with {@code l} may still turn out to close the open fence. */
  private boolean couldBeClosingFence(CharSequence l) {
    int indent = leadingSpaces(l);
    if (indent > 3) {
      return false;
    }
    if (indent == l.length()) {
      return true;
    }
    if (l.charAt(indent) != fenceChar) {
      return false;
    }
    int run = runLength(l, indent, fenceChar);
    if (indent + run == l.length()) {
      return true;
    }
    return run >= fenceLength && isBlank(l, indent + run);
  }

  /** Whether the complete line {@code l} closes the open fence: same character, at least as long, then only blanks. */
  private boolean isClosingFence(CharSequence l) {
    int indent = leadingSpaces(l);
    if (indent > 3 || indent >= l.length() || l.charAt(indent) != fenceChar) {
      return false;
    }
    int run = runLength(l, indent, fenceChar);
    return run >= fenceLength && isBlank(l, indent + run);
  }

  private void emit(Segment segment) {
    flushText(true);
    out.add(segment);
  }

  private void flushText(boolean all) {
    int end = text.length();
    // Keep a trailing high surrogate back so a chunk boundary inside a surrogate pair never splits Text.
    if (!all && end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    if (end > 0) {
      out.add(new Segment.Text(text.substring(0, end)));
      if (end == text.length()) {
        text.setLength(0);
      } else {
        text.delete(0, end);
      }
    }
  }

  private List<Segment> drain(boolean all) {
    flushText(all);
    // most chunks give one segment (a piece of prose) or none (code short of a line end)
    List<Segment> result = switch (out.size()) {
      case 0 -> List.of();
      case 1 -> List.of(out.get(0));
      default -> List.copyOf(out);
    };
    out.clear();
    return result;
  }

  private static int leadingSpaces(CharSequence s) {
    int n = 0;
    while (n < s.length() && s.charAt(n) == ' ') {
      n++;
    }
    return n;
  }

  private static int runLength(CharSequence s, int from, char c) {
    int i = from;
    while (i < s.length() && s.charAt(i) == c) {
      i++;
    }
    return i - from;
  }

  private static int indexOf(CharSequence s, char c, int from) {
    for (int i = from; i < s.length(); i++) {
      if (s.charAt(i) == c) {
        return i;
      }
    }
    return -1;
  }

  /** Only spaces, tabs and a CRLF's '\r' from {@code from} on. */
  private static boolean isBlank(CharSequence s, int from) {
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != ' ' && c != '\t' && c != '\r') {
        return false;
      }
    }
    return true;
  }
}
