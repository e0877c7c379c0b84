package io.interpreter4j.core.safety.script;

import static io.interpreter4j.core.safety.code.ValueParts.text;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.code.EvalDepth;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.code.ValueParts;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Piece;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import io.interpreter4j.core.safety.script.ScriptSource.Binding;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Set;

/**
 * The value of a string or path expression of a JavaScript, Ruby or R block, as text and unknown pieces (the
 * {@link Part}s the bash judges take): literals and interpolation, {@code +}, defaults ({@code ||}, {@code ??},
 * {@code %||%}, {@code ENV.fetch('X', d)}, {@code Sys.getenv('X', d)}), each language's path helpers, the
 * environment, temporary folders, listings and globs, and names bound earlier in the block.
 */
final class ScriptValues {

  private static final Set<String> IDENTITY_METHODS = Set.of(
      "trim", "toString", "to_s", "strip", "chomp", "to_str", "normalize", "valueOf", "expand_path", "realpath",
      "to_path", "cleanpath");

  private final ScriptSource src;
  private final Dialect dialect;
  private final PathJudge judge;
  private Path cwd;
  private final ScriptLibraryValues library;
  private final EvalDepth depth = new EvalDepth();

  ScriptValues(ScriptSource src, PathJudge judge, Findings findings, Path cwd) {
    this.src = src;
    this.dialect = src.dialect;
    this.judge = judge;
    this.cwd = cwd;
    this.library = new ScriptLibraryValues(src, this, judge, findings);
  }

  /** The block changed folder ({@code process.chdir}, {@code Dir.chdir}, {@code setwd}): relative paths follow. */
  void cwd(Path folder) {
    this.cwd = folder;
  }

  String literalOf(int[] a) {
    List<Part> v = eval(a[0], a[1]);
    return v == null ? null : new Word(v, "").literal();
  }

  boolean isTrue(int[] a) {
    if (a == null) {
      return false;
    }
    Tok t = src.tok(a[0]);
    return t.is("true") || t.is("TRUE") || t.is("T");
  }

  /** A mode argument as written: 0o666, 0777, "0777", 438. */
  String modeText(int[] a) {
    Tok t = src.tok(a[0]);
    if (t.kind() == TokenKind.NUMBER) {
      String n = t.text();
      return dialect == Dialect.RUBY && n.startsWith("0") && !n.startsWith("0o") && n.length() > 1 ? "0o" + n.substring(1) : n;
    }
    return literalOf(a);
  }

  /** A list value: {@code [a, b]}, {@code c(a, b)}, a name bound to one; null when the expression is not a list. */
  List<List<Part>> evalList(int from, int to) {
    if (from >= to || depth.exceeded()) {
      return null;
    }
    Tok first = src.tok(from);
    int openAt = first.is("[") ? from : dialect == Dialect.R && first.is("c") && from + 1 < to && src.tok(from + 1).is("(") ? from + 1 : -1;
    if (openAt >= 0 && src.matching(openAt) == to - 1) {
      List<List<Part>> out = new ArrayList<>();
      for (int[] a : src.arguments(openAt + 1, to - 1, new HashMap<>())) {
        out.add(eval(a[0], a[1]));
      }
      return out;
    }
    if (to - from == 1 && first.kind() == TokenKind.NAME) {
      Binding b = src.bindingBefore(first.text(), from);
      if (b != null && !b.element() && b.member() == null) {
        return depth.deeper(() -> evalList(b.from(), b.to()));
      }
    }
    return null;
  }

  /**
   * The value of a string or path expression as text and unknown pieces, or null when it is no such expression.
   * Handles literals and interpolation, {@code +}, defaults ({@code ||}, {@code ??}, {@code %||%}), the path
   * helpers of each language, the environment, temporary folders and names bound earlier.
   */
  List<Part> eval(int from, int to) {
    return depth.deeperIn(from, to, this::value);
  }

