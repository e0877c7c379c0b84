package io.interpreter4j.core.intercept;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The code a wrapper held and its language ("" = the default language): read from a wrapper's JSON (nested tool-call
 * shapes, arguments as an object or as a JSON string) or from a written-out call ({@code functions.NAME(...)},
 * {@code execute(...)}), and rendered back as a fenced block.
 */
record WrappedCode(String language, String code) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> LANGUAGE_NAMES = Set.of("python", "python3", "py", "bash", "sh", "shell", "zsh");

  /** A wrapper's JSON; {@code nameHint} is the tool's name seen further out (a language when it names one). */
  static Optional<WrappedCode> fromJson(String text, String nameHint) {
    try {
      return codeFrom(JSON.readTree(text), nameHint, 0);
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  private static Optional<WrappedCode> codeFrom(JsonNode node, String nameHint, int depth) {
    if (node == null || !node.isObject() || depth > 3) {
      return Optional.empty();
    }
    String name = firstText(node, "name", "tool", "tool_name", "function");
    String hint = name.isEmpty() ? nameHint : name;
    JsonNode code = node.get("code");
    if (code != null && code.isTextual()) {
      String language = firstText(node, "language", "lang");
      if (language.isEmpty() && LANGUAGE_NAMES.contains(hint.toLowerCase(Locale.ROOT))) {
        language = hint;
      }
      return Optional.of(new WrappedCode(language, code.asText()));
    }
    for (String key : List.of("arguments", "parameters", "input", "args", "function")) {
      JsonNode inner = node.get(key);
      if (inner != null && inner.isTextual()) {
        Optional<WrappedCode> found = fromJson(inner.asText(), hint);
        if (found.isPresent()) {
          return found;
        }
      } else if (inner != null && inner.isObject()) {
        Optional<WrappedCode> found = codeFrom(inner, hint, depth + 1);
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
  static Optional<WrappedCode> fromCall(String text) {
    int open = text.indexOf('(');
    int close = text.lastIndexOf(')');
    if (open < 0 || close < open) {
      return Optional.empty();
    }
    String called = text.substring(0, open);
    String name = called.startsWith("functions.") ? called.substring("functions.".length()) : called;
    String args = text.substring(open + 1, close).strip();
    if (args.startsWith("{")) {
      return fromJson(args, name);
    }
    return PythonCallArgs.parse(args).flatMap(a -> {
      String language = a.named().getOrDefault("language", a.named().getOrDefault("lang",
          a.positional().size() >= 2 ? a.positional().get(0) : ""));
      String code = a.named().getOrDefault("code", a.named().getOrDefault("source", a.named().getOrDefault("script",
          a.positional().size() >= 2 ? a.positional().get(1) : a.positional().size() == 1 ? a.positional().get(0)
              : null)));
      if (code == null) {
        return Optional.empty();
      }
      if (language.isEmpty() && LANGUAGE_NAMES.contains(name.toLowerCase(Locale.ROOT))) {
        language = name;
      }
      return Optional.of(new WrappedCode(language, code));
    });
  }

  /** A fenced block: the language's leading tag characters as info string, a fence longer than any backtick run. */
  String toFence() {
    String fence = Fences.fenceFor(code);
    String body = code.endsWith("\n") || code.isEmpty() ? code : code + "\n";
    return fence + Fences.infoTag(language) + "\n" + body + fence + "\n";
  }

}
