package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.code.EvalDepth;
import io.interpreter4j.core.safety.code.Memo;
import io.interpreter4j.core.safety.code.ShellText;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import io.interpreter4j.core.safety.script.ScriptSource.Binding;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One JavaScript, Ruby or R program under analysis, as its call rules see it: its source and values, the findings
 * and shell effects they feed, the paths its arguments name, and the look-ups through its bindings (was this
 * fetched from the network, does this come from a client or a process listing).
 */
final class ScriptBlock {

  /** How the scripts' unknown values read as shell variables ({@code ${JS_name}}). */
  static final ShellText SHELL_TEXT = new ShellText("JS_", 40, "\"${SCRIPT_ARG}\"");

  final ScriptSource src;
  final ScriptValues values;
  final Findings findings;
  final ShellEffects shell;
  final Dialect dialect;
  /** Analyses another program in the block's language (eval of a literal, a file it wrote and then loads). */
  final Consumer<String> script;
  private final Memo rooted = new Memo();
  private final Memo fetched = new Memo();

  ScriptBlock(ScriptSource src, ScriptValues values, Findings findings, ShellEffects shell, Consumer<String> script) {
    this.src = src;
    this.values = values;
    this.findings = findings;
    this.shell = shell;
    this.dialect = src.dialect;
    this.script = script;
  }

  /** The argument an API acts on: its keyword when given, else its position; null when the call has neither. */
  static int[] argument(List<int[]> args, Map<String, int[]> kw, Api api) {
    if (api.keyword() != null && kw.containsKey(api.keyword())) {
      return kw.get(api.keyword());
    }
    return api.pathArg() >= 0 && api.pathArg() < args.size() ? args.get(api.pathArg()) : null;
  }

  /** Analyses a command line the block runs. */
  void runShell(List<Part> parts) {
    shell.analyze(SHELL_TEXT.source(parts));
  }

  static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  /**
   * Whether the expression starting at {@code from} comes from a call of one of {@code kinds}: directly
   * ({@code octokit.repos.delete} where octokit = new Octokit) or through the names it was assigned from.
   */
  boolean rootedIn(int from, Set<Kind> kinds, int level) {
    if (from < 0 || from >= src.size() || level > EvalDepth.MAX) {
      return false;
    }
    return rooted.answer(((long) from << 20) ^ kinds.hashCode(), () -> rootedInUncached(from, kinds, level));
  }

  private boolean rootedInUncached(int from, Set<Kind> kinds, int level) {
    Tok t = src.tok(from);
    if (t.kind() != TokenKind.NAME) {
      return false;
    }
    String name = src.canonical(src.dotted(from));
    for (String prefix = name; !prefix.isEmpty(); prefix = prefix.contains(".") ? prefix.substring(0, prefix.lastIndexOf('.')) : "") {
      Api a = src.api(prefix);
      if (a != null && kinds.contains(a.kind())) {
        return true;
      }
    }
    Binding b = src.bindingBefore(t.text(), from);
    if (b == null) {
      return false;
    }
    for (int j = b.from(); j < b.to() && j < src.size(); j++) {
      Tok x = src.tok(j);
      if (x.kind() == TokenKind.NAME && (j == b.from() || !src.isSeparator(src.tok(j - 1)))) {
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
  boolean fetchesFromNetwork(int from, int to, int level) {
    if (level > EvalDepth.MAX) {
      return false;
    }
    return fetched.answer(((long) from << 32) | (to & 0xffffffffL), () -> fetchesUncached(from, to, level));
  }

  private boolean fetchesUncached(int from, int to, int level) {
    for (int j = from; j < to && j < src.size(); j++) {
      Tok x = src.tok(j);
      if (x.kind() != TokenKind.NAME || j > from && src.isSeparator(src.tok(j - 1))) {
        continue;
      }
      Api a = src.api(src.canonical(src.dotted(j)));
      if (a != null && a.kind() == Kind.NETWORK) {
        return true;
      }
      Binding b = src.bindingBefore(x.text(), j);
      if (b != null && b.at() != j && fetchesFromNetwork(b.from(), b.to(), level + 1)) {
        return true;
      }
    }
    return false;
  }

  List<Word> paths(List<int[]> args, Map<String, int[]> kw, Api api) {
    int[] a = argument(args, kw, api);
    return a == null ? List.of() : pathWords(a);
  }

  /** The path words of an argument: one, or each element of a list ({@code c(...)}, {@code [...]}, a glob's matches). */
  List<Word> pathWords(int[] a) {
    List<List<Part>> list = values.evalList(a[0], a[1]);
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

  Word pathWord(int[] a) {
    List<Part> v = values.eval(a[0], a[1]);
    return v == null ? null : toWord(v);
  }

  /** R expands a leading ~ in every file function; JavaScript and Ruby do not. */
  Word toWord(List<Part> v) {
    List<Part> parts = v;
    if (dialect == Dialect.R && !v.isEmpty() && v.get(0).kind() == PartKind.TEXT) {
      parts = values.expandUser(v);
    }
    return new Word(parts, "");
  }

  boolean modeAppends(int[] a) {
    String m = a == null ? null : values.literalOf(a);
    return m != null && m.startsWith("a");
  }
}
