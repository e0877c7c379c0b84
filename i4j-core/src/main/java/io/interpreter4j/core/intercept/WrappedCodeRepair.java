package io.interpreter4j.core.intercept;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Repairs code that weak models wrap instead of fencing: a reply that ends with (or is only) the code as a JSON
 * object {@code {"language": "python", "code": "..."}}, as a tool call written out as text
 * ({@code functions.execute({...})}, {@code execute(language="python", code="...")},
 * {@code {"name": "execute", "arguments": {...}}}, {@code <tool_call>...</tool_call>}), or as such JSON in a
 * {@code json} fence, becomes a fenced block the interceptor runs. Only text at the start of a line, outside a fence,
 * that could still be such a wrapper is held back; everything else passes at once, so streaming is not delayed. A
 * wrapper followed by more text is left as it was written. Pure; one instance per reply.
 */
public final class WrappedCodeRepair {

  /** Most characters held back for one candidate; a longer one passes through as it is. */
  public static final int MAX_HELD = 1 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOOL_OPEN = "<tool_call>";
  private static final String TOOL_CLOSE = "</tool_call>";
  private static final String JSON_FENCE = "```json";
  private static final List<String> OPENERS = List.of("{", "functions.", "execute(", TOOL_OPEN, JSON_FENCE);
  /** Keys a wrapper's JSON may start with; JSON starting with another key passes at once. */
  private static final Set<String> WRAPPER_KEYS = Set.of("language", "lang", "code", "name", "arguments",
      "parameters", "function", "type", "tool", "tool_name", "input", "args", "id");
  private static final Set<String> LANGUAGE_NAMES = Set.of("python", "python3", "py", "bash", "sh", "shell", "zsh");

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
  private Scan scan;
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
        scan = Scan.object();
      }
      case "functions." -> {
        kind = Kind.CALL;
        scan = Scan.namedCall();
      }
      case "execute(" -> {
        kind = Kind.CALL;
        scan = Scan.call();
      }
      case TOOL_OPEN -> {
        kind = Kind.TOOL_TAG;
        scan = Scan.wrapped(TOOL_CLOSE);
      }
      default -> {
        kind = Kind.JSON_FENCE;
        scan = Scan.jsonFence();
      }
    }
  }

  private void candidate(char c) {
    held.append(c);
    Scan.Result result = scan.feed(c);
    if (result == Scan.Result.REJECTED || held.length() > MAX_HELD) {
      String raw = held.toString();
      held.setLength(0);
      passThrough(raw);
    } else if (result == Scan.Result.COMPLETE) {
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
    Optional<Code> code = switch (kind) {
      case OBJECT -> parseJson(text, "");
      case CALL -> parseCall(text);
      case TOOL_TAG -> {
        String inner = text.substring(TOOL_OPEN.length());
        int close = inner.lastIndexOf(TOOL_CLOSE);
        yield parseJson((close >= 0 ? inner.substring(0, close) : inner).strip(), "");
      }
      case JSON_FENCE -> {
        int firstLine = text.indexOf('\n');
        String inner = firstLine < 0 ? "" : text.substring(firstLine + 1);
        int close = inner.lastIndexOf("```");
        boolean closed = close >= 0 && inner.substring(close).strip().matches("`+");
        yield parseJson((closed ? inner.substring(0, close) : inner).strip(), "");
      }
    };
    return code.map(WrappedCodeRepair::render);
  }

  /** What a wrapper held: the code and its language ("" = the default language). */
  record Code(String language, String code) {}

  static Optional<Code> parseJson(String text, String nameHint) {
    try {
      return codeFrom(JSON.readTree(text), nameHint, 0);
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  private static Optional<Code> codeFrom(JsonNode node, String nameHint, int depth) {
    if (node == null || !node.isObject() || depth > 3) {
      return Optional.empty();
    }
    String name = firstText(node, "name", "tool", "tool_name", "function");
    String hint = name.isEmpty() ? nameHint : name;
    JsonNode code = node.get("code");
    if (code != null && code.isTextual()) {
      String language = firstText(node, "language", "lang");
      if (language.isEmpty() && LANGUAGE_NAMES.contains(hint.toLowerCase(java.util.Locale.ROOT))) {
        language = hint;
      }
      return Optional.of(new Code(language, code.asText()));
    }
    for (String key : List.of("arguments", "parameters", "input", "args", "function")) {
      JsonNode inner = node.get(key);
      if (inner != null && inner.isTextual()) {
        Optional<Code> found = parseJson(inner.asText(), hint);
        if (found.isPresent()) {
          return found;
        }
      } else if (inner != null && inner.isObject()) {
        Optional<Code> found = codeFrom(inner, hint, depth + 1);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  private static String firstText(JsonNode node, String... keys) {
    for (String key : keys) {
      JsonNode v = node.get(key);
      if (v != null && v.isTextual()) {
        return v.asText();
      }
    }
    return "";
  }

  /** {@code functions.NAME(...)} or {@code execute(...)}, its arguments JSON or Python-style. */
  static Optional<Code> parseCall(String text) {
    int open = text.indexOf('(');
    int close = text.lastIndexOf(')');
    if (open < 0 || close < open) {
      return Optional.empty();
    }
    String called = text.substring(0, open);
    String name = called.startsWith("functions.") ? called.substring("functions.".length()) : called;
    String args = text.substring(open + 1, close).strip();
    if (args.startsWith("{")) {
      return parseJson(args, name);
    }
    return PythonArgs.parse(args).flatMap(a -> {
      String language = a.named().getOrDefault("language", a.named().getOrDefault("lang",
          a.positional().size() >= 2 ? a.positional().get(0) : ""));
      String code = a.named().getOrDefault("code", a.named().getOrDefault("source", a.named().getOrDefault("script",
          a.positional().size() >= 2 ? a.positional().get(1) : a.positional().size() == 1 ? a.positional().get(0)
              : null)));
      if (code == null) {
        return Optional.empty();
      }
      if (language.isEmpty() && LANGUAGE_NAMES.contains(name.toLowerCase(java.util.Locale.ROOT))) {
        language = name;
      }
      return Optional.of(new Code(language, code));
    });
  }

  static String render(Code code) {
    StringBuilder tag = new StringBuilder();
    for (char c : code.language().strip().toCharArray()) {
      if (Character.isLetterOrDigit(c) || "+#._-".indexOf(c) >= 0) {
        tag.append(c);
      } else if (tag.length() > 0) {
        break;
      }
    }
    int longest = 0;
    int run = 0;
    for (int i = 0; i < code.code().length(); i++) {
      run = code.code().charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    String fence = "`".repeat(Math.max(3, longest + 1));
    String body = code.code().endsWith("\n") || code.code().isEmpty() ? code.code() : code.code() + "\n";
    return fence + tag + "\n" + body + fence + "\n";
  }

  /**
   * Finds where a candidate ends, one character at a time, without holding more than it must: JSON objects (string
   * aware, and rejected early when their first key is not a wrapper's), calls (brackets and Python strings,
   * triple-quoted ones included), and the same inside {@code <tool_call>} tags or a {@code json} fence.
   */
  private static final class Scan {
    enum Result { MORE, COMPLETE, REJECTED }

    private enum Phase { NAME, ARGS, OBJECT_START, FIRST_KEY, OBJECT, AFTER, FENCE_INFO, BEFORE_OBJECT }

    private Phase phase;
    private final boolean python;
    private final String closing;
    private final boolean fence;
    private int depth;
    /** The open string's quote character (0 = outside strings) and length (1, or 3 for Python's triple quotes). */
    private char quote;
    private int quoteLength;
    private boolean escape;
    /** Quotes in a row: outside a string (Python) to tell one from two from three; inside, towards the closing ones. */
    private int quotes;
    private char quoteChar;
    private final StringBuilder key = new StringBuilder();
    private final StringBuilder tail = new StringBuilder();

    private Scan(Phase phase, boolean python, String closing, boolean fence) {
      this.phase = phase;
      this.python = python;
      this.closing = closing;
      this.fence = fence;
    }

    /** After "{". */
    static Scan object() {
      Scan s = new Scan(Phase.OBJECT_START, false, null, false);
      s.depth = 1;
      return s;
    }

    /** After "functions.": a name, then "(". */
    static Scan namedCall() {
      return new Scan(Phase.NAME, true, null, false);
    }

    /** After "execute(". */
    static Scan call() {
      Scan s = new Scan(Phase.ARGS, true, null, false);
      s.depth = 1;
      return s;
    }

    /** After an opening tag: an object, then {@code closing}. */
    static Scan wrapped(String closing) {
      return new Scan(Phase.BEFORE_OBJECT, false, closing, false);
    }

    /** After "```json": the rest of the line, an object, then a closing fence. */
    static Scan jsonFence() {
      return new Scan(Phase.FENCE_INFO, false, null, true);
    }

    Result feed(char c) {
      switch (phase) {
        case NAME -> {
          if (c == '(') {
            phase = Phase.ARGS;
            depth = 1;
            return Result.MORE;
          }
          return Character.isLetterOrDigit(c) || c == '_' ? Result.MORE : Result.REJECTED;
        }
        case FENCE_INFO -> {
          if (c == '\n') {
            phase = Phase.BEFORE_OBJECT;
            return Result.MORE;
          }
          return c == ' ' || c == '\t' || c == '\r' ? Result.MORE : Result.REJECTED;
        }
        case BEFORE_OBJECT -> {
          if (c == '{') {
            phase = Phase.OBJECT_START;
            depth = 1;
            return Result.MORE;
          }
          return Character.isWhitespace(c) ? Result.MORE : Result.REJECTED;
        }
        case OBJECT_START -> {
          if (c == '"') {
            phase = Phase.FIRST_KEY;
            return Result.MORE;
          }
          return Character.isWhitespace(c) ? Result.MORE : Result.REJECTED;
        }
        case FIRST_KEY -> {
          if (escape) {
            escape = false;
            key.append(c);
          } else if (c == '\\') {
            escape = true;
          } else if (c == '"') {
            if (!WRAPPER_KEYS.contains(key.toString())) {
              return Result.REJECTED;
            }
            phase = Phase.OBJECT;
          } else if (key.length() > 40) {
            return Result.REJECTED;
          } else {
            key.append(c);
          }
          return Result.MORE;
        }
        case OBJECT, ARGS -> {
          return nested(c);
        }
        case AFTER -> {
          tail.append(c);
          String t = tail.toString().strip();
          if (fence) {
            if (c == '\n' && t.matches("`{3,}")) {
              return Result.COMPLETE;
            }
            return t.isEmpty() || t.matches("`{1,}") ? Result.MORE : Result.REJECTED;
          }
          if (t.equals(closing)) {
            return Result.COMPLETE;
          }
          return closing.startsWith(t) ? Result.MORE : Result.REJECTED;
        }
      }
      return Result.MORE;
    }

    /** Inside brackets: strings skipped, the candidate ends when the outermost bracket closes. */
    private Result nested(char c) {
      if (quote != 0) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
          quotes = 0;
        } else if (c == quote) {
          quotes++;
          if (quotes == quoteLength) {
            quote = 0;
            quotes = 0;
          }
        } else {
          quotes = 0;
        }
        return Result.MORE;
      }
      if (python && quotes > 0) {
        // Quotes in a row outside a string: "" is an empty string, """ opens a triple-quoted one.
        char q = quoteChar;
        if (c == q && quotes < 3) {
          quotes++;
          if (quotes == 3) {
            quote = q;
            quoteLength = 3;
            quotes = 0;
          }
          return Result.MORE;
        }
        if (quotes == 1) {
          quote = q;
          quoteLength = 1;
          quotes = 0;
          return nested(c);
        }
        quotes = 0; // an empty string, closed; c is outside it
      }
      switch (c) {
        case '"', '\'' -> {
          if (python) {
            quoteChar = c;
            quotes = 1;
          } else if (c == '"') {
            quote = c;
            quoteLength = 1;
          }
        }
        case '{', '[', '(' -> depth++;
        case '}', ']', ')' -> {
          depth--;
          if (depth == 0) {
            if (closing == null && !fence) {
              return Result.COMPLETE;
            }
            phase = Phase.AFTER;
          }
        }
        default -> { }
      }
      return Result.MORE;
    }
  }

  /** Python call arguments made of string literals: {@code "python", code='''...'''}. */
  private record PythonArgs(List<String> positional, Map<String, String> named) {

    static Optional<PythonArgs> parse(String args) {
      List<String> positional = new ArrayList<>();
      Map<String, String> named = new LinkedHashMap<>();
      int i = 0;
      int n = args.length();
      while (true) {
        i = skipBlank(args, i);
        if (i >= n) {
          return Optional.of(new PythonArgs(positional, named));
        }
        String name = null;
        int identEnd = i;
        while (identEnd < n && (Character.isLetterOrDigit(args.charAt(identEnd)) || args.charAt(identEnd) == '_')) {
          identEnd++;
        }
        int afterIdent = skipBlank(args, identEnd);
        if (identEnd > i && afterIdent < n && args.charAt(afterIdent) == '=') {
          name = args.substring(i, identEnd);
          i = skipBlank(args, afterIdent + 1);
        }
        int[] end = new int[1];
        Optional<String> value = literal(args, i, end);
        if (value.isEmpty()) {
          return Optional.empty();
        }
        if (name == null) {
          positional.add(value.get());
        } else {
          named.put(name, value.get());
        }
        i = skipBlank(args, end[0]);
        if (i < n && args.charAt(i) != ',') {
          return Optional.empty();
        }
        i++;
      }
    }

    private static int skipBlank(String s, int i) {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      return i;
    }

    /** A string literal at {@code i} (prefixes r, b, u, f), decoded; {@code end[0]} is set past it. */
    private static Optional<String> literal(String s, int i, int[] end) {
      boolean raw = false;
      while (i < s.length() && "rRbBuUfF".indexOf(s.charAt(i)) >= 0) {
        raw |= s.charAt(i) == 'r' || s.charAt(i) == 'R';
        i++;
      }
      if (i >= s.length() || (s.charAt(i) != '"' && s.charAt(i) != '\'')) {
        return Optional.empty();
      }
      char q = s.charAt(i);
      String delimiter = s.startsWith(String.valueOf(q).repeat(3), i) ? String.valueOf(q).repeat(3) : String.valueOf(q);
      int p = i + delimiter.length();
      StringBuilder value = new StringBuilder();
      while (p < s.length()) {
        char c = s.charAt(p);
        if (c == '\\' && p + 1 < s.length()) {
          char e = s.charAt(p + 1);
          p += 2;
          if (raw) {
            value.append('\\').append(e);
            continue;
          }
          switch (e) {
            case 'n' -> value.append('\n');
            case 't' -> value.append('\t');
            case 'r' -> value.append('\r');
            case '0' -> value.append('\0');
            case 'a' -> value.append('\u0007');
            case 'b' -> value.append('\b');
            case 'f' -> value.append('\f');
            case 'v' -> value.append('\u000B');
            case '\\', '\'', '"' -> value.append(e);
            case '\n' -> { }
            case 'x', 'u' -> {
              int digits = e == 'x' ? 2 : 4;
              if (p + digits <= s.length()) {
                try {
                  value.append((char) Integer.parseInt(s.substring(p, p + digits), 16));
                  p += digits;
                  break;
                } catch (NumberFormatException notHex) {
                  // kept as written below
                }
              }
              value.append('\\').append(e);
            }
            default -> value.append('\\').append(e);
          }
          continue;
        }
        if (s.startsWith(delimiter, p)) {
          end[0] = p + delimiter.length();
          return Optional.of(value.toString());
        }
        if (c == '\n' && delimiter.length() == 1) {
          return Optional.empty();
        }
        value.append(c);
        p++;
      }
      return Optional.empty();
    }
  }
}
