package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import io.interpreter4j.core.safety.script.ScriptSource.Binding;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the names of a JavaScript, Ruby or R block are bound to: assignments ({@code =}, {@code <-}, {@code ||=}),
 * appends, destructuring, loop variables, block and callback parameters, and names for library functions
 * ({@code const run = cp.execSync}).
 */
final class ScriptBindings {

  private static final Set<String> EACH_METHODS = Set.of(
      "each", "each_with_index", "map", "flat_map", "select", "filter", "reject", "each_entry", "forEach", "find",
      "some", "every", "collect", "each_line", "each_child", "each_key", "each_value", "each_pair", "for_each",
      "each_with_object");
  private static final Set<String> APPLY_FUNCTIONS = Set.of(
      "lapply", "sapply", "vapply", "Map", "mapply", "walk", "map", "purrr.walk", "purrr.map", "invisible");

  private final ScriptSource src;

  ScriptBindings(ScriptSource src) {
    this.src = src;
  }

  /** Assignments, loop variables and block parameters, in source order, so a use sees the latest binding before it. */
  void collect() {
    for (int k = 0; k < src.size(); k++) {
      Tok t = src.tok(k);
      if (t.kind() == TokenKind.NAME && k + 1 < src.size() && isAssignOp(src.tok(k + 1)) && src.statementLevel(k)
          && (k == 0 || !src.isSeparator(src.tok(k - 1)) && !src.tok(k - 1).is(","))) {
        int from = k + 2;
        int end = src.endOfStatement(from);
        bind(t.text(), new Binding(k, from, end, false, null));
        functionAlias(t.text(), from, end);
      } else if (t.kind() == TokenKind.NAME && k + 1 < src.size() && (src.tok(k + 1).is("+=") || src.tok(k + 1).is("<<")
          && src.dialect == Dialect.RUBY) && (k == 0 || !src.isSeparator(src.tok(k - 1)))) {
        // body += chunk: from here on the value is whatever was appended, not the literal it started as
        int from = k + 2;
        bind(t.text(), new Binding(k, from, src.endOfStatement(from), false, ScriptSource.APPENDED));
      } else if (t.is("}") && k + 1 < src.size() && src.tok(k + 1).is("=") && src.dialect == Dialect.JAVASCRIPT) {
        int brace = k - 1;
        while (brace > 0 && !src.tok(brace).is("{")) {
          brace--;
        }
        int from = k + 2;
        int end = src.endOfStatement(from);
        for (int j = brace + 1; j < k; j++) {
          if (src.tok(j).kind() == TokenKind.NAME && !(j + 1 < k && src.tok(j + 1).is(":"))) {
            String member = j >= 2 && src.tok(j - 1).is(":") ? src.tok(j - 2).text() : src.tok(j).text();
            bind(src.tok(j).text(), new Binding(j, from, end, false, member));
          }
        }
      } else if (t.is("for")) {
        forLoop(k);
      } else if (t.is("|") && src.dialect == Dialect.RUBY && k > 0 && (src.tok(k - 1).is("{") || src.tok(k - 1).is("do"))) {
        blockParameters(k);
      } else if (t.is("=>") && src.dialect == Dialect.JAVASCRIPT) {
        arrowParameters(k);
      } else if (t.is("function") && k + 1 < src.size() && src.tok(k + 1).is("(")) {
        functionParameters(k);
      }
    }
  }

  /**
   * {@code const run = cp.execSync}, {@code const exec = util.promisify(cp.exec)}, {@code rm <- unlink}: a name for
   * a library function is that function, so calls through it are judged like the original.
   */
  private void functionAlias(String name, int from, int end) {
    int f = from;
    int e = end;
    if (f < e && (src.tok(f).is("promisify") || src.tok(f).is("util") && f + 2 < e && src.tok(f + 2).is("promisify"))) {
      int paren = src.tok(f).is("util") ? f + 3 : f + 1;
      if (paren < e && src.tok(paren).is("(") && src.matching(paren) == e - 1) {
        f = paren + 1;
        e = e - 1;
      }
    }
    if (f < e && src.tok(f).kind() == TokenKind.NAME && src.dottedEnd(f, e) == e && src.api(src.canonical(src.dotted(f, e))) != null) {
      src.alias(name, src.canonical(src.dotted(f, e)));
    } else if (f + 5 < e && src.tok(f).is("require") && src.tok(f + 2).kind() == TokenKind.STRING && src.tok(f + 3).is(")")
        && src.isSeparator(src.tok(f + 4)) && src.dottedEnd(f + 5, e) == e) {
      String target = ScriptSource.module(src.tok(f + 2).text()) + "." + src.dotted(f + 5, e);
      if (src.api(target) != null) {
        src.alias(name, target);
      }
    }
  }

