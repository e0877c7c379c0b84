package io.interpreter4j.core.intercept;

/** What the fence scanner emits while the model's answer streams: prose, and code blocks as they open, grow and close. */
public sealed interface Segment {

  /** Prose outside any fence (may be part of a line). */
  record Text(String text) implements Segment {}

  /** An opening fence was seen; {@code language} is already normalised (see {@link Languages}). */
  record BlockOpen(int index, String language, String info, boolean runnable) implements Segment {}

  /** Code text inside an open block, as it arrives (whole lines, each ending in '\n'). */
  record Code(int index, String text) implements Segment {}

  /** The block is complete: its closing fence arrived, or the stream ended inside it (unterminated). */
  record BlockClosed(CodeBlock block) implements Segment {}
}