  /** {@link #eval} one level deeper: a default, a conditional, or a sum of terms. */
  private List<Part> value(int from, int to) {
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
      Tok t = j < to ? src.tok(j) : null;
      if (t != null && t.opens()) {
        d++;
      } else if (t != null && t.closes()) {
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
  }

  private int topLevel(int from, int to, String... ops) {
    int d = 0;
    for (int j = from; j < to; j++) {
      Tok t = src.tok(j);
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
    Tok first = src.tok(from);
    if (first.is("await") || first.is("new")) {
      return from + 1 < to ? term(from + 1, to) : null;
    }
    List<Part> value;
    int j;
    if (first.kind() == TokenKind.STRING) {
      value = new ArrayList<>(stringParts(first, from));
      j = from + 1;
    } else if (first.kind() == TokenKind.NUMBER) {
      value = new ArrayList<>(List.of(text(first.text())));
      j = from + 1;
    } else if (first.is("(")) {
      int close = src.matching(from);
      value = eval(from + 1, close);
      j = close + 1;
    } else if (first.is("require") && from + 5 < to && src.tok(from + 1).is("(") && src.tok(from + 2).kind() == TokenKind.STRING
        && src.tok(from + 3).is(")") && src.isSeparator(src.tok(from + 4)) && src.tok(from + 5).kind() == TokenKind.NAME) {
      // require('os').homedir(): the module's function, as if imported under its own name
      String name = ScriptSource.module(src.tok(from + 2).text()) + "." + src.dotted(from + 5, to);
      j = src.dottedEnd(from + 5, to);
      if (j < to && src.tok(j).is("(")) {
        int close = src.matching(j);
        value = library.callValue(src.canonical(name), j + 1, close, from);
        j = close + 1;
      } else {
        value = nameValue(src.canonical(name), name, from);
      }
    } else if (first.kind() == TokenKind.NAME) {
      String dotted = src.dotted(from, to);
      String name = src.canonical(dotted);
      j = src.dottedEnd(from, to);
      if (j < to && src.tok(j).is("(")) {
        int close = src.matching(j);
        value = library.callValue(name, j + 1, close, from);
        j = close + 1;
      } else if (j < to && src.tok(j).is("[") && (name.equals("process.env") || name.equals("ENV"))) {
        int close = src.matching(j);
        value = library.envValue(j + 1, close, null);
        j = close + 1;
      } else {
        value = nameValue(name, dotted, from);
      }
    } else {
      return null;
    }
    while (value != null && j < to) {
      Tok t = src.tok(j);
      if (src.isSeparator(t) && j + 1 < to && src.tok(j + 1).kind() == TokenKind.NAME) {
        String m = src.tok(j + 1).text();
        boolean isCall = j + 2 < to && src.tok(j + 2).is("(");
        int close = isCall ? src.matching(j + 2) : j + 1;
        if (m.equals("parent") || m.equals("dirname")) {
          value = parent(value);
        } else if (m.equals("join") && isCall && dialect == Dialect.RUBY) {
          // Pathname#join
          List<Part> joined = new ArrayList<>(value);
          for (int[] a : src.arguments(j + 3, close, new HashMap<>())) {
            List<Part> v = eval(a[0], a[1]);
            ValueParts.join(joined, v == null ? List.of(unknown("part")) : v, true);
          }
          value = joined;
        } else if (m.equals("join") && isCall) {
          value = List.of(unknown("joined"));
        } else if (!IDENTITY_METHODS.contains(m)) {
          value = List.of(unknown(src.exprName(from, close + 1)));
        }
        j = close + 1;
      } else if (t.is("[")) {
        j = src.matching(j) + 1;
        value = List.of(unknown(src.exprName(from, j)));
      } else {
        return List.of(unknown(src.exprName(from, to)));
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
      Binding b = src.bindingBefore(dotted, at);
      if (b != null) {
        List<Part> v = b.element() ? element(b) : b.member() != null ? null : eval(b.from(), b.to());
        return v == null ? List.of(unknown(dotted)) : v;
      }
    }
    if (dialect == Dialect.RUBY && dotted.contains(".")) {
      // Dir.mktmpdir, Dir.home: Ruby calls methods without parentheses
      return library.callValue(name, at, at, at);
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


  List<Part> stringParts(Tok t, int at) {
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

  /** The value of an interpolated expression ({@code ${root}}, {@code #{host}}), read with the block's bindings. */
  private List<Part> snippet(String source, int at) {
    String s = source.strip();
    if (s.isEmpty() || s.length() > 500 || depth.exceeded()) {
      return null;
    }
    int[] range = src.append(s);
    if (range == null) {
      return null;
    }
    if (range[1] - range[0] == 1 && src.tok(range[0]).kind() == TokenKind.NAME) {
      String name = src.tok(range[0]).text();
      return nameValue(src.canonical(name), name, at);
    }
    return eval(range[0], range[1]);
  }

  /** The folder relative paths are read from. */
  Path cwd() {
    return cwd;
  }

  String home() {
    return judge.context().home().toString();
  }

  List<Part> expandUser(List<Part> v) {
    return ValueParts.expandUser(v, home());
  }

  static List<Part> parent(List<Part> v) {
    try {
      return ValueParts.parent(v, unknown("parent"));
    } catch (java.nio.file.InvalidPathException e) {
      return List.of(unknown("parent"));
    }
  }

  static Part unknown(String name) {
    return new Part(PartKind.VAR, name, false, true);
  }
}
