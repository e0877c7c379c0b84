package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.T;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JavaScript, Ruby or R block as the script analyzer reads it: its tokens, the bracket around each token, the
 * names it imports ({@code const { execSync } = require('child_process')}) and what each name is bound to
 * (assignments, loop variables, block and callback parameters), with the structural look-ups the evaluator and the
 * call scanner share: matching brackets, dotted names, receivers, arguments.
 */
final class ScriptSource {

  /**
   * What a name is bound to: an expression, an element of one (a loop variable), or a member of one.
   *
   * @param at      where the binding happens
   * @param from    the first token of the expression
   * @param to      the token after it
   * @param element whether the name takes each element of the expression in turn
   * @param member  the member of the expression it takes ({@code const { a } = x}), {@link #APPENDED}, or null
   */
  record Binding(int at, int from, int to, boolean element, String member) {}

  /** The member a binding reads when the name was appended to: its value is no longer known. */
  static final String APPENDED = "+=";
  /** Interpolations are appended to the tokens; past this many, they stay unknown. */
  static final int MAX_TOKENS = 200_000;

  private static final Set<String> EACH_METHODS = Set.of(
      "each", "each_with_index", "map", "flat_map", "select", "filter", "reject", "each_entry", "forEach", "find",
      "some", "every", "collect", "each_line", "each_child", "each_key", "each_value", "each_pair", "for_each",
      "each_with_object");
  private static final Set<String> APPLY_FUNCTIONS = Set.of(
      "lapply", "sapply", "vapply", "Map", "mapply", "walk", "map", "purrr.walk", "purrr.map", "invisible");

  final Dialect dialect;
  private final List<Tok> toks;
  private int[] open;
  private final Map<String, String> aliases = new HashMap<>();
  private final Map<String, List<Binding>> bindings = new HashMap<>();
  private final Map<String, int[]> snippets = new HashMap<>();

  ScriptSource(String code, Dialect dialect) {
    this.dialect = dialect;
    this.toks = new ArrayList<>(ScriptLexer.lex(code, dialect));
    this.open = enclosing();
    imports();
    collectBindings();
  }

  Tok tok(int k) {
    return toks.get(k);
  }

  int size() {
    return toks.size();
  }

  /** The index of the innermost bracket open around token k, or -1 at top level. */
  int open(int k) {
    return open[k];
  }

  /**
   * The tokens of an interpolated expression ({@code ${root}}, {@code #{host}}), appended once to the block's, so the
   * evaluator reads it with the block's bindings and the scan also sees calls made inside templates. Returns the
   * range of the appended tokens, or null past {@link #MAX_TOKENS}.
   */
  int[] append(String expression) {
    int[] range = snippets.get(expression);
    if (range != null) {
      return range;
    }
    if (toks.size() > MAX_TOKENS) {
      return null;
    }
    List<Tok> inner = ScriptLexer.lex(expression, dialect);
    int start = toks.size();
    toks.addAll(inner);
    int[] grown = Arrays.copyOf(open, toks.size());
    int[] stack = new int[inner.size() + 1];
    int sp = 0;
    for (int k = start; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if ((t.is(")") || t.is("]") || t.is("}")) && sp > 0) {
        sp--;
      }
      grown[k] = sp == 0 ? -1 : stack[sp - 1];
      if (t.is("(") || t.is("[") || t.is("{")) {
        stack[sp++] = k;
      }
    }
    open = grown;
    range = new int[] {start, toks.size() - 1};
    snippets.put(expression, range);
    return range;
  }

