package io.interpreter4j.core.safety.bash;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.shell.ShellLexer;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Shell functions the block defines: fork bombs among them, and calls that run a body with their arguments. */
final class Functions {

  private static final Pattern FUNCTION_BODY = Pattern.compile("\\(\\s*\\)\\s*\\{");
  private static final Pattern FUNCTION_KEYWORD = Pattern.compile("\\bfunction\\s+([\\w:.-]+)\\s*(?:\\(\\s*\\))?\\s*\\{");

  private Functions() {}

  /**
   * Function definitions ({@code name() { ... }}, {@code function name { ... }}): each is checked for a fork bomb and
   * remembered, so a later call runs its body with its arguments. The code is masked once for both.
   */
  static void definitions(BashAnalyzer bash, String code) {
    if (code.indexOf('{') < 0 || !(hasEmptyParentheses(code) || code.contains("function"))) {
      return;
    }
    String masked = ShellLexer.maskQuotesAndComments(code);
    // a fork bomb needs a function definition, a pipe and a background job
    boolean mayForkBomb = code.indexOf('|') >= 0 && code.indexOf('&') >= 0;
    eachDefinition(masked, (name, bodyStart) -> {
      if (mayForkBomb) {
        checkForkBomb(bash, masked, name, bodyStart);
      }
      if (!name.isEmpty()) {
        int close = ShellLexer.closing(masked, bodyStart, '{', '}');
        bash.findings().function(name, code.substring(bodyStart, Math.min(close, code.length())));
      }
    });
  }

  /** Each definition in masked code: its name (empty when none stands before {@code () {}) and where its body starts. */
  private static void eachDefinition(String masked, java.util.function.ObjIntConsumer<String> definition) {
    Matcher m = FUNCTION_BODY.matcher(masked);
    while (m.find()) {
      int end = m.start();
      while (end > 0 && Character.isWhitespace(masked.charAt(end - 1))) {
        end--;
      }
      int start = end;
      while (start > 0 && isNameChar(masked.charAt(start - 1))) {
        start--;
      }
      definition.accept(masked.substring(start, end), m.end());
    }
    if (masked.contains("function")) {
      Matcher f = FUNCTION_KEYWORD.matcher(masked);
      while (f.find()) {
        definition.accept(f.group(1), f.end());
      }
    }
  }

  /** A call of a function the block defined: its body runs with $1, $2, $@ set to the call's arguments. */
  static void call(BashAnalyzer bash, String name, String body, List<Word> args) {
    BashAnalyzer inner = bash.child();
    List<String> values = new ArrayList<>();
    for (int k = 0; k < args.size(); k++) {
      String v = bash.scope().valueOf(args.get(k));
      if (v == null) {
        inner.scope().set(String.valueOf(k + 1), null);
      } else {
        inner.scope().set(String.valueOf(k + 1), v);
        values.add(v);
      }
    }
    if (values.size() == args.size()) {
      inner.scope().set("@", String.join(" ", values));
      inner.scope().set("*", String.join(" ", values));
    }
    bash.findings().calling(name, true);
    try {
      inner.analyze(body);
    } finally {
      bash.findings().calling(name, false);
    }
  }

  private static boolean hasEmptyParentheses(String code) {
    int at = code.indexOf('(');
    while (at >= 0) {
      int k = at + 1;
      while (k < code.length() && (code.charAt(k) == ' ' || code.charAt(k) == '\t')) {
        k++;
      }
      if (k < code.length() && code.charAt(k) == ')') {
        return true;
      }
      at = code.indexOf('(', at + 1);
    }
    return false;
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == ':' || c == '.' || c == '-';
  }

  private static void checkForkBomb(BashAnalyzer bash, String masked, String name, int bodyStart) {
    if (name.isEmpty()) {
      return;
    }
    int close = ShellLexer.closing(masked, bodyStart, '{', '}');
    String body = masked.substring(bodyStart, Math.min(close, masked.length())).replace(" ", "").replace("\t", "").replace("\n", "");
    if (body.contains(name + "|" + name) && body.indexOf('&') >= 0) {
      bash.findings().add(Flag.high("fork-bomb", "defines a fork bomb (" + name + " pipes into itself in the background)"));
    }
  }
}
