package io.interpreter4j.core.safety;

import io.interpreter4j.core.safety.ScriptApis.Api;
import io.interpreter4j.core.safety.ScriptApis.Kind;
import io.interpreter4j.core.safety.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.ScriptLexer.Piece;
import io.interpreter4j.core.safety.ScriptLexer.T;
import io.interpreter4j.core.safety.ScriptLexer.Tok;
import io.interpreter4j.core.safety.ShellLexer.Part;
import io.interpreter4j.core.safety.ShellLexer.PartKind;
import io.interpreter4j.core.safety.ShellLexer.Word;
import io.interpreter4j.core.safety.rules.Databases;
import io.interpreter4j.core.safety.rules.Place;
import io.interpreter4j.core.safety.rules.SecretNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Finds what a JavaScript, Ruby or R block does to what, with the same judges as bash: shell-outs (exec, spawn,
 * system, system2, backticks) are analysed as bash; deletions, writes, reads, permission changes and folder changes
 * of paths built from literals, {@code os.homedir()}, {@code Dir.home}, {@code Sys.getenv("HOME")}, environment
 * variables with their defaults and the block's own variables are judged by where they land; evaluating fetched
 * code, sending secrets out, signalling others' processes and deleting data on remote systems feed the block's facts.
 */
final class ScriptAnalyzer {

  /** What a name is bound to: an expression, an element of one (a loop variable), or a member of one. */
  private record Binding(int at, int from, int to, boolean element, String member) {}

  private static final Set<String> EACH_METHODS = Set.of(
      "each", "each_with_index", "map", "flat_map", "select", "filter", "reject", "each_entry", "forEach", "find",
      "some", "every", "collect", "each_line", "each_child", "each_key", "each_value", "each_pair", "for_each",
      "each_with_object");
  private static final Set<String> APPLY_FUNCTIONS = Set.of(
      "lapply", "sapply", "vapply", "Map", "mapply", "walk", "map", "purrr.walk", "purrr.map", "invisible");
  private static final Set<String> IDENTITY_METHODS = Set.of(
      "trim", "toString", "to_s", "strip", "chomp", "to_str", "normalize", "valueOf", "expand_path", "realpath",
      "to_path", "cleanpath");
  private static final Set<String> DESTRUCTIVE_METHOD_PREFIXES = Set.of(
      "delete", "remove", "destroy", "drop", "flush", "truncate", "purge", "terminate", "empty", "del", "unlink",
      "wipe", "erase");
  private static final Set<String> OWN_PIDS = Set.of(
      "process.pid", "Process.pid", "Sys.getpid", "$$", "process.ppid");
  private static final int MAX_EVAL_DEPTH = 12;
  /** The member a binding reads when the name was appended to: its value is no longer known. */
  private static final String APPENDED = "+=";
  /** Interpolations are appended to the tokens; past this many, they stay unknown. */
  private static final int MAX_TOKENS = 200_000;

  private final Dialect dialect;
  private final PathJudge judge;
  private final Findings findings;
  private final int depth;
  private final BashAnalyzer shell;
  private final boolean venv;
  private Path cwd;
  private List<Tok> toks = List.of();
  private int[] open = new int[0];
  private final Map<String, String> aliases = new HashMap<>();
  private final Map<String, List<Binding>> bindings = new HashMap<>();
  private final Map<String, int[]> snippets = new HashMap<>();
  private final Map<Long, Boolean> rooted = new HashMap<>();
  private final Map<Long, Boolean> fetched = new HashMap<>();
  private int evalDepth;

  ScriptAnalyzer(Dialect dialect, PathJudge judge, Findings findings, int depth, Path cwd, boolean venv) {
    this.dialect = dialect;
    this.judge = judge;
    this.findings = findings;
    this.depth = depth;
    this.cwd = cwd;
    this.venv = venv;
    this.shell = new BashAnalyzer(judge, findings, cwd, venv, depth + 1);
  }

  void analyze(String code) {
    if (depth > Findings.MAX_DEPTH) {
      findings.add(Flag.high("nesting-too-deep", "nests shells too deeply to check"));
      return;
    }
    toks = new ArrayList<>(ScriptLexer.lex(code, dialect));
    open = enclosing();
    imports();
    collectBindings();
    scan();
  }

  // ---------------------------------------------------------------- structure

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
  private boolean statementLevel(int k) {
    return open[k] < 0 || toks.get(open[k]).is("{");
  }

