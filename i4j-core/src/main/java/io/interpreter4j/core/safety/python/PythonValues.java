package io.interpreter4j.core.safety.python;

import static io.interpreter4j.core.safety.code.ValueParts.text;

import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.code.EvalDepth;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.code.ValueParts;
import io.interpreter4j.core.safety.python.PythonLexer.Tok;
import io.interpreter4j.core.safety.python.PythonSource.Assignment;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The value of a python string or path expression as text and unknown pieces (the {@link Part}s the bash judges
 * take): literals and f-strings, {@code +}, pathlib's {@code /}, {@code os.path} and pathlib helpers, the
 * environment with its defaults, temporary and site folders, names assigned earlier ({@link PythonLoops} for loop
 * variables), and the file a file object was opened on.
 */
final class PythonValues {

  private static final Set<String> PATH_CONSTRUCTORS = Set.of(
      "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath", "os.path.abspath",
      "os.path.realpath", "os.path.normpath", "str", "os.fspath");
  private static final Set<String> IDENTITY_METHODS = Set.of("resolve", "absolute", "strip", "rstrip", "lstrip");

  private final PythonSource src;
  private final PathJudge judge;
  private final Path cwd;
  private final boolean venv;
  private final PythonLoops loops;
  private final EvalDepth depth = new EvalDepth();

  PythonValues(PythonSource src, PathJudge judge, Path cwd, boolean venv) {
    this.src = src;
    this.judge = judge;
    this.cwd = cwd;
    this.venv = venv;
    this.loops = new PythonLoops(src, this);
  }

  /** The expression's text when it is all literal, else null. */
  String literalOf(int[] range) {
    return ValueParts.literal(evalString(range[0], range[1]));
  }
  Optional<Word> pathArg(int[] range) {
    return pathOf(range[0], range[1]);
  }

  Optional<Word> pathOf(int from, int to) {
    List<Part> v = evalString(from, to);
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(new Word(v, ""));
  }

  static Part unknown(String name, boolean mayBeEmpty) {
    return new Part(PartKind.VAR, name, true, mayBeEmpty);
  }

  /** A list or tuple literal of strings (or a name bound to one); null when the expression is something else. */
  List<List<Part>> evalList(int from, int to) {
    if (from >= to) {
      return null;
    }
    Tok first = src.tok(from);
    if ((first.is("[") || first.is("(")) && src.matching(from) == to - 1) {
      Map<String, int[]> ignored = new HashMap<>();
      List<List<Part>> out = new ArrayList<>();
      for (int[] a : src.arguments(from + 1, to - 1, ignored)) {
        out.add(evalString(a[0], a[1]));
      }
      return out;
    }
    if (to - from == 1 && first.kind() == TokenKind.NAME && depth.belowLimit()) {
      Assignment a = src.assignmentBefore(first.text(), from);
      if (a != null) {
        return depth.deeper(() -> evalList(a.from(), a.to()));
      }
    }
    return null;
  }

  /**
   * The value of a string or path expression as text and unknown pieces, or null when it is not one. Handles
   * literals (also f-strings), +, pathlib's /, os.path.join/expanduser/abspath, Path(...), Path.home(),
   * os.getenv("HOME"), tempfile.mkdtemp(), sys.executable and names assigned such values.
   */
  List<Part> evalString(int from, int to) {
    return depth.deeperIn(from, to, this::terms);
  }

  /** The terms of a sum or a pathlib path, joined; unknown for a formatted or conditional expression. */
  private List<Part> terms(int from, int to) {
    List<Part> out = new ArrayList<>();
    int j = from;
    int d = 0;
    int termStart = from;
    String pendingOp = null;
    for (; j <= to; j++) {
      Tok t = j < to ? src.tok(j) : null;
      if (t != null && t.opens()) {
        d++;
      } else if (t != null && t.closes()) {
        d--;
      }
      if (j == to || (d == 0 && (t.is("+") || t.is("/")) && j > termStart)) {
        List<Part> term = evalTerm(termStart, j);
        if (term == null) {
          return null;
        }
        if (pendingOp != null && pendingOp.equals("/")) {
          ValueParts.join(out, term, false);
        } else {
          out.addAll(term);
        }
        pendingOp = t == null ? null : t.text();
        termStart = j + 1;
      } else if (d == 0 && t != null && (t.is("%") || t.is("if") || t.is("or") || t.is("and") || t.is("for"))) {
        return List.of(unknown(src.exprName(from, to), true));
      }
    }
    return out;
  }