  /** For each token, the index of the innermost bracket open around it (-1 at top level). */
  private int[] enclosing() {
    int[] out = new int[toks.size()];
    int[] stack = new int[toks.size() + 1];
    int sp = 0;
    for (int k = 0; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.is(")") || t.is("]") || t.is("}")) {
        if (sp > 0) {
          sp--;
        }
      }
      out[k] = sp == 0 ? -1 : stack[sp - 1];
      if (t.is("(") || t.is("[") || t.is("{")) {
        stack[sp++] = k;
      }
    }
    return out;
  }

  /** Whether token k sits in a statement position: at top level or inside braces, not in a call's parentheses. */
  boolean statementLevel(int k) {
    return open[k] < 0 || toks.get(open[k]).is("{");
  }

  int matching(int at) {
    int d = 0;
    for (int j = at; j < toks.size(); j++) {
      Tok t = toks.get(j);
      if (t.is("(") || t.is("[") || t.is("{")) {
        d++;
      } else if (t.is(")") || t.is("]") || t.is("}")) {
        d--;
        if (d == 0) {
          return j;
        }
      }
    }
    return toks.size() - 1;
  }

  int endOfStatement(int from) {
    int d = 0;
    for (int j = from; j < toks.size(); j++) {
      Tok t = toks.get(j);
      if (t.is("(") || t.is("[") || t.is("{")) {
        d++;
      } else if (t.is(")") || t.is("]") || t.is("}")) {
        if (d == 0) {
          return j;
        }
        d--;
      } else if (d == 0 && (t.kind() == T.NEWLINE || t.is(",") && dialect == Dialect.JAVASCRIPT)) {
        return j;
      } else if (d == 0 && dialect == Dialect.RUBY && (t.is("do") || t.is("if") || t.is("unless") || t.is("rescue")
          || t.is("or") || t.is("and"))) {
        return j;
      }
    }
    return toks.size();
  }

  boolean isSeparator(Tok t) {
    return t.is(".") || t.is("?.") || t.is("::") || dialect == Dialect.R && (t.is("$") || t.is("@"));
  }

  /** The dotted name starting at k ("fs.rmSync", "Net::HTTP.get", "httr::POST"), "." joining its parts. */
  String dotted(int k) {
    return dotted(k, toks.size());
  }

  /** The dotted name starting at k that ends before {@code limit}. */
  String dotted(int k, int limit) {
    if (k >= limit || toks.get(k).kind() != T.NAME) {
      return "";
    }
    StringBuilder sb = new StringBuilder(toks.get(k).text());
    int j = k + 1;
    while (j + 1 < limit && isSeparator(toks.get(j)) && toks.get(j + 1).kind() == T.NAME) {
      sb.append(toks.get(j).is("::") && dialect == Dialect.RUBY ? "::" : ".").append(toks.get(j + 1).text());
      j += 2;
    }
    return sb.toString();
  }

  /** How many tokens the dotted name at k spans. */
  int dottedEnd(int k) {
    return dottedEnd(k, toks.size());
  }

  int dottedEnd(int k, int limit) {
    int j = k + 1;
    while (j + 1 < limit && isSeparator(toks.get(j)) && toks.get(j + 1).kind() == T.NAME) {
      j += 2;
    }
    return j;
  }

  String canonical(String dotted) {
    int dot = dotted.indexOf('.');
    String first = dot < 0 ? dotted : dotted.substring(0, dot);
    String rest = dot < 0 ? "" : dotted.substring(dot);
    String mapped = aliases.get(first);
    String name = mapped != null ? mapped + rest : dotted;
    if (name.startsWith("fs.promises.")) {
      name = "fs." + name.substring("fs.promises.".length());
    }
    return name;
  }

  Api api(String canonical) {
    Api a = ScriptApis.lookup(dialect, canonical);
    if (a == null && dialect == Dialect.R && canonical.indexOf('.') > 0) {
      // pkg::fn written with a package the table lists only by function name
      a = ScriptApis.lookup(dialect, canonical.substring(canonical.lastIndexOf('.') + 1));
    }
    if (a == null && canonical.startsWith("@aws-sdk/") && canonical.endsWith("Client")) {
      return new Api(Kind.CLOUD_CLIENT, 0, null, -1);
    }
    return a;
  }

  /** require('fs'), import x from 'fs', const { execSync } = require('child_process'). */
  private void imports() {
    if (dialect != Dialect.JAVASCRIPT) {
      return;
    }
    for (int k = 0; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.is("require") && k + 3 < toks.size() && toks.get(k + 1).is("(") && toks.get(k + 2).kind() == T.STRING
          && toks.get(k + 3).is(")")) {
        String module = module(toks.get(k + 2).text());
        bindRequire(k, module);
      } else if (t.is("import") && (k == 0 || toks.get(k - 1).kind() == T.NEWLINE)) {
        int from = k + 1;
        while (from < toks.size() && !toks.get(from).is("from") && toks.get(from).kind() != T.NEWLINE) {
          from++;
        }
        if (from + 1 < toks.size() && toks.get(from).is("from") && toks.get(from + 1).kind() == T.STRING) {
          String module = module(toks.get(from + 1).text());
          importNames(k + 1, from, module);
        }
      }
    }
  }

  static String module(String spec) {
    String m = spec.startsWith("node:") ? spec.substring(5) : spec;
    return m.equals("fs/promises") ? "fs" : m.equals("fs-extra") ? "fs-extra" : m;
  }

  /** {@code x = require('m')}, {@code const { a, b: c } = require('m')}, {@code require('m').x}. */
  private void bindRequire(int k, String module) {
    int eq = k - 1;
    String target = module;
    if (k + 5 < toks.size() && isSeparator(toks.get(k + 4)) && toks.get(k + 5).kind() == T.NAME) {
      // const exec = require('child_process').exec
      target = module + "." + dotted(k + 5);
    }
    if (eq >= 1 && toks.get(eq).is("=")) {
      Tok before = toks.get(eq - 1);
      if (before.kind() == T.NAME) {
        aliases.put(before.text(), target);
      } else if (before.is("}")) {
        int brace = eq - 1;
        while (brace > 0 && !toks.get(brace).is("{")) {
          brace--;
        }
        destructure(brace + 1, eq - 1, module);
      }
    }
  }

  private void destructure(int from, int to, String module) {
    for (int j = from; j < to; j++) {
      Tok t = toks.get(j);
      if (t.kind() != T.NAME) {
        continue;
      }
      if (j + 2 < to && toks.get(j + 1).is(":") && toks.get(j + 2).kind() == T.NAME) {
        aliases.put(toks.get(j + 2).text(), module + "." + t.text());
        j += 2;
      } else {
        aliases.put(t.text(), module + "." + t.text());
      }
    }
  }

  private void importNames(int from, int to, String module) {
    for (int j = from; j < to; j++) {
      Tok t = toks.get(j);
      if (t.is("*") && j + 2 < to && toks.get(j + 1).is("as")) {
        aliases.put(toks.get(j + 2).text(), module);
        j += 2;
      } else if (t.is("{")) {
        int close = j;
        while (close < to && !toks.get(close).is("}")) {
          close++;
        }
        for (int m = j + 1; m < close; m++) {
          Tok n = toks.get(m);
          if (n.kind() != T.NAME) {
            continue;
          }
          if (m + 2 < close && toks.get(m + 1).is("as")) {
            aliases.put(toks.get(m + 2).text(), module + "." + n.text());
            m += 2;
          } else {
            aliases.put(n.text(), module + "." + n.text());
          }
        }
        j = close;
      } else if (t.kind() == T.NAME && !t.is("type")) {
        aliases.put(t.text(), module);
      }
    }
  }

  /** Assignments, loop variables and block parameters, in source order, so a use sees the latest binding before it. */
  private void collectBindings() {
    for (int k = 0; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.kind() == T.NAME && k + 1 < toks.size() && isAssignOp(toks.get(k + 1)) && statementLevel(k)
          && (k == 0 || !isSeparator(toks.get(k - 1)) && !toks.get(k - 1).is(","))) {
        int from = k + 2;
        int end = endOfStatement(from);
        bind(t.text(), new Binding(k, from, end, false, null));
        functionAlias(t.text(), from, end);
      } else if (t.kind() == T.NAME && k + 1 < toks.size() && (toks.get(k + 1).is("+=") || toks.get(k + 1).is("<<")
          && dialect == Dialect.RUBY) && (k == 0 || !isSeparator(toks.get(k - 1)))) {
        // body += chunk: from here on the value is whatever was appended, not the literal it started as
        int from = k + 2;
        bind(t.text(), new Binding(k, from, endOfStatement(from), false, APPENDED));
      } else if (t.is("}") && k + 1 < toks.size() && toks.get(k + 1).is("=") && dialect == Dialect.JAVASCRIPT) {
        int brace = k - 1;
        while (brace > 0 && !toks.get(brace).is("{")) {
          brace--;
        }
        int from = k + 2;
        int end = endOfStatement(from);
        for (int j = brace + 1; j < k; j++) {
          if (toks.get(j).kind() == T.NAME && !(j + 1 < k && toks.get(j + 1).is(":"))) {
            String member = j >= 2 && toks.get(j - 1).is(":") ? toks.get(j - 2).text() : toks.get(j).text();
            bind(toks.get(j).text(), new Binding(j, from, end, false, member));
          }
        }
      } else if (t.is("for")) {
        forLoop(k);
      } else if (t.is("|") && dialect == Dialect.RUBY && k > 0 && (toks.get(k - 1).is("{") || toks.get(k - 1).is("do"))) {
        blockParameters(k);
      } else if (t.is("=>") && dialect == Dialect.JAVASCRIPT) {
        arrowParameters(k);
      } else if (t.is("function") && k + 1 < toks.size() && toks.get(k + 1).is("(")) {
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
    if (f < e && (toks.get(f).is("promisify") || toks.get(f).is("util") && f + 2 < e && toks.get(f + 2).is("promisify"))) {
      int paren = toks.get(f).is("util") ? f + 3 : f + 1;
      if (paren < e && toks.get(paren).is("(") && matching(paren) == e - 1) {
        f = paren + 1;
        e = e - 1;
      }
    }
    if (f < e && toks.get(f).kind() == T.NAME && dottedEnd(f, e) == e && api(canonical(dotted(f, e))) != null) {
      aliases.put(name, canonical(dotted(f, e)));
    } else if (f + 5 < e && toks.get(f).is("require") && toks.get(f + 2).kind() == T.STRING && toks.get(f + 3).is(")")
        && isSeparator(toks.get(f + 4)) && dottedEnd(f + 5, e) == e) {
      String target = module(toks.get(f + 2).text()) + "." + dotted(f + 5, e);
      if (api(target) != null) {
        aliases.put(name, target);
      }
    }
  }

  private boolean isAssignOp(Tok t) {
    return t.is("=") || t.is("<-") || t.is("<<-") || t.is("||=") || t.is("??=") || t.is(":=");
  }

  private void bind(String name, Binding b) {
    bindings.computeIfAbsent(name, x -> new ArrayList<>()).add(b);
  }

  /** {@code for (const x of EXPR)}, {@code for (x in EXPR)} (R), {@code for x in EXPR} (Ruby). */
  private void forLoop(int k) {
    int j = k + 1;
    boolean paren = j < toks.size() && toks.get(j).is("(");
    if (paren) {
      j++;
    }
    while (j < toks.size() && (toks.get(j).is("const") || toks.get(j).is("let") || toks.get(j).is("var"))) {
      j++;
    }
    if (j + 1 >= toks.size() || toks.get(j).kind() != T.NAME || !(toks.get(j + 1).is("of") || toks.get(j + 1).is("in"))) {
      return;
    }
    String name = toks.get(j).text();
    int from = j + 2;
    int to = paren ? matching(k + 1) : endOfStatement(from);
    bind(name, new Binding(k, from, to, true, null));
  }

  /** Ruby: {@code EXPR.each { |x| ... }} binds x to an element; {@code Dir.mktmpdir do |d|} binds d to the call's value. */
  private void blockParameters(int bar) {
    int end = bar + 1;
    List<String> names = new ArrayList<>();
    while (end < toks.size() && !toks.get(end).is("|") && toks.get(end).kind() != T.NEWLINE) {
      if (toks.get(end).kind() == T.NAME) {
        names.add(toks.get(end).text());
      }
      end++;
    }
    if (names.isEmpty()) {
      return;
    }
    int opener = bar - 1;
    int callEnd = opener;
    int callStart = receiverStart(callEnd);
    if (callStart >= callEnd) {
      return;
    }
    String method = methodBefore(callEnd);
    if (method != null && EACH_METHODS.contains(method)) {
      int dot = dotBefore(callEnd);
      bind(names.get(0), new Binding(bar, callStart, dot, true, null));
    } else {
      bind(names.get(0), new Binding(bar, callStart, callEnd, false, null));
    }
  }

  /** JS: {@code EXPR.forEach(x => ...)} or {@code EXPR.forEach((x, i) => ...)}: x is an element of EXPR. */
  private void arrowParameters(int arrow) {
    int p = arrow - 1;
    String name;
    if (p >= 0 && toks.get(p).kind() == T.NAME) {
      name = toks.get(p).text();
    } else if (p >= 0 && toks.get(p).is(")")) {
      int o = p;
      while (o > 0 && !toks.get(o).is("(")) {
        o--;
      }
      if (o + 1 >= p || toks.get(o + 1).kind() != T.NAME) {
        return;
      }
      name = toks.get(o + 1).text();
      p = o;
    } else {
      return;
    }
    elementOfCallReceiver(name, p, arrow);
  }

  /** R: {@code lapply(EXPR, function(x) ...)}; JS: {@code EXPR.forEach(function (x) {...})}. */
  private void functionParameters(int fn) {
    int paren = fn + 1;
    if (paren + 1 >= toks.size() || toks.get(paren + 1).kind() != T.NAME) {
      return;
    }
    String name = toks.get(paren + 1).text();
    elementOfCallReceiver(name, fn, fn);
  }

  /** The callback whose first token is {@code start} is an argument of a call: bind its parameter to the iterated value. */
  private void elementOfCallReceiver(String name, int start, int at) {
    int callOpen = open[start];
    if (callOpen <= 0 || !toks.get(callOpen).is("(")) {
      return;
    }
    String method = methodBefore(callOpen);
    if (method != null && EACH_METHODS.contains(method) && toks.get(callOpen - 2).is(".")) {
      int dot = callOpen - 2;
      bind(name, new Binding(at, receiverStart(dot), dot, true, null));
      return;
    }
    String callee = callOpen >= 1 && toks.get(callOpen - 1).kind() == T.NAME ? canonical(dotted(nameStart(callOpen - 1))) : "";
    if (APPLY_FUNCTIONS.contains(callee) || APPLY_FUNCTIONS.contains(toks.get(callOpen - 1).text())) {
      int firstArgEnd = callOpen + 1;
      int d = 0;
      while (firstArgEnd < toks.size()) {
        Tok t = toks.get(firstArgEnd);
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

  /** The first token of a dotted name ending at k. */
  int nameStart(int k) {
    int j = k;
    while (j >= 2 && isSeparator(toks.get(j - 1)) && toks.get(j - 2).kind() == T.NAME) {
      j -= 2;
    }
    return j;
  }

  /** "each" for the tokens {@code ... .each} before position {@code before} (a block opener or a paren). */
  String methodBefore(int before) {
    int m = before - 1;
    if (m >= 1 && toks.get(m).kind() == T.NAME && isSeparator(toks.get(m - 1))) {
      return toks.get(m).text();
    }
    if (m >= 0 && toks.get(m).is(")")) {
      int o = matchingBack(m);
      if (o >= 2 && toks.get(o - 1).kind() == T.NAME && isSeparator(toks.get(o - 2))) {
        return toks.get(o - 1).text();
      }
      return o >= 1 && toks.get(o - 1).kind() == T.NAME ? toks.get(o - 1).text() : null;
    }
    return m >= 0 && toks.get(m).kind() == T.NAME ? toks.get(m).text() : null;
  }

  int dotBefore(int before) {
    int m = before - 1;
    if (m >= 0 && toks.get(m).is(")")) {
      m = matchingBack(m) - 1;
    }
    return m >= 1 && isSeparator(toks.get(m - 1)) ? m - 1 : m;
  }

  int matchingBack(int close) {
    int d = 0;
    for (int j = close; j >= 0; j--) {
      Tok t = toks.get(j);
      if (t.is(")") || t.is("]") || t.is("}")) {
        d++;
      } else if (t.is("(") || t.is("[") || t.is("{")) {
        d--;
        if (d == 0) {
          return j;
        }
      }
    }
    return 0;
  }

  /** The first token of the expression ending just before {@code end} (a chain of names, calls and indexes). */
  int receiverStart(int end) {
    int j = end - 1;
    while (j >= 0) {
      Tok t = toks.get(j);
      if (t.is(")") || t.is("]")) {
        j = matchingBack(j);
        if (j > 0 && (toks.get(j - 1).kind() == T.NAME || toks.get(j - 1).is(")") || toks.get(j - 1).is("]"))) {
          j--;
          continue;
        }
        return j;
      }
      if (t.kind() != T.NAME && t.kind() != T.STRING) {
        return j + 1;
      }
      if (j > 0 && isSeparator(toks.get(j - 1))) {
        j -= 2;
      } else {
        return j;
      }
    }
    return 0;
  }

  Binding bindingBefore(String name, int at) {
    List<Binding> list = bindings.get(name);
    if (list == null) {
      return null;
    }
    Binding best = null;
    for (Binding b : list) {
      if (b.at() < at && (best == null || b.at() > best.at())) {
        best = b;
      }
    }
    return best;
  }

  /** Positional argument ranges and keyword arguments ({@code name = x}, {@code name: x}, {@code { name: x }}). */
  List<int[]> arguments(int from, int to, Map<String, int[]> keywords) {
    List<int[]> out = new ArrayList<>();
    int start = from;
    int d = 0;
    for (int j = from; j <= to; j++) {
      Tok t = j < to ? toks.get(j) : null;
      if (t != null && (t.is("(") || t.is("[") || t.is("{"))) {
        d++;
      } else if (t != null && (t.is(")") || t.is("]") || t.is("}"))) {
        d--;
      }
      if (j == to || (d == 0 && t.is(","))) {
        if (j > start) {
          Tok first = toks.get(start);
          boolean keyword = j - start >= 2 && (first.kind() == T.NAME || first.kind() == T.STRING)
              && (toks.get(start + 1).is("=") || toks.get(start + 1).is(":") || toks.get(start + 1).is("=>"));
          if (keyword) {
            keywords.put(first.text(), new int[] {start + 2, j});
          } else if (first.is("{") && matching(start) == j - 1) {
            // an options object: its keys count as keywords too
            arguments(start + 1, j - 1, keywords);
            out.add(new int[] {start, j});
          } else {
            out.add(new int[] {start, j});
          }
        }
        start = j + 1;
      }
    }
    return out;
  }

  String exprName(int from, int to) {
    StringBuilder sb = new StringBuilder();
    for (int j = from; j < to && j < toks.size() && sb.length() < 24; j++) {
      Tok t = toks.get(j);
      if (t.kind() == T.NAME) {
        sb.append(sb.length() == 0 ? "" : "_").append(t.text().replaceAll("[^A-Za-z0-9_]", ""));
      }
    }
    return sb.length() == 0 ? "expr" : sb.toString();
  }
}
