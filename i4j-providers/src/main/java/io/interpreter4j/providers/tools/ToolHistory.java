package io.interpreter4j.providers.tools;

import io.interpreter4j.core.intercept.CodeBlock;
import io.interpreter4j.core.intercept.MarkdownReply;
import io.interpreter4j.core.intercept.FenceScanner;
import io.interpreter4j.core.intercept.Segment;
import io.interpreter4j.core.image.ImageRef;
import io.interpreter4j.core.model.ChatMessage;
import io.interpreter4j.core.model.ChatMessage.Role;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gives tool calls back to the API in its own form. The session keeps a conversation of plain messages: a reply
 * whose tool call became a fenced block, then a user message with the block's result ("Block N (python) finished
 * ...", "The user declined to run block N; ...", "Block N was not executed: ..."). For each reply that ends with
 * blocks the provider made from calls ({@link ToolCallLedger}) and is followed by such a result, this yields the
 * reply as text plus calls, and the result as one result per call plus any other text; everything else stays as it
 * is. When in doubt it leaves messages as text, so that no call is ever sent without its result. Pure.
 */
public final class ToolHistory {

  /** One message in the form the wire needs. */
  public sealed interface Turn {}

  /** A message sent as it is. */
  public record Plain(ChatMessage message) implements Turn {}

  /** An assistant message: {@code text} (possibly empty), then the calls. */
  public record Calls(String text, List<ExecuteCall> calls) implements Turn {}

  /**
   * What follows {@link Calls}: one result per call, in order, then {@code text} from the user ("" = none), and the
   * images the blocks showed (by reference; sent beside the results by a provider with vision).
   */
  public record Results(List<Result> results, String text, List<ImageRef> images) implements Turn {

    public Results {
      images = images == null ? List.of() : List.copyOf(images);
    }

    public Results(List<Result> results, String text) {
      this(results, text, List.of());
    }
  }

  public record Result(String callId, String content) {}

  /** Given to a call whose block did not run because the turn stopped before it (an earlier block failed). */
  public static final String NOT_RUN = "Not run: the turn stopped before this block.";

  private static final Pattern HEADER = Pattern.compile(
      "(?:\\A|\\n\\n)(?<h>Block (\\d+) \\(|The user declined to run block (\\d+);|Block (\\d+) was not executed: )");
  private static final String NO_OUTPUT = "\nIt printed no output.";
  private static final String OUTPUT = "\nOutput:\n```output\n";
  /** How a line about an image the block showed begins (PromptBuilder.imageNote, ContextWindow's note). */
  private static final String IMAGE_LINE = "\n[image ";
  private static final String DECLINED_END = "propose a different approach.";

  private ToolHistory() {}

  /** The conversation as it is, no call given back. */
  public static List<Turn> plain(List<ChatMessage> messages) {
    return messages.stream().<Turn>map(Plain::new).toList();
  }

