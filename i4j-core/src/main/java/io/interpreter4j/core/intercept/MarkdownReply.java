package io.interpreter4j.core.intercept;

import java.util.List;

/** Rebuilds the markdown of a model reply from its prose and its code blocks, as kept in the conversation. */
public final class MarkdownReply {

  private MarkdownReply() {}

  /** Parts are prose ({@code CharSequence}) and {@link CodeBlock}s, in order. */
  public static String render(List<?> parts) {
    StringBuilder sb = new StringBuilder();
    for (Object part : parts) {
      if (part instanceof CodeBlock block) {
        if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '\n') {
          sb.append('\n');
        }
        String fence = Fences.fenceFor(block.code());
        sb.append(fence).append(block.info().strip()).append('\n').append(block.code());
        if (!block.code().isEmpty() && !block.code().endsWith("\n")) {
          sb.append('\n');
        }
        sb.append(fence).append('\n');
      } else {
        sb.append((CharSequence) part);
      }
    }
    return sb.toString();
  }
}
