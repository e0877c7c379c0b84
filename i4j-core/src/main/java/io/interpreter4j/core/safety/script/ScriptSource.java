package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.code.Brackets;
import io.interpreter4j.core.safety.code.ExprName;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    new ScriptImports(this).collect();
    new ScriptBindings(this).collect();
  }

  /** From here on, {@code name} stands for the module or library function {@code target}. */
  void alias(String name, String target) {
    aliases.put(name, target);
  }

  /** {@code name} is bound as {@code b} says (bindings are added in source order). */
  void bind(String name, Binding b) {
    bindings.computeIfAbsent(name, x -> new ArrayList<>()).add(b);
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
    return Brackets.matching(toks, at);
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
      } else if (d == 0 && (t.kind() == TokenKind.NEWLINE || t.is(",") && dialect == Dialect.JAVASCRIPT)) {
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
    if (k >= limit || toks.get(k).kind() != TokenKind.NAME) {
      return "";
    }
    StringBuilder sb = new StringBuilder(toks.get(k).text());
    int j = k + 1;
    while (j + 1 < limit && isSeparator(toks.get(j)) && toks.get(j + 1).kind() == TokenKind.NAME) {
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
    while (j + 1 < limit && isSeparator(toks.get(j)) && toks.get(j + 1).kind() == TokenKind.NAME) {
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
  static String module(String spec) {
    String m = spec.startsWith("node:") ? spec.substring(5) : spec;
    return m.equals("fs/promises") ? "fs" : m.equals("fs-extra") ? "fs-extra" : m;
  }
  /** The first token of a dotted name ending at k. */
  int nameStart(int k) {
    int j = k;
    while (j >= 2 && isSeparator(toks.get(j - 1)) && toks.get(j - 2).kind() == TokenKind.NAME) {
      j -= 2;
    }
    return j;
  }

  /** "each" for the tokens {@code ... .each} before position {@code before} (a block opener or a paren). */
  String methodBefore(int before) {
    int m = before - 1;
    if (m >= 1 && toks.get(m).kind() == TokenKind.NAME && isSeparator(toks.get(m - 1))) {
      return toks.get(m).text();
    }
    if (m >= 0 && toks.get(m).is(")")) {
      int o = matchingBack(m);
      if (o >= 2 && toks.get(o - 1).kind() == TokenKind.NAME && isSeparator(toks.get(o - 2))) {
        return toks.get(o - 1).text();
      }
      return o >= 1 && toks.get(o - 1).kind() == TokenKind.NAME ? toks.get(o - 1).text() : null;
    }
    return m >= 0 && toks.get(m).kind() == TokenKind.NAME ? toks.get(m).text() : null;
  }

  int dotBefore(int before) {
    int m = before - 1;
    if (m >= 0 && toks.get(m).is(")")) {
      m = matchingBack(m) - 1;
    }
    return m >= 1 && isSeparator(toks.get(m - 1)) ? m - 1 : m;
  }

  int matchingBack(int close) {
    return Brackets.matchingBack(toks, close);
  }

  /** The first token of the expression ending just before {@code end} (a chain of names, calls and indexes). */
  int receiverStart(int end) {
    int j = end - 1;
    while (j >= 0) {
      Tok t = toks.get(j);
      if (t.is(")") || t.is("]")) {
        j = matchingBack(j);
        if (j > 0 && (toks.get(j - 1).kind() == TokenKind.NAME || toks.get(j - 1).is(")") || toks.get(j - 1).is("]"))) {
          j--;
          continue;
        }
        return j;
      }
      if (t.kind() != TokenKind.NAME && t.kind() != TokenKind.STRING) {
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
    for (int[] piece : Brackets.pieces(toks, from, to)) {
      int start = piece[0];
      int j = piece[1];
      Tok first = toks.get(start);
      boolean keyword = j - start >= 2 && (first.kind() == TokenKind.NAME || first.kind() == TokenKind.STRING)
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
    return out;
  }

  String exprName(int from, int to) {
    return ExprName.of(toks, from, to, true);
  }

}