  private boolean isAssignOp(Tok t) {
    return t.is("=") || t.is("<-") || t.is("<<-") || t.is("||=") || t.is("??=") || t.is(":=");
  }

  private void bind(String name, Binding b) {
    src.bind(name, b);
  }

  /** {@code for (const x of EXPR)}, {@code for (x in EXPR)} (R), {@code for x in EXPR} (Ruby). */
  private void forLoop(int k) {
    int j = k + 1;
    boolean paren = j < src.size() && src.tok(j).is("(");
    if (paren) {
      j++;
    }
    while (j < src.size() && (src.tok(j).is("const") || src.tok(j).is("let") || src.tok(j).is("var"))) {
      j++;
    }
    if (j + 1 >= src.size() || src.tok(j).kind() != TokenKind.NAME || !(src.tok(j + 1).is("of") || src.tok(j + 1).is("in"))) {
      return;
    }
    String name = src.tok(j).text();
    int from = j + 2;
    int to = paren ? src.matching(k + 1) : src.endOfStatement(from);
    bind(name, new Binding(k, from, to, true, null));
  }

  /** Ruby: {@code EXPR.each { |x| ... }} binds x to an element; {@code Dir.mktmpdir do |d|} binds d to the call's value. */
  private void blockParameters(int bar) {
    int end = bar + 1;
    List<String> names = new ArrayList<>();
    while (end < src.size() && !src.tok(end).is("|") && src.tok(end).kind() != TokenKind.NEWLINE) {
      if (src.tok(end).kind() == TokenKind.NAME) {
        names.add(src.tok(end).text());
      }
      end++;
    }
    if (names.isEmpty()) {
      return;
    }
    int opener = bar - 1;
    int callEnd = opener;
    int callStart = src.receiverStart(callEnd);
    if (callStart >= callEnd) {
      return;
    }
    String method = src.methodBefore(callEnd);
    if (method != null && EACH_METHODS.contains(method)) {
      int dot = src.dotBefore(callEnd);
      bind(names.get(0), new Binding(bar, callStart, dot, true, null));
    } else {
      bind(names.get(0), new Binding(bar, callStart, callEnd, false, null));
    }
  }

  /** JS: {@code EXPR.forEach(x => ...)} or {@code EXPR.forEach((x, i) => ...)}: x is an element of EXPR. */
  private void arrowParameters(int arrow) {
    int p = arrow - 1;
    String name;
    if (p >= 0 && src.tok(p).kind() == TokenKind.NAME) {
      name = src.tok(p).text();
    } else if (p >= 0 && src.tok(p).is(")")) {
      int o = p;
      while (o > 0 && !src.tok(o).is("(")) {
        o--;
      }
      if (o + 1 >= p || src.tok(o + 1).kind() != TokenKind.NAME) {
        return;
      }
      name = src.tok(o + 1).text();
      p = o;
    } else {
      return;
    }
    elementOfCallReceiver(name, p, arrow);
  }

  /** R: {@code lapply(EXPR, function(x) ...)}; JS: {@code EXPR.forEach(function (x) {...})}. */
  private void functionParameters(int fn) {
    int paren = fn + 1;
    if (paren + 1 >= src.size() || src.tok(paren + 1).kind() != TokenKind.NAME) {
      return;
    }
    String name = src.tok(paren + 1).text();
    elementOfCallReceiver(name, fn, fn);
  }

  /** The callback whose first token is {@code start} is an argument of a call: bind its parameter to the iterated value. */
  private void elementOfCallReceiver(String name, int start, int at) {
    int callOpen = src.open(start);
    if (callOpen <= 0 || !src.tok(callOpen).is("(")) {
      return;
    }
    String method = src.methodBefore(callOpen);
    if (method != null && EACH_METHODS.contains(method) && src.tok(callOpen - 2).is(".")) {
      int dot = callOpen - 2;
      bind(name, new Binding(at, src.receiverStart(dot), dot, true, null));
      return;
    }
    String callee = callOpen >= 1 && src.tok(callOpen - 1).kind() == TokenKind.NAME ? src.canonical(src.dotted(src.nameStart(callOpen - 1))) : "";
    if (APPLY_FUNCTIONS.contains(callee) || APPLY_FUNCTIONS.contains(src.tok(callOpen - 1).text())) {
      int firstArgEnd = callOpen + 1;
      int d = 0;
      while (firstArgEnd < src.size()) {
        Tok t = src.tok(firstArgEnd);
        if (t.is("(") || t.is("[") || t.is("{")) {
          d++;
        } else if (t.is(")") || t.is("]") || t.is("}")) {
          if (d == 0) {
            break;
          }
          d--;
        } else if (d == 0 && t.is(",")) {
          break;
        }
        firstArgEnd++;
      }
      bind(name, new Binding(at, callOpen + 1, firstArgEnd, true, null));
    }
  }
}
