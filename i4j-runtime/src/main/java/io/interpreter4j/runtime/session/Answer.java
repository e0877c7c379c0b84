package io.interpreter4j.runtime.session;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.MarkdownReply;
import io.interpreter4j.core.intercept.Segment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The model's answer of one call as it streams in: the text shown live (the {@code assistant_delta}s), its prose
 * and code blocks in order (what the conversation keeps), and the blocks still to run. Pure: the session feeds it
 * segments and publishes what it returns.
 */
final class Answer {

  /** One part of the answer: prose or a code block. */
  private sealed interface Part permits Prose, Block {}

  private record Prose(StringBuilder text) implements Part {}

  private record Block(CodeBlock block) implements Part {}

  /** What one segment adds: the text to show live (may be empty) and the block it closed, if any. */
  record Step(String delta, CodeBlock closed) {}

  private final StringBuilder shown = new StringBuilder();
  private final List<Part> parts = new ArrayList<>();
  private final Deque<CodeBlock> pending = new ArrayDeque<>();

  /** Takes one segment of the stream. */
  Step accept(Segment segment) {
    if (segment instanceof Segment.Text t) {
      if (!parts.isEmpty() && parts.get(parts.size() - 1) instanceof Prose p) {
        p.text().append(t.text());
      } else {
        parts.add(new Prose(new StringBuilder(t.text())));
      }
      return show(t.text(), null);
    } else if (segment instanceof Segment.BlockOpen o) {
      return show("```" + o.info() + "\n", null);
    } else if (segment instanceof Segment.Code c) {
      return show(c.text(), null);
    } else if (segment instanceof Segment.BlockClosed b) {
      CodeBlock block = b.block();
      parts.add(new Block(block));
      pending.add(block);
      return show(block.unterminated() ? "" : "```\n", block);
    }
    throw new IllegalArgumentException("unknown segment " + segment);
  }

  private Step show(String delta, CodeBlock closed) {
    shown.append(delta);
    return new Step(delta, closed);
  }

  /** Everything shown live so far (kept as the answer when the user interrupts the model). */
  String shown() {
    return shown.toString();
  }

  /** The answer as markdown, as the conversation keeps it. */
  String markdown() {
    List<Object> rendered = new ArrayList<>(parts.size());
    for (Part part : parts) {
      rendered.add(part instanceof Prose p ? p.text() : ((Block) part).block());
    }
    return MarkdownReply.render(rendered);
  }

  /** The next block to run, or null. */
  CodeBlock nextBlock() {
    return pending.poll();
  }

  /** Puts a block back at the head of the queue (it could not be handled yet). */
  void putBack(CodeBlock block) {
    pending.addFirst(block);
  }

  /** Drops the blocks not yet run (a block failed or was declined). */
  void dropPending() {
    pending.clear();
  }

  boolean hasPending() {
    return !pending.isEmpty();
  }

  /** Forgets everything (a retried call starts afresh). */
  void clear() {
    shown.setLength(0);
    parts.clear();
    pending.clear();
  }
}
