package io.interpreter4j.core.intercept;

import java.util.List;
import java.util.Optional;

/**
 * Repairs code that weak models wrap instead of fencing: a reply that ends with (or is only) the code as a JSON
 * object {@code {"language": "python", "code": "..."}}, as a tool call written out as text
 * ({@code functions.execute({...})}, {@code execute(language="python", code="...")},
 * {@code {"name": "execute", "arguments": {...}}}, {@code <tool_call>...</tool_call>}), or as such JSON in a
 * {@code json} fence, becomes a fenced block the interceptor runs. Only text at the start of a line, outside a fence,
 * that could still be such a wrapper is held back; everything else passes at once, so streaming is not delayed. A
 * wrapper followed by more text is left as it was written. Pure; one instance per reply.
 *
 * <p>This class is the stream's state machine (lines, fences, what is held); {@link WrapperScanner} finds where a
 * candidate ends, {@link WrappedCode} reads the code out of it and renders the fence, {@link PythonCallArgs} parses
 * a written-out call's arguments.
 */
public final class WrappedCodeRepair {

  /** Most characters held back for one candidate; a longer one passes through as it is. */
  public static final int MAX_HELD = 1 << 20;

  private static final String TOOL_OPEN = "<tool_call>";
  private static final String TOOL_CLOSE = "</tool_call>";
  private static final String JSON_FENCE = "```json";
  private static final List<String> OPENERS = List.of("{", "functions.", "execute(", TOOL_OPEN, JSON_FENCE);

  private enum Mode { LINE_START, PASS, CANDIDATE, TRAILING }

  private enum Kind { OBJECT, CALL, TOOL_TAG, JSON_FENCE }

  private Mode mode = Mode.LINE_START;
  private final StringBuilder held = new StringBuilder();
  private StringBuilder out = new StringBuilder();

  // The current line, as far as fence tracking needs it.
  private final StringBuilder line = new StringBuilder();
  private boolean lineLong;
  private boolean inFence;
  private char fenceChar;
  private int fenceLength;

  // The candidate being held.
  private Kind kind;
  private int candidateStart;
  private WrapperScanner scan;
  private String converted;

  /** Consumes the next piece of the reply; returns the text that can go on now. */
  public String feed(String piece) {
    for (int i = 0; i < piece.length(); i++) {
      accept(piece.charAt(i));
    }
    return drain();
  }

  /** The reply is complete: a wrapper it ends with comes out as a fenced block; anything else held, as it was. */
  public String finish() {
    switch (mode) {
      case LINE_START -> out.append(held);
      case CANDIDATE -> {
        Optional<String> block = (kind == Kind.TOOL_TAG || kind == Kind.JSON_FENCE) ? convert() : Optional.empty();
        out.append(block.orElse(held.toString()));
      }
      case TRAILING -> out.append(converted);
      case PASS -> { }
    }
    held.setLength(0);
    return drain();
  }

  private void accept(char c) {
    switch (mode) {
      case PASS -> pass(c);
      case LINE_START -> lineStart(c);
      case CANDIDATE -> candidate(c);
      case TRAILING -> {
        if (Character.isWhitespace(c)) {
          held.append(c);
        } else {
          // More text after the wrapper: it was not the reply's code after all.
          String raw = held.toString();
          held.setLength(0);
          converted = null;
          passThrough(raw);
          accept(c);
        }
      }
    }
  }

  private void lineStart(char c) {
    held.append(c);
    if (c == '\n') {
      String raw = held.toString();
      held.setLength(0);
      passThrough(raw);
      return;
    }
    int lead = 0;
    while (lead < held.length() && (held.charAt(lead) == ' ' || held.charAt(lead) == '\t')) {
      lead++;
    }
    String start = held.substring(lead);
    if (start.isEmpty()) {
      return;
    }
    for (String opener : OPENERS) {
      if (start.equals(opener)) {
        startCandidate(opener, lead);
        return;
      }
      if (opener.startsWith(start)) {
        return;
      }
    }
    String raw = held.toString();
    held.setLength(0);
    passThrough(raw);
  }