  private List<Part> evalTerm(int from, int to) {
    if (from >= to) {
      return null;
    }
    Tok first = src.tok(from);
    List<Part> value;
    int j;
    if (first.kind() == TokenKind.STRING) {
      value = new ArrayList<>();
      j = from;
      while (j < to && src.tok(j).kind() == TokenKind.STRING) {
        value.addAll(stringParts(src.tok(j), j));
        j++;
      }
    } else if (first.is("(")) {
      int close = src.matching(from);
      value = evalString(from + 1, close);
      j = close + 1;
    } else if (first.kind() == TokenKind.NAME) {
      String dotted = src.dotted(from, to);
      String name = src.canonical(dotted);
      j = from + PythonSource.dottedLength(dotted);
      if (j < to && src.tok(j).is("(")) {
        int close = src.matching(j);
        value = callValue(name, dotted, j + 1, close);
        j = close + 1;
      } else if (j < to && src.tok(j).is("[") && name.equals("os.environ")) {
        int close = src.matching(j);
        value = environmentValue(j + 1, close, false);
        j = close + 1;
      } else {
        value = nameValue(name, dotted, from);
      }
    } else {
      return null;
    }
    // trailers: .expanduser(), .resolve(), .parent, .join([...]) on a separator string
    while (value != null && j < to) {
      Tok t = src.tok(j);
      if (t.is(".") && j + 1 < to && src.tok(j + 1).kind() == TokenKind.NAME) {
        String m = src.tok(j + 1).text();
        boolean isCall = j + 2 < to && src.tok(j + 2).is("(");
        int close = isCall ? src.matching(j + 2) : j + 1;
        if (m.equals("expanduser")) {
          value = expandUser(value);
        } else if (m.equals("parent")) {
          value = parent(value);
        } else if (m.equals("join") && isCall) {
          value = joinList(value, j + 3, close);
        } else if (m.equals("format") && isCall) {
          value = PythonTemplates.formatted(value);
        } else if (!IDENTITY_METHODS.contains(m)) {
          value = List.of(unknown(src.exprName(from, close + 1), false));
        }
        j = close + 1;
      } else {
        return List.of(unknown(src.exprName(from, to), false));
      }
    }
    return value;
  }

  List<Part> nameValue(String name, String dotted, int at) {
    if (name.equals("sys.executable")) {
      return List.of(text("python"));
    }
    if (name.equals("site.USER_SITE")) {
      return List.of(text(judge.context().home() + "/.local/lib/python3/site-packages"));
    }
    if (name.equals("site.USER_BASE")) {
      return List.of(text(judge.context().home() + "/.local"));
    }
    if (!dotted.contains(".")) {
      Assignment a = src.assignmentBefore(dotted, at);
      if (a != null && a.element() >= 0) {
        List<Part> v = loops.element(a);
        return v == null ? List.of(unknown(dotted, true)) : v;
      }
      if (a != null) {
        List<Part> v = evalString(a.from(), a.to());
        return v == null ? List.of(unknown(dotted, true)) : v;
      }
    }
    return List.of(unknown(dotted, true));
  }

