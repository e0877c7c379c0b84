package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.abbreviate;
import static io.interpreter4j.core.safety.bash.BashArgs.operands;

import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.shell.ShellLexer;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import io.interpreter4j.core.safety.shell.ShellValues;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a bash block knows at a point of its run: the current folder ({@code cd}, {@code pushd}), the variables it
 * assigned, the files it downloaded, the pids of processes it started, whether a virtualenv is active; and the values
 * and paths its words stand for there, so that {@code rm -rf "$OUT/build"} is judged by where that really is.
 */
final class BashScope {

  private static final char GLOB_STAR = '\uE000';
  private static final char GLOB_QUESTION = '\uE001';
  private static final char GLOB_BRACKET = '\uE002';

  /** A word's path after expansion: known, or what it becomes if its unknown variables are empty. */
  record Resolved(Target target, Target ifEmpty, String unknown, String relativeToUnknownCwd) {}

  private final PathJudge judge;
  private Path cwd;
  private final Deque<Path> dirStack = new ArrayDeque<>();
  private final Map<String, String> vars;
  private final Set<Path> downloaded;
  /** Variables holding the pid of a process the block started ({@code PID=$!}). */
  private final Set<String> ownPids = new HashSet<>();
  private boolean venvActive;

  BashScope(PathJudge judge, Path cwd, boolean venvActive) {
    this(judge, cwd, venvActive, new HashMap<>(), new HashSet<>());
  }

  private BashScope(PathJudge judge, Path cwd, boolean venvActive, Map<String, String> vars, Set<Path> downloaded) {
    this.judge = judge;
    this.cwd = cwd;
    this.venvActive = venvActive;
    this.vars = vars;
    this.downloaded = downloaded;
  }

  /** The scope of code the block runs in a subshell or function: its own copy of the variables, the same downloads. */
  BashScope child() {
    return new BashScope(judge, cwd, venvActive, new HashMap<>(vars), downloaded);
  }

  Path cwd() {
    return cwd;
  }

  boolean venvActive() {
    return venvActive;
  }

  void activateVenv() {
    venvActive = true;
  }

  boolean isSet(String name) {
    return vars.containsKey(name);
  }

  /** Sets a variable; a null value (not known in the block) unsets it. */
  void set(String name, String value) {
    if (value == null) {
      vars.remove(name);
    } else {
      vars.put(name, value);
    }
  }

  /** Notes whether a variable holds the pid of a process the block started. */
  void ownPid(String name, boolean own) {
    if (own) {
      ownPids.add(name);
    } else {
      ownPids.remove(name);
    }
  }

  boolean isOwnPid(String name) {
    return ownPids.contains(name);
  }

  void addDownloaded(Path file) {
    downloaded.add(file);
  }

  boolean isDownloaded(Path file) {
    return downloaded.contains(file);
  }

  /** {@code popd}: back to the folder the last {@code pushd} left, or unknown. */
  void popDirectory() {
    cwd = dirStack.isEmpty() ? null : dirStack.pop();
  }

  /** A word's value as a string when it is known in this block, else null. */
  String valueOf(Word w) {
    StringBuilder sb = new StringBuilder();
    List<Part> parts = w.parts();
    for (int k = 0; k < parts.size(); k++) {
      Part p = parts.get(k);
      switch (p.kind()) {
        case TEXT -> sb.append(k == 0 ? expandTilde(p) : p.text());
        case VAR -> {
          String v = variable(p);
          if (v == null) {
            return null;
          }
          sb.append(v);
        }
        case SUBST -> {
          String v = substitution(p.text());
          if (v == null) {
            return null;
          }
          sb.append(v);
        }
      }
    }
    return sb.toString();
  }

  /** A command word's value: literal, or built from variables and substitutions known in the block. */
  String nameOf(Word w) {
    String lit = w.literal();
    if (lit != null) {
      return lit;
    }
    String v = valueOf(w);
    return v == null || v.isEmpty() || v.indexOf(' ') >= 0 ? null : v;
  }

  private String expandTilde(Part p) {
    String t = p.text();
    if (!p.quoted() && t.startsWith("~")) {
      if (t.length() == 1 || t.charAt(1) == '/') {
        return judge.context().home() + t.substring(1);
      }
      Path parent = judge.context().home().getParent();
      return (parent == null ? "/" : parent.toString()) + "/" + t.substring(1);
    }
    return t;
  }

  /** A variable's value, or its default ({@code ${OUT_DIR:-$HOME}}) when the block does not set it. */
  private String variable(Part p) {
    String v = variable(p.text());
    if (v == null && p.fallback() != null && p.fallback().length() < 500) {
      v = valueOf(ShellLexer.word(p.fallback()));
    }
    return v;
  }

  private String variable(String name) {
    if (vars.containsKey(name)) {
      return vars.get(name);
    }
    return switch (name) {
      case "HOME" -> judge.context().home().toString();
      case "PWD" -> cwd == null ? null : cwd.toString();
      default -> name.startsWith("((") ? "0" : null;
    };
  }

  private String substitution(String code) {
    String c = code.strip();
    if (isMktemp(c)) {
      Path p = judge.newTempDirectory();
      judge.created(p);
      return p.toString();
    }
    if (c.equals("pwd")) {
      return cwd == null ? null : cwd.toString();
    }
    return ShellValues.evaluate(c, this::valueOf, cwd, judge.context().home());
  }

  static boolean isMktemp(String code) {
    String c = code.strip();
    return c.equals("mktemp") || c.startsWith("mktemp ");
  }