  private void startCandidate(String opener, int lead) {
    mode = Mode.CANDIDATE;
    candidateStart = lead;
    switch (opener) {
      case "{" -> {
        kind = Kind.OBJECT;
        scan = WrapperScanner.object();
      }
      case "functions." -> {
        kind = Kind.CALL;
        scan = WrapperScanner.namedCall();
      }
      case "execute(" -> {
        kind = Kind.CALL;
        scan = WrapperScanner.call();
      }
      case TOOL_OPEN -> {
        kind = Kind.TOOL_TAG;
        scan = WrapperScanner.wrapped(TOOL_CLOSE);
      }
      default -> {
        kind = Kind.JSON_FENCE;
        scan = WrapperScanner.jsonFence();
      }
    }
  }

  private void candidate(char c) {
    held.append(c);
    WrapperScanner.Result result = scan.feed(c);
    if (result == WrapperScanner.Result.REJECTED || held.length() > MAX_HELD) {
      String raw = held.toString();
      held.setLength(0);
      passThrough(raw);
    } else if (result == WrapperScanner.Result.COMPLETE) {
      Optional<String> block = convert();
      if (block.isPresent()) {
        converted = block.get();
        mode = Mode.TRAILING;
      } else {
        String raw = held.toString();
        held.setLength(0);
        passThrough(raw);
      }
    }
  }

  /** Emits text as it was written, keeping track of lines and fences; ends at a line start or in the line. */
  private void passThrough(String raw) {
    mode = Mode.PASS;
    for (int i = 0; i < raw.length(); i++) {
      pass(raw.charAt(i));
    }
  }

  private void pass(char c) {
    out.append(c);
    if (c != '\n') {
      if (line.length() < 256) {
        line.append(c);
      } else {
        lineLong = true;
      }
      return;
    }
    endLine();
    mode = inFence ? Mode.PASS : Mode.LINE_START;
  }

  private void endLine() {
    String l = line.toString();
    line.setLength(0);
    boolean tooLong = lineLong;
    lineLong = false;
    int indent = 0;
    while (indent < l.length() && l.charAt(indent) == ' ') {
      indent++;
    }
    if (indent > 3 || indent >= l.length()) {
      return;
    }
    char c = l.charAt(indent);
    if (c != '`' && c != '~') {
      return;
    }
    int run = 0;
    while (indent + run < l.length() && l.charAt(indent + run) == c) {
      run++;
    }
    String rest = l.substring(indent + run);
    if (inFence) {
      if (c == fenceChar && run >= fenceLength && rest.isBlank() && !tooLong) {
        inFence = false;
      }
    } else if (run >= 3 && (c == '~' || rest.indexOf('`') < 0)) {
      inFence = true;
      fenceChar = c;
      fenceLength = run;
    }
  }

  private String drain() {
    String s = out.toString();
    out = new StringBuilder();
    return s;
  }

  /** The held candidate as a fenced block, if it is a code wrapper (at the reply's end it may lack its closing part). */
  private Optional<String> convert() {
    String text = held.substring(candidateStart).strip();
    Optional<WrappedCode> code = switch (kind) {
      case OBJECT -> WrappedCode.fromJson(text, "");
      case CALL -> WrappedCode.fromCall(text);
      case TOOL_TAG -> {
        String inner = text.substring(TOOL_OPEN.length());
        int close = inner.lastIndexOf(TOOL_CLOSE);
        yield WrappedCode.fromJson((close >= 0 ? inner.substring(0, close) : inner).strip(), "");
      }
      case JSON_FENCE -> {
        int firstLine = text.indexOf('\n');
        String inner = firstLine < 0 ? "" : text.substring(firstLine + 1);
        int close = inner.lastIndexOf("```");
        boolean closed = close >= 0 && inner.substring(close).strip().matches("`+");
        yield WrappedCode.fromJson((closed ? inner.substring(0, close) : inner).strip(), "");
      }
    };
    return code.map(WrappedCode::toFence);
  }
}