  private List<Part> callValue(String name, String dotted, int from, int to) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(from, to, kw);
    switch (name) {
      case "os.path.expanduser": {
        List<Part> arg0 = args.isEmpty() ? null : evalString(args.get(0)[0], args.get(0)[1]);
        return arg0 == null ? null : expandUser(arg0);
      }
      case "os.path.join": {
        List<Part> out = new ArrayList<>();
        for (int[] a : args) {
          List<Part> v = evalString(a[0], a[1]);
          if (v == null) {
            v = List.of(unknown(src.exprName(a[0], a[1]), true));
          }
          ValueParts.join(out, v, false);
        }
        return out;
      }
      case "os.path.dirname": {
        List<Part> arg0 = args.isEmpty() ? null : evalString(args.get(0)[0], args.get(0)[1]);
        return arg0 == null ? null : parent(arg0);
      }
      case "pathlib.Path.home":
        return List.of(text(judge.context().home().toString()));
      case "pathlib.Path.cwd", "os.getcwd":
        return List.of(text(cwd == null ? "." : cwd.toString()));
      case "os.getenv", "os.environ.get":
        return environmentValue(from, to, true);
      case "tempfile.mkdtemp":
        return List.of(text(judge.newTempDirectory().toString()));
      case "tempfile.gettempdir":
        return List.of(text("/tmp"));
      case "site.getusersitepackages":
        return List.of(text(judge.context().home() + "/.local/lib/python3/site-packages"));
      case "site.getuserbase":
        return List.of(text(judge.context().home() + "/.local"));
      case "site.getsitepackages", "sysconfig.get_path", "distutils.sysconfig.get_python_lib":
        // outside a virtual environment, the interpreter's own site-packages: a system folder
        return venv ? List.of(unknown("site_packages", false)) : List.of(text("/usr/lib/python3/dist-packages"));
      default:
        break;
    }
    if (PATH_CONSTRUCTORS.contains(name) || dotted.equals("Path")) {
      if (args.isEmpty()) {
        return List.of(text("."));
      }
      List<Part> out = new ArrayList<>();
      for (int[] a : args) {
        List<Part> v = evalString(a[0], a[1]);
        if (v == null) {
          return List.of(unknown(src.exprName(from, to), false));
        }
        ValueParts.join(out, v, false);
      }
      return out;
    }
    return List.of(unknown(src.exprName(from, to), false));
  }

  private List<Part> environmentValue(int from, int to, boolean mayDefault) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(from, to, kw);
    if (args.isEmpty()) {
      return null;
    }
    List<Part> key = evalString(args.get(0)[0], args.get(0)[1]);
    String k = key == null ? null : new Word(key, "").literal();
    if ("HOME".equals(k)) {
      return List.of(text(judge.context().home().toString()));
    }
    boolean nonEmptyDefault = false;
    if (mayDefault && args.size() > 1) {
      List<Part> def = evalString(args.get(1)[0], args.get(1)[1]);
      String dv = def == null ? null : new Word(def, "").literal();
      nonEmptyDefault = dv != null && !dv.isEmpty();
      if (def != null && !(dv != null && dv.isEmpty())) {
        // unset, the variable is its default: judge what runs in the usual environment
        return def;
      }
    }
    return List.of(unknown(k == null ? "env" : k, !nonEmptyDefault));
  }

  private List<Part> joinList(List<Part> separator, int from, int to) {
    List<List<Part>> items = evalList(from, to);
    String sep = new Word(separator, "").literal();
    if (items == null || sep == null) {
      return List.of(unknown("joined", true));
    }
    List<Part> out = new ArrayList<>();
    for (List<Part> item : items) {
      if (!out.isEmpty()) {
        out.add(text(sep));
      }
      out.addAll(item == null ? List.of(unknown("item", true)) : item);
    }
    return out;
  }

  /** A literal's pieces; an f-string field that names a variable takes the variable's value when known. */
  List<Part> stringParts(Tok t, int at) {
    if (!t.fstring()) {
      return List.of(text(t.text()));
    }
    List<Part> out = new ArrayList<>();
    for (Part p : PythonTemplates.fieldsAsUnknown(t.text())) {
      if (p.kind() == PartKind.VAR && PythonTemplates.isIdentifier(p.text().strip())) {
        out.addAll(nameValue(p.text().strip(), p.text().strip(), at));
      } else {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The file an expression reads or writes through a file object: {@code open(p, ...)} itself, a method called on it
   * ({@code open(p).read()}), or a name bound to it ({@code with open(p, 'wb') as f}).
   */
  Optional<Word> openedFile(int[] range) {
    int from = range[0];
    int to = range[1];
    if (from >= to || src.tok(from).kind() != TokenKind.NAME) {
      return Optional.empty();
    }
    String name = src.canonical(src.dotted(from));
    int after = from + PythonSource.dottedLength(src.dotted(from));
    if (PythonApis.OPEN.contains(name) && after < to && src.tok(after).is("(")) {
      Map<String, int[]> kw = new HashMap<>();
      List<int[]> args = src.arguments(after + 1, src.matching(after), kw);
      return args.isEmpty() ? Optional.empty() : pathArg(args.get(0));
    }
    if (depth.belowLimit()) {
      Assignment a = src.assignmentBefore(src.tok(from).text(), from);
      if (a != null && a.from() < from && a.element() < 0) {
        return depth.deeper(() -> openedFile(new int[] {a.from(), a.to()}));
      }
    }
    return Optional.empty();
  }


  private List<Part> expandUser(List<Part> v) {
    return ValueParts.expandUser(v, judge.context().home().toString());
  }

  private static List<Part> parent(List<Part> v) {
    return ValueParts.parent(v, unknown("parent", false));
  }
}