  Resolved resolve(Word w) {
    StringBuilder known = new StringBuilder();
    StringBuilder ifEmpty = new StringBuilder();
    String unknown = null;
    boolean emptyPossible = true;
    List<Part> parts = w.parts();
    for (int k = 0; k < parts.size(); k++) {
      Part p = parts.get(k);
      switch (p.kind()) {
        case TEXT -> {
          String t = k == 0 ? expandTilde(p) : p.text();
          if (!p.quoted()) {
            t = t.replace('*', GLOB_STAR).replace('?', GLOB_QUESTION).replace('[', GLOB_BRACKET);
          }
          known.append(t);
          ifEmpty.append(t);
        }
        case VAR, SUBST -> {
          String v = p.kind() == PartKind.VAR ? variable(p) : substitution(p.text());
          if (v != null) {
            known.append(v);
            ifEmpty.append(v);
          } else {
            if (unknown == null) {
              unknown = p.kind() == PartKind.VAR ? "$" + p.text() : "$(" + abbreviate(p.text()) + ")";
            }
            if (!p.mayBeEmpty()) {
              emptyPossible = false;
            }
          }
        }
      }
    }
    if (unknown == null) {
      String s = known.toString();
      if (!s.startsWith("/") && cwd == null && !s.isEmpty()) {
        return new Resolved(null, null, null, restoreGlobs(s));
      }
      return new Resolved(toTarget(s), null, null, null);
    }
    Target empty = null;
    String relative = null;
    if (emptyPossible) {
      String s = ifEmpty.toString();
      if (!s.startsWith("/") && cwd == null && !s.isEmpty()) {
        relative = restoreGlobs(s);
      } else {
        empty = toTarget(s);
      }
    }
    return new Resolved(null, empty, unknown, relative);
  }

  private static String restoreGlobs(String s) {
    return s.replace(GLOB_STAR, '*').replace(GLOB_QUESTION, '?').replace(GLOB_BRACKET, '[');
  }

  /** Splits at the first path component holding an active glob; null for an empty word. */
  private Target toTarget(String s) {
    if (s.isEmpty()) {
      return null;
    }
    boolean absolute = s.startsWith("/");
    String[] comps = s.split("/");
    StringBuilder base = new StringBuilder(absolute ? "/" : "");
    String glob = null;
    for (int k = 0; k < comps.length; k++) {
      String comp = comps[k];
      if (comp.indexOf(GLOB_STAR) >= 0 || comp.indexOf(GLOB_QUESTION) >= 0 || comp.indexOf(GLOB_BRACKET) >= 0) {
        glob = restoreGlobs(String.join("/", java.util.Arrays.copyOfRange(comps, k, comps.length)));
        break;
      }
      if (comp.isEmpty()) {
        continue;
      }
      if (base.length() > 0 && base.charAt(base.length() - 1) != '/') {
        base.append('/');
      }
      base.append(comp);
    }
    try {
      Path p = absolute ? Path.of(base.toString()) : cwd.resolve(base.toString());
      return new Target(p.toAbsolutePath().normalize(), glob);
    } catch (InvalidPathException e) {
      return null;
    }
  }

  Target target(Word w) {
    return resolve(w).target();
  }

  /** Where an access to {@code t} lands once the links the block made are followed. */
  Target through(Target t) {
    return t == null ? null : new Target(judge.throughLinks(t.path()), t.glob());
  }

  /** The folder a path names, resolved in the block, or null. */
  Path pathOf(String text) {
    Target t = resolve(ShellLexer.word(text)).target();
    return t == null || t.glob() != null ? null : t.path();
  }

  /** The arguments as the rule families see them: values where the block knows them, else as written. */
  List<String> expanded(List<Word> args) {
    List<String> out = new ArrayList<>(args.size());
    for (Word w : args) {
      String v = w.literal() != null ? null : valueOf(w);
      out.add(w.literal() != null ? expandTilde(w) : v != null ? v : w.text());
    }
    return out;
  }

  String expandTilde(Word w) {
    Part first = w.parts().get(0);
    return w.parts().size() == 1 && first.kind() == PartKind.TEXT ? expandTilde(first) : w.literal();
  }

  /**
   * {@code for d in /* ~ build}: the loop variable takes the most dangerous of its values, globs standing for
   * any entry of their directory, so {@code rm -rf "$d"} in the body is judged by its worst case.
   */
  void loopVariable(String name, List<Word> values) {
    String worst = null;
    int worstRank = Integer.MAX_VALUE;
    for (Word w : values) {
      Resolved r = resolve(w);
      if (r.target() == null) {
        vars.remove(name);
        return;
      }
      Target t = r.target();
      int rank = judge.danger(t.path());
      if (rank < worstRank) {
        worstRank = rank;
        // the glob stays active (sentinel characters), so "$d" still means "each entry of the directory"
        String glob = t.glob() == null ? "" : "/" + t.glob().replace('*', GLOB_STAR).replace('?', GLOB_QUESTION);
        worst = t.path() + glob;
      }
    }
    if (worst != null) {
      vars.put(name, worst);
    }
  }

  /** {@code cd} or {@code pushd} ({@code name}): later relative paths resolve against the new folder, when known. */
  void changeDirectory(String name, List<Word> args) {
    Path before = cwd;
    List<Word> ops = operands(args, Set.of());
    if (ops.isEmpty()) {
      cwd = judge.context().home();
    } else {
      // "cd -", "cd $DIR" (empty DIR goes home) and globs leave the directory unknown
      Resolved r = ops.get(0).text().equals("-") ? null : resolve(ops.get(0));
      cwd = r != null && r.target() != null && r.target().glob() == null ? r.target().path() : null;
    }
    if (name.equals("pushd") && before != null) {
      dirStack.push(before);
    }
  }
}