  /** The conversation with the calls in {@code known} given back as calls and results. */
  public static List<Turn> map(List<ChatMessage> messages, List<ExecuteCall> known) {
    List<Turn> out = new ArrayList<>(messages.size());
    boolean[] used = new boolean[known.size()];
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage m = messages.get(i);
      if (!known.isEmpty() && m.role() == Role.ASSISTANT && i + 1 < messages.size()
          && messages.get(i + 1).role() == Role.USER) {
        ChatMessage resultMessage = messages.get(i + 1);
        Optional<List<Turn>> pair = pair(m.content(), resultMessage.content(), known, used, ids);
        if (pair.isPresent()) {
          Calls calls = (Calls) pair.get().get(0);
          Results results = (Results) pair.get().get(1);
          out.add(calls);
          out.add(new Results(results.results(), results.text(), resultMessage.images()));
          i++;
          continue;
        }
      }
      out.add(new Plain(m));
    }
    return out;
  }

  /** A reply ending with known calls and the result message after it, as Calls and Results; empty when unsure. */
  private static Optional<List<Turn>> pair(String reply, String result, List<ExecuteCall> known, boolean[] used,
                                           Set<String> ids) {
    List<Object> items = parse(reply);
    List<Integer> blockPositions = new ArrayList<>();
    for (int k = 0; k < items.size(); k++) {
      if (items.get(k) instanceof CodeBlock) {
        blockPositions.add(k);
      }
    }
    // The blocks at the very end of the reply, with nothing but blank text between and after them.
    int runStart = items.size();
    for (int k = items.size() - 1; k >= 0; k--) {
      Object item = items.get(k);
      if (item instanceof CodeBlock b && !b.unterminated()) {
        runStart = k;
      } else if (!(item instanceof String s && s.isBlank())) {
        break;
      }
    }
    List<Integer> run = new ArrayList<>();
    for (int k = runStart; k < items.size(); k++) {
      if (items.get(k) instanceof CodeBlock) {
        run.add(k);
      }
    }
    for (int s = 0; s < run.size(); s++) {
      List<Integer> matched = match(items, run.subList(s, run.size()), known, used);
      if (matched.isEmpty()) {
        continue;
      }
      List<Header> headers = headers(result);
      if (headers.isEmpty() || headers.get(0).start() != 0) {
        return Optional.empty();
      }
      matched.forEach(index -> used[index] = true);
      int firstNumber = headers.get(0).number();
      List<ExecuteCall> calls = new ArrayList<>();
      List<Integer> numbers = new ArrayList<>();
      for (int c = 0; c < matched.size(); c++) {
        ExecuteCall call = known.get(matched.get(c));
        calls.add(call.withId(unique(call.id(), ids)));
        numbers.add(firstNumber + blockPositions.indexOf(run.get(s + c)));
      }
      return Optional.of(List.of(new Calls(prose(items.subList(0, run.get(s))), calls),
          results(result, headers, calls, numbers)));
    }
    return Optional.empty();
  }

  /** Ledger indexes of the calls that made the blocks at {@code positions}, in order; empty unless all match. */
  private static List<Integer> match(List<Object> items, List<Integer> positions, List<ExecuteCall> known,
                                     boolean[] used) {
    List<Integer> matched = new ArrayList<>();
    int from = 0;
    for (int position : positions) {
      CodeBlock block = (CodeBlock) items.get(position);
      int found = -1;
      for (int k = from; k < known.size() && found < 0; k++) {
        ExecuteCall call = known.get(k);
        if (!used[k] && call.info().equals(block.info().strip())
            && normalize(call.code()).equals(normalize(block.code()))) {
          found = k;
        }
      }
      if (found < 0) {
        return List.of();
      }
      matched.add(found);
      from = found + 1;
    }
    return matched;
  }

  private static Results results(String message, List<Header> headers, List<ExecuteCall> calls,
                                 List<Integer> numbers) {
    String[] contents = new String[calls.size()];
    List<String> rest = new ArrayList<>();
    for (int h = 0; h < headers.size(); h++) {
      Header header = headers.get(h);
      int end = h + 1 < headers.size() ? headers.get(h + 1).start() - 2 : naturalEnd(message, header);
      String part = message.substring(header.start(), Math.max(header.start(), end)).strip();
      int call = numbers.indexOf(header.number());
      if (call < 0) {
        rest.add(part);
      } else {
        contents[call] = contents[call] == null ? part : contents[call] + "\n\n" + part;
      }
    }
    Header last = headers.get(headers.size() - 1);
    String followUp = message.substring(Math.min(message.length(), naturalEnd(message, last))).strip();
    if (!followUp.isEmpty()) {
      rest.add(followUp);
    }
    List<Result> results = new ArrayList<>();
    for (int c = 0; c < calls.size(); c++) {
      results.add(new Result(calls.get(c).id(), contents[c] == null ? NOT_RUN : contents[c]));
    }
    return new Results(results, String.join("\n\n", rest));
  }

  private record Header(int start, int number, char kind) {}

  private static List<Header> headers(String message) {
    List<Header> headers = new ArrayList<>();
    Matcher m = HEADER.matcher(message);
    while (m.find()) {
      char kind = m.group(2) != null ? 'B' : m.group(3) != null ? 'D' : 'N';
      String number = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
      try {
        headers.add(new Header(m.start("h"), Integer.parseInt(number), kind));
      } catch (NumberFormatException tooLong) {
        // not a block number this session could have
      }
    }
    return headers;
  }

  /** Where the result that starts at {@code header} ends by its own shape (see PromptBuilder); else the end. */
  /** Past the lines {@code [image 640x480 PNG: PATH]} (and notes like it) that end a block's result at {@code at}. */
  private static int afterImageLines(String message, int at) {
    while (message.startsWith(IMAGE_LINE, at)) {
      int next = message.indexOf('\n', at + 1);
      at = next < 0 ? message.length() : next;
    }
    return at;
  }

  private static int naturalEnd(String message, Header header) {
    int from = header.start();
    switch (header.kind()) {
      case 'B' -> {
        int none = message.indexOf(NO_OUTPUT, from);
        int output = message.indexOf(OUTPUT, from);
        if (none >= 0 && (output < 0 || none < output)) {
          return afterImageLines(message, none + NO_OUTPUT.length());
        }
        if (output >= 0) {
          // The output's own fence closes at the last "```" line followed by a blank line or the end: output that
          // prints fences (a README, say) stays whole; a user message with fences of its own would join the result.
          int outputStart = output + OUTPUT.length() - 1;
          for (int p = message.lastIndexOf("\n```"); p >= outputStart; p = message.lastIndexOf("\n```", p - 1)) {
            int end = afterImageLines(message, p + 4);
            if (end == message.length() || message.startsWith("\n\n", end)) {
              return end;
            }
          }
        }
        return message.length();
      }
      case 'D' -> {
        int end = message.indexOf(DECLINED_END, from);
        return end < 0 ? message.length() : end + DECLINED_END.length();
      }
      default -> {
        int end = message.indexOf('\n', from);
        return end < 0 ? message.length() : end;
      }
    }
  }

  /** The reply as prose (String) and runnable blocks (CodeBlock), in order, as the session's scanner sees it. */
  private static List<Object> parse(String reply) {
    FenceScanner scanner = new FenceScanner("python", 1);
    List<Segment> segments = new ArrayList<>(scanner.feed(reply));
    segments.addAll(scanner.finish());
    List<Object> items = new ArrayList<>();
    for (Segment segment : segments) {
      if (segment instanceof Segment.Text t) {
        if (!items.isEmpty() && items.get(items.size() - 1) instanceof String s) {
          items.set(items.size() - 1, s + t.text());
        } else {
          items.add(t.text());
        }
      } else if (segment instanceof Segment.BlockClosed closed) {
        items.add(closed.block());
      }
    }
    return items;
  }

  /** Prose and blocks before the calls, as markdown (blocks fenced as the session renders them). */
  private static String prose(List<Object> items) {
    return MarkdownReply.render(items).strip();
  }

  /**
   * Code compared as the session keeps it: without a line's trailing carriage return, and without trailing newlines
   * (a block's last newline does not survive the session's markdown).
   */
  static String normalize(String code) {
    String s = code.replace("\r\n", "\n");
    int end = s.length();
    while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
      end--;
    }
    return s.substring(0, end);
  }

  private static String unique(String id, Set<String> ids) {
    String candidate = id;
    for (int n = 2; !ids.add(candidate); n++) {
      candidate = id + "_" + n;
    }
    return candidate;
  }
}