  private int matching(int at) {
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

  private int endOfStatement(int from) {
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

  private boolean isSeparator(Tok t) {
    return t.is(".") || t.is("?.") || t.is("::") || dialect == Dialect.R && (t.is("$") || t.is("@"));
  }

  /** The dotted name starting at k ("fs.rmSync", "Net::HTTP.get", "httr::POST"), "." joining its parts. */
  private String dotted(int k) {
    return dotted(k, toks.size());
  }

  /** The dotted name starting at k that ends before {@code limit}. */
  private String dotted(int k, int limit) {
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
  private int dottedEnd(int k) {
    return dottedEnd(k, toks.size());
  }

  private int dottedEnd(int k, int limit) {
    int j = k + 1;
    while (j + 1 < limit && isSeparator(toks.get(j)) && toks.get(j + 1).kind() == T.NAME) {
      j += 2;
    }
    return j;
  }

  private String canonical(String dotted) {
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

  private Api api(String canonical) {
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

  // ---------------------------------------------------------------- names

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

  private static String module(String spec) {
    String m = spec.startsWith("node:") ? spec.substring(5) : spec;
    return m.equals("fs/promises") ? "fs" : m.equals("fs-extra") ? "fs-extra" : m;
  }

  /** {@code x = require('m')}, {@code const { a, b: c } = require('m')}, {@code require('m').x}. */
  private void bindRequire(int k, String module) {
    int eq = k - 1;
    if (eq >= 1 && toks.get(eq).is("=")) {
      Tok before = toks.get(eq - 1);
      if (before.kind() == T.NAME) {
        aliases.put(before.text(), module);
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
        bind(t.text(), new Binding(k, from, endOfStatement(from), false, null));
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
  private int nameStart(int k) {
    int j = k;
    while (j >= 2 && isSeparator(toks.get(j - 1)) && toks.get(j - 2).kind() == T.NAME) {
      j -= 2;
    }
    return j;
  }

  /** "each" for the tokens {@code ... .each} before position {@code before} (a block opener or a paren). */
  private String methodBefore(int before) {
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

  private int dotBefore(int before) {
    int m = before - 1;
    if (m >= 0 && toks.get(m).is(")")) {
      m = matchingBack(m) - 1;
    }
    return m >= 1 && isSeparator(toks.get(m - 1)) ? m - 1 : m;
  }

  private int matchingBack(int close) {
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
  private int receiverStart(int end) {
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

  private Binding bindingBefore(String name, int at) {
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

  // ---------------------------------------------------------------- calls

  private void scan() {
    for (int k = 0; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.kind() == T.SHELL) {
        runShell(stringParts(t, k));
        continue;
      }
      if (t.kind() == T.STRING) {
        String sql = t.literal() == null ? null : Databases.destructiveStatement(t.literal());
        if (sql != null) {
          findings.facts().destructiveData(sql);
        }
        continue;
      }
      if (t.kind() != T.NAME) {
        if (isSeparator(t) && k + 1 < toks.size() && toks.get(k + 1).kind() == T.NAME && k > 0
            && (toks.get(k - 1).is(")") || toks.get(k - 1).is("]"))) {
          chainAfterCall(k);
        }
        continue;
      }
      if (k > 0 && isSeparator(toks.get(k - 1))) {
        continue;
      }
      String dotted = dotted(k);
      int after = dottedEnd(k);
      String name = canonical(dotted);
      environment(name, dotted, k, after);
      boolean constructor = k > 0 && toks.get(k - 1).is("new");
      if (after < toks.size() && toks.get(after).is("(")) {
        int close = matching(after);
        call(name, dotted, k, after + 1, close, constructor);
      } else if (dialect == Dialect.RUBY && after < toks.size() && startsArgument(toks.get(after)) && api(name) != null
          && (k == 0 || !toks.get(k - 1).is("def"))) {
        call(name, dotted, k, after, endOfStatement(after), false);
      } else if (dialect == Dialect.RUBY && dotted.indexOf('.') > 0 && api(name) == null) {
        // Ruby calls methods without parentheses: r.flushall, bucket.delete
        method(dotted.substring(dotted.lastIndexOf('.') + 1), k, -1, after);
      }
    }
  }

  /**
   * {@code require('child_process').execSync(...)}: a call on a module loaded in place is that module's function;
   * any other {@code f(...).method(...)} is a method of whatever f returned.
   */
  private void chainAfterCall(int dot) {
    int receiver = receiverStart(dot);
    String rest = dotted(dot + 1);
    int after = dottedEnd(dot + 1);
    boolean called = after < toks.size() && toks.get(after).is("(");
    if (toks.get(receiver).is("require") && receiver + 4 == dot && toks.get(receiver + 2).kind() == T.STRING) {
      String name = module(toks.get(receiver + 2).text()) + "." + rest;
      environment(name, name, dot + 1, after);
      if (called) {
        call(canonical(name), name, dot + 1, after + 1, matching(after), false);
      }
      return;
    }
    if (called) {
      method(rest.substring(rest.lastIndexOf('.') + 1), receiver, dot, after);
    }
  }

  private static boolean startsArgument(Tok t) {
    return t.kind() == T.STRING || t.kind() == T.SHELL || t.kind() == T.NAME && !t.is("do") && !t.is("if")
        && !t.is("unless") && !t.is("rescue") && !t.is("and") && !t.is("or") && !t.is("then") || t.is("[");
  }

  /** Positional argument ranges and keyword arguments ({@code name = x}, {@code name: x}, {@code { name: x }}). */
  private List<int[]> arguments(int from, int to, Map<String, int[]> keywords) {
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

  private int[] argument(List<int[]> args, Map<String, int[]> kw, Api api) {
    if (api.keyword() != null && kw.containsKey(api.keyword())) {
      return kw.get(api.keyword());
    }
    return api.pathArg() >= 0 && api.pathArg() < args.size() ? args.get(api.pathArg()) : null;
  }

  private void call(String name, String dotted, int at, int from, int to, boolean constructor) {
    Api api = api(name);
    if (api == null && name.indexOf('.') > 0) {
      int dot = dotted.lastIndexOf('.');
      method(dotted.substring(dot + 1), at, -1, from - 1);
      return;
    }
    if (api == null) {
      return;
    }
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(from, to, kw);
    int[] arg = argument(args, kw, api);
    switch (api.kind()) {
      case SHELL -> {
        if (arg != null) {
          shellString(arg);
        }
      }
      case ARGV, SPAWN -> argv(args, kw, name);
      case SYSTEM2 -> system2(args, kw);
      case DELETE -> paths(args, kw, api).forEach(shell::delete);
      case DELETE_RECURSIVE -> paths(args, kw, api).forEach(shell::recursiveDelete);
      case DELETE_OPTION -> {
        boolean recursive = isTrue(kw.get("recursive"));
        paths(args, kw, api).forEach(recursive ? shell::recursiveDelete : shell::delete);
      }
      case WRITE -> {
        boolean append = isTrue(kw.get("append")) || modeAppends(kw.get("mode")) || modeAppends(kw.get("flag"));
        paths(args, kw, api).forEach(w -> shell.write(w, append));
      }
      case APPEND -> paths(args, kw, api).forEach(w -> shell.write(w, true));
      case OPEN -> {
        int[] mode = api.second() >= 0 && api.second() < args.size() ? args.get(api.second())
            : kw.containsKey("flag") ? kw.get("flag") : kw.containsKey("mode") ? kw.get("mode") : kw.get("open");
        String m = mode == null ? (dialect == Dialect.JAVASCRIPT && name.contains("write") ? "w" : "r") : literalOf(mode);
        if (dialect == Dialect.JAVASCRIPT && name.contains("write") && (m == null || !m.startsWith("a"))) {
          m = "w";
        }
        for (Word w : paths(args, kw, api)) {
          if (m == null || m.contains("w") || m.contains("x")) {
            shell.write(w, false);
          } else if (m.contains("a") || m.contains("+")) {
            shell.write(w, true);
          } else {
            shell.read(w);
          }
        }
      }
      case COPY, MOVE -> {
        int[] src = argument(args, kw, api);
        int[] dst = api.second() < args.size() ? args.get(api.second()) : kw.get("to");
        Word s = src == null ? null : pathWord(src);
        Word d = dst == null ? null : pathWord(dst);
        if (s != null && api.kind() == Kind.COPY) {
          shell.read(s);
        }
        if (d != null && api.kind() == Kind.COPY) {
          shell.write(d, false);
        } else if (s != null && d != null) {
          shell.move(s, d);
        }
      }
      case READ -> {
        for (Word w : paths(args, kw, api)) {
          if (w.text().startsWith("http://") || w.text().startsWith("https://")) {
            findings.network();
            findings.facts().fetched(name);
          } else {
            shell.read(w);
          }
        }
      }
      case CHMOD -> {
        int[] mode = api.second() >= 0 && api.second() < args.size() ? args.get(api.second()) : kw.get("mode");
        String m = mode == null ? null : modeText(mode);
        List<Word> targets = new ArrayList<>();
        if (api.pathArg() == 1 && dialect == Dialect.RUBY) {
          for (int i = 1; i < args.size(); i++) {
            targets.addAll(pathWords(args.get(i)));
          }
        } else {
          targets.addAll(paths(args, kw, api));
        }
        for (Word w : targets) {
          shell.permissions(w, "chmod", m);
        }
      }
      case CHOWN -> paths(args, kw, api).forEach(w -> shell.permissions(w, "chown"));
      case CHDIR -> {
        List<Word> p = paths(args, kw, api);
        if (!p.isEmpty()) {
          shell.chdir(p.get(0));
          cwd = shell.cwd();
        }
      }
      case MKDIR -> paths(args, kw, api).forEach(shell::created);
      case EVAL -> evaluates(name, args, kw, from, to);
      case SOURCE -> source(arg);
      case SOURCE_REMOTE -> findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + dotted + ")"));
      case NETWORK -> {
        findings.network();
        findings.facts().fetched(dotted);
        if (name.endsWith("download.file") && args.size() > 1) {
          pathWords(args.get(1)).forEach(w -> shell.write(w, false));
        }
      }
      case SOCKET -> {
        findings.network();
        findings.facts().rawSocket(dotted);
      }
      case DNS -> {
        if (arg != null && literalOf(arg) == null) {
          findings.facts().dynamicDns(dotted);
        }
      }
      case KILL -> kill(arg, dotted);
      case PROCESS_LIST -> findings.facts().processList(dotted);
      case CLOUD_CLIENT -> findings.facts().remoteData(dotted);
      case REMOTE_CLIENT -> remoteClient(dotted, args, kw, from, to);
      case INSTALL_R, REMOVE_R -> rPackages(api.kind(), args, kw);
      case INSTALL_REMOTE_R -> findings.add(Flag.medium("r-install-remote", "installs an R package built from a forge (" + dotted + ")"));
    }
  }

  /** A method called on something that is not a module: destructive calls on remote clients, kills of others' processes. */
  private void method(String name, int receiverFrom, int dot, int parenOpen) {
    String root = receiverFrom >= 0 && receiverFrom < toks.size() ? toks.get(receiverFrom).text() : "";
    if (isDestructiveMethod(name) && rootedIn(receiverFrom, Set.of(Kind.REMOTE_CLIENT, Kind.CLOUD_CLIENT), 0)) {
      findings.facts().destructiveData(name + "()");
    }
    if ((name.equals("kill") || name.equals("terminate") || name.equals("send_signal") || name.equals("signal"))
        && rootedIn(receiverFrom, Set.of(Kind.PROCESS_LIST), 0)) {
      findings.facts().foreignSignal(root + "." + name + "()");
    }
  }

  private static boolean isDestructiveMethod(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (String p : DESTRUCTIVE_METHOD_PREFIXES) {
      if (n.startsWith(p)) {
        return true;
      }
    }
    return n.endsWith("command") && (n.startsWith("delete") || n.startsWith("drop"));
  }

  /**
   * Whether the expression starting at {@code from} comes from a call of one of {@code kinds}: directly
   * ({@code octokit.repos.delete} where octokit = new Octokit) or through the names it was assigned from.
   */
  private boolean rootedIn(int from, Set<Kind> kinds, int level) {
    if (from < 0 || from >= toks.size() || level > MAX_EVAL_DEPTH) {
      return false;
    }
    long key = ((long) from << 20) ^ kinds.hashCode();
    Boolean known = rooted.get(key);
    if (known != null) {
      return known;
    }
    rooted.put(key, false);
    boolean result = rootedInUncached(from, kinds, level);
    rooted.put(key, result);
    return result;
  }

  private boolean rootedInUncached(int from, Set<Kind> kinds, int level) {
    Tok t = toks.get(from);
    if (t.kind() != T.NAME) {
      return false;
    }
    String name = canonical(dotted(from));
    for (String prefix = name; !prefix.isEmpty(); prefix = prefix.contains(".") ? prefix.substring(0, prefix.lastIndexOf('.')) : "") {
      Api a = api(prefix);
      if (a != null && kinds.contains(a.kind())) {
        return true;
      }
    }
    Binding b = bindingBefore(t.text(), from);
    if (b == null) {
      return false;
    }
    for (int j = b.from(); j < b.to() && j < toks.size(); j++) {
      Tok x = toks.get(j);
      if (x.kind() == T.NAME && (j == b.from() || !isSeparator(toks.get(j - 1)))) {
        if (x.is("new") || x.is("await")) {
          continue;
        }
        if (rootedIn(j, kinds, level + 1)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether the tokens of an expression (or the names it was built from) call a network API. */
  private boolean fetchesFromNetwork(int from, int to, int level) {
    if (level > MAX_EVAL_DEPTH) {
      return false;
    }
    long key = ((long) from << 32) | (to & 0xffffffffL);
    Boolean known = fetched.get(key);
    if (known != null) {
      return known;
    }
    fetched.put(key, false);
    boolean result = fetchesUncached(from, to, level);
    fetched.put(key, result);
    return result;
  }

  private boolean fetchesUncached(int from, int to, int level) {
    for (int j = from; j < to && j < toks.size(); j++) {
      Tok x = toks.get(j);
      if (x.kind() != T.NAME || j > from && isSeparator(toks.get(j - 1))) {
        continue;
      }
      Api a = api(canonical(dotted(j)));
      if (a != null && a.kind() == Kind.NETWORK) {
        return true;
      }
      Binding b = bindingBefore(x.text(), j);
      if (b != null && b.at() != j && fetchesFromNetwork(b.from(), b.to(), level + 1)) {
        return true;
      }
    }
    return false;
  }

  private static final Set<String> ENV_DUMPS = Set.of(
      "each", "to_h", "to_a", "map", "inspect", "select", "reject", "each_pair", "sort", "filter_map", "values",
      "each_with_object", "to_hash", "dup", "clone", "entries", "assign", "stringify");

  /** Reading the environment: a secret-named variable is noted; the whole environment handed on is a dump. */
  private void environment(String name, String dotted, int k, int after) {
    Tok next = after < toks.size() ? toks.get(after) : null;
    String whole = dialect == Dialect.JAVASCRIPT ? "process.env" : dialect == Dialect.RUBY ? "ENV" : null;
    if (whole != null && name.equals(whole)) {
      if (next != null && next.is("[") && after + 1 < toks.size() && toks.get(after + 1).kind() == T.STRING) {
        secretName(toks.get(after + 1).text());
      } else if (isWholeValue(k, next)) {
        findings.environmentRead();
      }
    } else if (whole != null && name.startsWith(whole + ".")) {
      String member = name.substring(whole.length() + 1);
      int dot = member.indexOf('.');
      member = dot < 0 ? member : member.substring(0, dot);
      if (ENV_DUMPS.contains(member)) {
        findings.environmentRead();
      } else if (member.equals("fetch") && next != null && next.is("(") && after + 1 < toks.size()
          && toks.get(after + 1).kind() == T.STRING) {
        secretName(toks.get(after + 1).text());
      } else {
        secretName(member);
      }
    } else if (dialect == Dialect.JAVASCRIPT && (name.equals("Object.entries")
        || name.equals("JSON.stringify") || name.equals("Object.values")) && next != null && next.is("(")
        && after + 2 < toks.size() && canonical(dotted(after + 1)).equals("process.env")) {
      findings.environmentRead();
    }
    if (dialect == Dialect.R && (name.equals("Sys.getenv") || name.equals("base.Sys.getenv")) && next != null
        && next.is("(") && after + 1 < toks.size()) {
      if (toks.get(after + 1).is(")")) {
        findings.environmentRead();
      } else if (toks.get(after + 1).kind() == T.STRING) {
        secretName(toks.get(after + 1).text());
      }
    }
  }

  /** process.env or ENV handed over whole (logged, sent, serialised), not spread into a child's environment. */
  private boolean isWholeValue(int k, Tok next) {
    if (k > 0 && toks.get(k - 1).is("...")) {
      return false;
    }
    if (next != null && (next.is(".") || next.is("[") || next.is("?."))) {
      return false;
    }
    int o = open[k];
    while (o >= 0) {
      if (toks.get(o).is("(") && o > 0 && toks.get(o - 1).kind() == T.NAME) {
        Api a = api(canonical(dotted(nameStart(o - 1))));
        if (a != null && (a.kind() == Kind.ARGV || a.kind() == Kind.SHELL || a.kind() == Kind.SPAWN)) {
          return false;
        }
        if (o >= 2 && isSeparator(toks.get(o - 2)) && (toks.get(o - 1).is("env") || toks.get(o - 1).is("keys"))) {
          return false;
        }
      }
      o = open[o];
    }
    return true;
  }

  private void secretName(String name) {
    if (SecretNames.isSecret(name)) {
      findings.facts().secretVariable(name);
    }
  }

  private void kill(int[] arg, String how) {
    if (arg == null) {
      return;
    }
    if (arg[1] - arg[0] == 1 && toks.get(arg[0]).kind() == T.NUMBER) {
      return;
    }
    for (int j = arg[0]; j < arg[1]; j++) {
      Tok t = toks.get(j);
      if (t.kind() == T.NAME && OWN_PIDS.contains(canonical(dotted(j)))) {
        return;
      }
    }
    int root = arg[0];
    while (root < arg[1] && toks.get(root).kind() != T.NAME) {
      root++;
    }
    if (root < arg[1] && (toks.get(root).is("Number") || toks.get(root).is("parseInt") || toks.get(root).is("Integer")
        || toks.get(root).is("as.integer")) && root + 2 < arg[1]) {
      root += 2;
    }
    if (root < arg[1] && rootedIn(root, Set.of(Kind.SPAWN, Kind.ARGV), 0)) {
      return;
    }
    findings.facts().foreignSignal(how);
  }

  private void remoteClient(String dotted, List<int[]> args, Map<String, int[]> kw, int from, int to) {
    String host = null;
    for (String key : List.of("host", "url", "uri", "server", "hostname", "connectionString")) {
      if (kw.containsKey(key)) {
        String v = literalOf(kw.get(key));
        if (v != null) {
          host = v.contains("://") ? Databases.hostOfUrl(v) : v;
        }
      }
    }
    if (host == null) {
      for (int[] a : args) {
        String v = literalOf(a);
        if (v != null && v.contains("://")) {
          host = Databases.hostOfUrl(v);
        }
      }
    }
    if (host != null && !Databases.isLocalHost(host)) {
      findings.facts().remoteData(host);
    }
  }

  private void rPackages(Kind kind, List<int[]> args, Map<String, int[]> kw) {
    int[] lib = kw.containsKey("lib") ? kw.get("lib") : args.size() > 1 ? args.get(1) : null;
    Word w = lib == null ? null : pathWord(lib);
    Place place = w == null ? Place.UNKNOWN : shell.place(w);
    if (place == Place.PROJECT || place == Place.WORKDIR) {
      return;
    }
    if (kind == Kind.REMOVE_R) {
      findings.add(Flag.high("r-remove", "removes R packages other projects use (remove.packages)"));
    } else if (place == Place.SYSTEM || place == Place.ROOT) {
      findings.add(Flag.high("r-install-system", "installs R packages into the system library"));
    } else {
      findings.add(Flag.medium("r-install", "installs R packages into the user library"));
    }
  }

  private void evaluates(String name, List<int[]> args, Map<String, int[]> kw, int from, int to) {
    int[] code = name.equals("Function") && !args.isEmpty() ? args.get(args.size() - 1) : args.isEmpty() ? kw.get("text") : args.get(0);
    if (dialect == Dialect.R && code != null && toks.get(code[0]).is("parse")) {
      Map<String, int[]> inner = new HashMap<>();
      int paren = code[0] + 1;
      List<int[]> innerArgs = arguments(paren + 1, matching(paren), inner);
      code = inner.containsKey("text") ? inner.get("text") : inner.containsKey("file") ? null : innerArgs.isEmpty() ? null : innerArgs.get(0);
    }
    if (code == null) {
      return;
    }
    String literal = literalOf(code);
    if (literal != null) {
      new ScriptAnalyzer(dialect, judge, findings, depth + 1, cwd, venv).analyze(literal);
      return;
    }
    if (fetchesFromNetwork(code[0], code[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + name + ")"));
      return;
    }
    findings.facts().computedCode(name + "(" + exprName(code[0], code[1]) + ")");
  }

  private void source(int[] arg) {
    if (arg == null) {
      return;
    }
    Word w = pathWord(arg);
    String text = w == null ? "" : w.text();
    if (text.startsWith("http://") || text.startsWith("https://") || toks.get(arg[0]).is("url")
        || fetchesFromNetwork(arg[0], arg[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs an R script from the network (source " + abbreviate(text) + ")"));
      return;
    }
    if (w != null) {
      String content = shell.writtenContent(w);
      if (content != null) {
        new ScriptAnalyzer(dialect, judge, findings, depth + 1, cwd, venv).analyze(content);
      }
    }
  }

  // ---------------------------------------------------------------- shell-outs

  private void shellString(int[] arg) {
    List<Part> v = eval(arg[0], arg[1]);
    if (v == null) {
      findings.facts().computedCode("shell command " + exprName(arg[0], arg[1]));
      return;
    }
    if (fetchesFromNetwork(arg[0], arg[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs a command fetched from the network"));
    }
    runShell(v);
  }

  private void argv(List<int[]> args, Map<String, int[]> kw, String name) {
    List<int[]> rest = new ArrayList<>(args);
    if (!rest.isEmpty() && toks.get(rest.get(0)[0]).is("{")) {
      rest.remove(0); // Ruby's leading environment hash
    }
    if (rest.isEmpty()) {
      return;
    }
    boolean shellOption = isTrue(kw.get("shell"));
    List<List<Part>> words = new ArrayList<>();
    for (int[] a : rest) {
      List<List<Part>> list = evalList(a[0], a[1]);
      if (list != null) {
        words.addAll(list);
      } else if (!toks.get(a[0]).is("{")) {
        words.add(eval(a[0], a[1]));
      }
    }
    if (words.size() == 1 || shellOption) {
      List<Part> joined = new ArrayList<>();
      for (List<Part> w : words) {
        if (!joined.isEmpty()) {
          joined.add(text(" "));
        }
        joined.addAll(w == null ? List.of(unknown("arg")) : w);
      }
      if (words.size() == 1 && words.get(0) == null) {
        findings.facts().computedCode("command " + name);
        return;
      }
      runShell(joined);
      return;
    }
    StringBuilder cmd = new StringBuilder();
    for (List<Part> w : words) {
      cmd.append(cmd.length() == 0 ? "" : " ").append(shellWord(w));
    }
    shell.analyze(cmd.toString());
  }

  /** R's system2(command, args): the pieces are pasted into one shell line. */
  private void system2(List<int[]> args, Map<String, int[]> kw) {
    int[] command = kw.containsKey("command") ? kw.get("command") : args.isEmpty() ? null : args.get(0);
    int[] rest = kw.containsKey("args") ? kw.get("args") : args.size() > 1 ? args.get(1) : null;
    if (command == null) {
      return;
    }
    List<Part> line = new ArrayList<>();
    List<Part> c = eval(command[0], command[1]);
    line.addAll(c == null ? List.of(unknown("command")) : c);
    if (rest != null) {
      List<List<Part>> list = evalList(rest[0], rest[1]);
      if (list == null) {
        List<Part> one = eval(rest[0], rest[1]);
        list = one == null ? List.of() : List.of(one);
      }
      for (List<Part> w : list) {
        line.add(text(" "));
        line.addAll(w == null ? List.of(unknown("arg")) : w);
      }
    }
    runShell(line);
  }

  private void runShell(List<Part> parts) {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      sb.append(p.kind() == PartKind.TEXT ? p.text() : shellVariable(p));
    }
    shell.analyze(sb.toString());
  }

  private static String shellWord(List<Part> parts) {
    if (parts == null) {
      return "\"${SCRIPT_ARG}\"";
    }
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (p.kind() == PartKind.TEXT) {
        if (!p.text().isEmpty()) {
          sb.append('\'').append(p.text().replace("'", "'\\''")).append('\'');
        }
      } else {
        sb.append('"').append(shellVariable(p)).append('"');
      }
    }
    return sb.length() == 0 ? "''" : sb.toString();
  }

  private static String shellVariable(Part p) {
    StringBuilder name = new StringBuilder("JS_");
    for (char c : p.text().toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '_') {
        name.append(c);
      }
      if (name.length() > 40) {
        break;
      }
    }
    return p.mayBeEmpty() ? "${" + name + "}" : "${" + name + ":?}";
  }

  // ---------------------------------------------------------------- values

  private List<Word> paths(List<int[]> args, Map<String, int[]> kw, Api api) {
    int[] a = argument(args, kw, api);
    return a == null ? List.of() : pathWords(a);
  }

  /** The path words of an argument: one, or each element of a list ({@code c(...)}, {@code [...]}, a glob's matches). */
  private List<Word> pathWords(int[] a) {
    List<List<Part>> list = evalList(a[0], a[1]);
    List<Word> out = new ArrayList<>();
    if (list != null) {
      for (List<Part> v : list) {
        if (v != null) {
          out.add(toWord(v));
        }
      }
      return out;
    }
    Word w = pathWord(a);
    return w == null ? List.of() : List.of(w);
  }

  private Word pathWord(int[] a) {
    List<Part> v = eval(a[0], a[1]);
    return v == null ? null : toWord(v);
  }

  /** R expands a leading ~ in every file function; JavaScript and Ruby do not. */
  private Word toWord(List<Part> v) {
    List<Part> parts = v;
    if (dialect == Dialect.R && !v.isEmpty() && v.get(0).kind() == PartKind.TEXT) {
      parts = expandUser(v);
    }
    return new Word(parts, "");
  }

  private String literalOf(int[] a) {
    List<Part> v = eval(a[0], a[1]);
    return v == null ? null : new Word(v, "").literal();
  }

  private boolean isTrue(int[] a) {
    if (a == null) {
      return false;
    }
    Tok t = toks.get(a[0]);
    return t.is("true") || t.is("TRUE") || t.is("T");
  }

  private boolean modeAppends(int[] a) {
    String m = a == null ? null : literalOf(a);
    return m != null && m.startsWith("a");
  }

  /** A mode argument as written: 0o666, 0777, "0777", 438. */
  private String modeText(int[] a) {
    Tok t = toks.get(a[0]);
    if (t.kind() == T.NUMBER) {
      String n = t.text();
      return dialect == Dialect.RUBY && n.startsWith("0") && !n.startsWith("0o") && n.length() > 1 ? "0o" + n.substring(1) : n;
    }
    return literalOf(a);
  }

  /** A list value: {@code [a, b]}, {@code c(a, b)}, a name bound to one; null when the expression is not a list. */
  private List<List<Part>> evalList(int from, int to) {
    if (from >= to || evalDepth > MAX_EVAL_DEPTH) {
      return null;
    }
    Tok first = toks.get(from);
    int openAt = first.is("[") ? from : dialect == Dialect.R && first.is("c") && from + 1 < to && toks.get(from + 1).is("(") ? from + 1 : -1;
    if (openAt >= 0 && matching(openAt) == to - 1) {
      List<List<Part>> out = new ArrayList<>();
      for (int[] a : arguments(openAt + 1, to - 1, new HashMap<>())) {
        out.add(eval(a[0], a[1]));
      }
      return out;
    }
    if (to - from == 1 && first.kind() == T.NAME) {
      Binding b = bindingBefore(first.text(), from);
      if (b != null && !b.element() && b.member() == null) {
        evalDepth++;
        try {
          return evalList(b.from(), b.to());
        } finally {
          evalDepth--;
        }
      }
    }
    return null;
  }

  /**
   * The value of a string or path expression as text and unknown pieces, or null when it is no such expression.
   * Handles literals and interpolation, {@code +}, defaults ({@code ||}, {@code ??}, {@code %||%}), the path
   * helpers of each language, the environment, temporary folders and names bound earlier.
   */
  private List<Part> eval(int from, int to) {
    if (from >= to || evalDepth > MAX_EVAL_DEPTH) {
      return null;
    }
    evalDepth++;
    try {
      // a default: the left side when it is known, else the right side (what runs when the variable is unset)
      int alt = topLevel(from, to, "||", "??", "%||%", "or");
      if (alt > from) {
        List<Part> left = eval(from, alt);
        if (left != null && new Word(left, "").literal() != null) {
          return left;
        }
        List<Part> right = eval(alt + 1, to);
        return right != null ? right : left;
      }
      int ternary = topLevel(from, to, "?");
      if (ternary > from) {
        int colon = topLevel(ternary + 1, to, ":");
        return colon > ternary ? eval(colon + 1, to) : null;
      }
      List<Part> out = new ArrayList<>();
      int d = 0;
      int termStart = from;
      for (int j = from; j <= to; j++) {
        Tok t = j < to ? toks.get(j) : null;
        if (t != null && (t.is("(") || t.is("[") || t.is("{"))) {
          d++;
        } else if (t != null && (t.is(")") || t.is("]") || t.is("}"))) {
          d--;
        }
        if (j == to || (d == 0 && (t.is("+") || t.is("<<") && dialect == Dialect.RUBY) && j > termStart)) {
          List<Part> term = term(termStart, j);
          if (term == null) {
            return null;
          }
          out.addAll(term);
          termStart = j + 1;
        }
      }
      return out;
    } finally {
      evalDepth--;
    }
  }

  private int topLevel(int from, int to, String... ops) {
    int d = 0;
    for (int j = from; j < to; j++) {
      Tok t = toks.get(j);
      if (t.is("(") || t.is("[") || t.is("{")) {
        d++;
      } else if (t.is(")") || t.is("]") || t.is("}")) {
        d--;
      } else if (d == 0) {
        for (String op : ops) {
          if (t.is(op)) {
            return j;
          }
        }
      }
    }
    return -1;
  }

  private List<Part> term(int from, int to) {
    Tok first = toks.get(from);
    if (first.is("await") || first.is("new")) {
      return from + 1 < to ? term(from + 1, to) : null;
    }
    List<Part> value;
    int j;
    if (first.kind() == T.STRING) {
      value = new ArrayList<>(stringParts(first, from));
      j = from + 1;
    } else if (first.kind() == T.NUMBER) {
      value = new ArrayList<>(List.of(text(first.text())));
      j = from + 1;
    } else if (first.is("(")) {
      int close = matching(from);
      value = eval(from + 1, close);
      j = close + 1;
    } else if (first.is("require") && from + 5 < to && toks.get(from + 1).is("(") && toks.get(from + 2).kind() == T.STRING
        && toks.get(from + 3).is(")") && isSeparator(toks.get(from + 4)) && toks.get(from + 5).kind() == T.NAME) {
      // require('os').homedir(): the module's function, as if imported under its own name
      String name = module(toks.get(from + 2).text()) + "." + dotted(from + 5, to);
      j = dottedEnd(from + 5, to);
      if (j < to && toks.get(j).is("(")) {
        int close = matching(j);
        value = callValue(canonical(name), j + 1, close, from);
        j = close + 1;
      } else {
        value = nameValue(canonical(name), name, from);
      }
    } else if (first.kind() == T.NAME) {
      String dotted = dotted(from, to);
      String name = canonical(dotted);
      j = dottedEnd(from, to);
      if (j < to && toks.get(j).is("(")) {
        int close = matching(j);
        value = callValue(name, j + 1, close, from);
        j = close + 1;
      } else if (j < to && toks.get(j).is("[") && (name.equals("process.env") || name.equals("ENV"))) {
        int close = matching(j);
        value = envValue(j + 1, close, null);
        j = close + 1;
      } else {
        value = nameValue(name, dotted, from);
      }
    } else {
      return null;
    }
    while (value != null && j < to) {
      Tok t = toks.get(j);
      if (isSeparator(t) && j + 1 < to && toks.get(j + 1).kind() == T.NAME) {
        String m = toks.get(j + 1).text();
        boolean isCall = j + 2 < to && toks.get(j + 2).is("(");
        int close = isCall ? matching(j + 2) : j + 1;
        if (m.equals("parent") || m.equals("dirname")) {
          value = parent(value);
        } else if (m.equals("join") && isCall && dialect == Dialect.JAVASCRIPT) {
          value = List.of(unknown("joined"));
        } else if (!IDENTITY_METHODS.contains(m)) {
          value = List.of(unknown(exprName(from, close + 1)));
        }
        j = close + 1;
      } else if (t.is("[")) {
        j = matching(j) + 1;
        value = List.of(unknown(exprName(from, j)));
      } else {
        return List.of(unknown(exprName(from, to)));
      }
    }
    return value;
  }

  private List<Part> nameValue(String name, String dotted, int at) {
    switch (name) {
      case "__dirname", "__dir__", "Dir.pwd", "process.cwd" -> {
        return List.of(text(cwd == null ? "." : cwd.toString()));
      }
      case "Dir.home", "os.homedir" -> {
        return List.of(text(home()));
      }
      case "Dir.tmpdir", "os.tmpdir" -> {
        return List.of(text("/tmp"));
      }
      case ".Library", ".Library.site" -> {
        return List.of(text("/usr/lib/R/library"));
      }
      case "TRUE", "FALSE", "true", "false", "nil", "null", "undefined", "NULL" -> {
        return null;
      }
      default -> {
        // a name bound in the block, below
      }
    }
    if (name.startsWith("process.env.") || name.startsWith("ENV.")) {
      String var = name.substring(name.indexOf('.', name.startsWith("ENV.") ? 0 : 8) + 1);
      return var.equals("HOME") ? List.of(text(home())) : List.of(unknown(var));
    }
    if (!dotted.contains(".")) {
      Binding b = bindingBefore(dotted, at);
      if (b != null) {
        List<Part> v = b.element() ? element(b) : b.member() != null ? null : eval(b.from(), b.to());
        return v == null ? List.of(unknown(dotted)) : v;
      }
    }
    if (dialect == Dialect.RUBY && dotted.contains(".")) {
      // Dir.mktmpdir, Dir.home: Ruby calls methods without parentheses
      return callValue(name, at, at, at);
    }
    return List.of(unknown(dotted));
  }

  /** A loop variable over a listing or a glob stands for "any entry": the pattern itself, an active glob. */
  private List<Part> element(Binding b) {
    List<Part> whole = eval(b.from(), b.to());
    if (whole == null) {
      return null;
    }
    Word w = new Word(whole, "");
    String lit = w.literal();
    return lit != null && (lit.contains("*") || lit.contains("?")) ? whole : null;
  }

  private List<Part> callValue(String name, int from, int to, int at) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(from, to, kw);
    switch (name) {
      case "path.join", "path.resolve", "path.posix.join", "path.posix.resolve", "File.join", "file.path",
           "fs.path", "Pathname.new", "Pathname", "fs::path" -> {
        List<Part> out = new ArrayList<>();
        for (int[] a : args) {
          List<Part> v = eval(a[0], a[1]);
          join(out, v == null ? List.of(unknown(exprName(a[0], a[1]))) : v);
        }
        if (name.equals("path.resolve") && (out.isEmpty() || !out.get(0).text().startsWith("/")) && cwd != null) {
          List<Part> abs = new ArrayList<>(List.of(text(cwd.toString())));
          join(abs, out);
          return abs;
        }
        return out;
      }
      case "paste0", "paste", "str_c", "glue", "stringr.str_c" -> {
        String sep = name.equals("paste") ? " " : "";
        if (kw.containsKey("sep")) {
          sep = literalOf(kw.get("sep"));
          if (sep == null) {
            return List.of(unknown("paste"));
          }
        }
        List<Part> out = new ArrayList<>();
        for (int k = 0; k < args.size(); k++) {
          List<Part> v = eval(args.get(k)[0], args.get(k)[1]);
          if (k > 0 && !sep.isEmpty()) {
            out.add(text(sep));
          }
          out.addAll(v == null ? List.of(unknown("paste")) : v);
        }
        return out;
      }
      case "os.homedir", "Dir.home", "Etc.getpwuid.dir" -> {
        return List.of(text(home()));
      }
      case "os.tmpdir", "tempdir", "Dir.tmpdir" -> {
        return name.equals("tempdir") ? List.of(text(judge.newTempDirectory().toString())) : List.of(text("/tmp"));
      }
      case "tempfile", "fs.mkdtempSync", "fs.mkdtemp", "Dir.mktmpdir", "Tempfile.new", "Tempfile.create", "file_temp",
           "fs.file_temp", "withr.local_tempfile" -> {
        return List.of(text(judge.newTempDirectory().toString()));
      }
      case "process.cwd", "getwd", "Dir.pwd", "here.here", "here" -> {
        return List.of(text(cwd == null ? "." : cwd.toString()));
      }
      case "path.dirname", "File.dirname", "dirname" -> {
        List<Part> v = args.isEmpty() ? null : eval(args.get(0)[0], args.get(0)[1]);
        return v == null ? null : parent(v);
      }
      case "File.expand_path", "path.expand", "normalizePath", "fs.path_expand", "fs.path_abs", "path.normalize",
           "String", "as.character", "toString", "File.absolute_path", "fs.realpathSync", "fs.path_norm" -> {
        if (args.isEmpty()) {
          return null;
        }
        List<Part> v = eval(args.get(0)[0], args.get(0)[1]);
        if (v == null) {
          return null;
        }
        v = expandUser(v);
        if ((name.equals("File.expand_path") || name.equals("normalizePath")) && args.size() > 1) {
          List<Part> base = eval(args.get(1)[0], args.get(1)[1]);
          if (base != null && !(v.get(0).kind() == PartKind.TEXT && v.get(0).text().startsWith("/"))) {
            List<Part> joined = new ArrayList<>(expandUser(base));
            join(joined, v);
            return joined;
          }
        }
        return v;
      }
      case "Sys.getenv", "ENV.fetch", "process.env.get", "ENV.[]" -> {
        return envValue(from, to, kw);
      }
      case "R.home" -> {
        List<Part> v = args.isEmpty() ? List.of() : eval(args.get(0)[0], args.get(0)[1]);
        List<Part> out = new ArrayList<>(List.of(text("/usr/lib/R")));
        if (v != null && !v.isEmpty()) {
          join(out, v);
        }
        return out;
      }
      case "list.files", "dir", "list.dirs", "Dir.children", "Dir.entries", "fs.readdirSync", "fs.readdir",
           "fs.dir_ls", "dir_ls" -> {
        List<Part> dir = args.isEmpty() ? List.of(text(".")) : eval(args.get(0)[0], args.get(0)[1]);
        if (dir == null) {
          return null;
        }
        List<Part> out = new ArrayList<>(dialect == Dialect.R ? expandUser(dir) : dir);
        join(out, List.of(glob("*")));
        return out;
      }
      case "Dir.glob", "Sys.glob", "glob.sync", "glob", "fast-glob.sync", "globSync", "Dir.[]" -> {
        List<Part> pattern = args.isEmpty() ? null : eval(args.get(0)[0], args.get(0)[1]);
        if (pattern == null) {
          return null;
        }
        List<Part> out = new ArrayList<>();
        for (Part p : dialect == Dialect.R ? expandUser(pattern) : pattern) {
          out.add(p.kind() == PartKind.TEXT ? glob(p.text()) : p);
        }
        return out;
      }
      case "require" -> {
        return null;
      }
      default -> {
        Api api = api(name);
        if (api != null && (api.kind() == Kind.SPAWN || api.kind() == Kind.ARGV)) {
          return List.of(unknown("pid"));
        }
        return List.of(unknown(exprName(at, to + 1)));
      }
    }
  }

  /** ENV['X'], ENV.fetch('X', default), Sys.getenv("X", "default"), Sys.getenv("X", unset = ...). */
  private List<Part> envValue(int from, int to, Map<String, int[]> kwIn) {
    Map<String, int[]> kw = kwIn == null ? new HashMap<>() : kwIn;
    List<int[]> args = arguments(from, to, kw);
    if (args.isEmpty()) {
      return null;
    }
    String key = literalOf(args.get(0));
    if ("HOME".equals(key)) {
      return List.of(text(home()));
    }
    if (key != null) {
      secretName(key);
    }
    int[] def = kw.containsKey("unset") ? kw.get("unset") : args.size() > 1 ? args.get(1) : null;
    if (def != null) {
      List<Part> v = eval(def[0], def[1]);
      if (v != null && !(v.size() == 1 && v.get(0).kind() == PartKind.TEXT && v.get(0).text().isEmpty())) {
        return v;
      }
    }
    return List.of(unknown(key == null ? "env" : key));
  }

  private List<Part> stringParts(Tok t, int at) {
    List<Part> out = new ArrayList<>();
    for (Piece p : t.pieces()) {
      if (!p.expression()) {
        out.add(text(p.text()));
        continue;
      }
      List<Part> v = snippet(p.text(), at);
      out.addAll(v == null ? List.of(unknown(p.text())) : v);
    }
    return out;
  }

  /**
   * The value of an interpolated expression ({@code ${root}}, {@code #{host}}), read with the block's bindings. The
   * expression's tokens are appended to the block's once, so the scan also sees the calls made inside templates.
   */
  private List<Part> snippet(String source, int at) {
    String s = source.strip();
    if (s.isEmpty() || s.length() > 500 || evalDepth > MAX_EVAL_DEPTH) {
      return null;
    }
    int[] range = snippets.get(s);
    if (range == null) {
      if (toks.size() > MAX_TOKENS) {
        return null;
      }
      List<Tok> inner = ScriptLexer.lex(s, dialect);
      if (inner.size() == 2 && inner.get(0).kind() == T.NAME) {
        return nameValue(canonical(inner.get(0).text()), inner.get(0).text(), at);
      }
      int start = toks.size();
      toks.addAll(inner);
      int[] grown = java.util.Arrays.copyOf(open, toks.size());
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
      snippets.put(s, range);
    }
    return eval(range[0], range[1]);
  }

  private String home() {
    return judge.context().home().toString();
  }

  private List<Part> expandUser(List<Part> v) {
    if (!v.isEmpty() && v.get(0).kind() == PartKind.TEXT) {
      String t = v.get(0).text();
      if (t.equals("~") || t.startsWith("~/")) {
        List<Part> out = new ArrayList<>(v);
        out.set(0, text(home() + t.substring(1)));
        return out;
      }
    }
    return v;
  }

  private static void join(List<Part> base, List<Part> next) {
    boolean absolute = !next.isEmpty() && next.get(0).kind() == PartKind.TEXT && next.get(0).text().startsWith("/");
    if (absolute) {
      base.clear();
      base.addAll(next);
      return;
    }
    if (!base.isEmpty()) {
      Part last = base.get(base.size() - 1);
      if (!(last.kind() == PartKind.TEXT && last.text().endsWith("/"))) {
        base.add(text("/"));
      }
    }
    base.addAll(next);
  }

  private static List<Part> parent(List<Part> v) {
    String lit = new Word(v, "").literal();
    if (lit == null) {
      return List.of(unknown("parent"));
    }
    try {
      Path p = Path.of(lit).getParent();
      return List.of(text(p == null ? "." : p.toString()));
    } catch (java.nio.file.InvalidPathException e) {
      return List.of(unknown("parent"));
    }
  }

  private static Part text(String s) {
    return new Part(PartKind.TEXT, s, true, false);
  }

  /** Text whose * and ? act as a glob (what a listing or Dir.glob matches). */
  private static Part glob(String s) {
    return new Part(PartKind.TEXT, s, false, false);
  }

  private static Part unknown(String name) {
    return new Part(PartKind.VAR, name, false, true);
  }

  private String exprName(int from, int to) {
    StringBuilder sb = new StringBuilder();
    for (int j = from; j < to && j < toks.size() && sb.length() < 24; j++) {
      Tok t = toks.get(j);
      if (t.kind() == T.NAME) {
        sb.append(sb.length() == 0 ? "" : "_").append(t.text().replaceAll("[^A-Za-z0-9_]", ""));
      }
    }
    return sb.length() == 0 ? "expr" : sb.toString();
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }
}
