package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.NestedCode;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.Place;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.rules.Databases;
import io.interpreter4j.core.safety.rules.RemoteSystems;
import io.interpreter4j.core.safety.rules.SecretNames;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.T;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import io.interpreter4j.core.safety.script.ScriptSource.Binding;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import io.interpreter4j.core.safety.shell.ShellWords;
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
 * {@link ScriptSource} reads the block, {@link ScriptValues} evaluates its expressions, {@link ScriptApis} says what
 * each library call does.
 */
public final class ScriptAnalyzer {

  private static final Set<String> DESTRUCTIVE_METHOD_PREFIXES = Set.of(
      "delete", "remove", "destroy", "drop", "flush", "truncate", "purge", "terminate", "empty", "del", "unlink",
      "wipe", "erase");
  private static final Set<String> OWN_PIDS = Set.of(
      "process.pid", "Process.pid", "Sys.getpid", "$$", "process.ppid");

  private final Dialect dialect;
  private final PathJudge judge;
  private final Findings findings;
  private final int depth;
  private final NestedCode nested;
  private final ShellEffects shell;
  private final boolean venv;
  private Path cwd;
  private ScriptSource src;
  private ScriptValues values;
  private final Map<Long, Boolean> rooted = new HashMap<>();
  private final Map<Long, Boolean> fetched = new HashMap<>();

  /** The analysis of one JavaScript, Ruby or R program; {@code nested} analyses the shell commands and other programs it runs. */
  public ScriptAnalyzer(Dialect dialect, PathJudge judge, Findings findings, NestedCode nested, int depth, Path cwd,
                        boolean venv) {
    this.dialect = dialect;
    this.judge = judge;
    this.findings = findings;
    this.nested = nested;
    this.depth = depth;
    this.cwd = cwd;
    this.venv = venv;
    this.shell = nested.shell(depth + 1, cwd, venv);
  }

  public void analyze(String code) {
    if (depth > Findings.MAX_DEPTH) {
      findings.add(Flag.high("nesting-too-deep", "nests shells too deeply to check"));
      return;
    }
    src = new ScriptSource(code, dialect);
    values = new ScriptValues(src, judge, findings, cwd);
    scan();
  }

  private void scan() {
    for (int k = 0; k < src.size(); k++) {
      Tok t = src.tok(k);
      if (t.kind() == T.SHELL) {
        runShell(values.stringParts(t, k));
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
        if (src.isSeparator(t) && k + 1 < src.size() && src.tok(k + 1).kind() == T.NAME && k > 0
            && (src.tok(k - 1).is(")") || src.tok(k - 1).is("]"))) {
          chainAfterCall(k);
        }
        continue;
      }
      if (k > 0 && src.isSeparator(src.tok(k - 1))) {
        continue;
      }
      String dotted = src.dotted(k);
      int after = src.dottedEnd(k);
      String name = src.canonical(dotted);
      environment(name, dotted, k, after);
      boolean constructor = k > 0 && src.tok(k - 1).is("new");
      if (after < src.size() && src.tok(after).is("(")) {
        int close = src.matching(after);
        call(name, dotted, k, after + 1, close, constructor);
      } else if (dialect == Dialect.RUBY && after < src.size() && startsArgument(src.tok(after)) && src.api(name) != null
          && (k == 0 || !src.tok(k - 1).is("def"))) {
        call(name, dotted, k, after, src.endOfStatement(after), false);
      } else if (dialect == Dialect.RUBY && dotted.indexOf('.') > 0 && src.api(name) == null) {
        // Ruby calls methods without parentheses: r.flushall, bucket.delete
        method(dotted.substring(dotted.lastIndexOf('.') + 1), k, after - 2, after);
      }
    }
  }

  /**
   * {@code require('child_process').execSync(...)}: a call on a module loaded in place is that module's function;
   * any other {@code f(...).method(...)} is a method of whatever f returned.
   */
  private void chainAfterCall(int dot) {
    int receiver = src.receiverStart(dot);
    String rest = src.dotted(dot + 1);
    int after = src.dottedEnd(dot + 1);
    boolean called = after < src.size() && src.tok(after).is("(");
    if (src.tok(receiver).is("require") && receiver + 4 == dot && src.tok(receiver + 2).kind() == T.STRING) {
      String name = src.module(src.tok(receiver + 2).text()) + "." + rest;
      environment(name, name, dot + 1, after);
      if (called) {
        call(src.canonical(name), name, dot + 1, after + 1, src.matching(after), false);
      }
      return;
    }
    if (called || dialect == Dialect.RUBY) {
      method(rest.substring(rest.lastIndexOf('.') + 1), receiver, after - 2, after);
    }
  }

  private static boolean startsArgument(Tok t) {
    return t.kind() == T.STRING || t.kind() == T.SHELL || t.kind() == T.NAME && !t.is("do") && !t.is("if")
        && !t.is("unless") && !t.is("rescue") && !t.is("and") && !t.is("or") && !t.is("then") || t.is("[");
  }

  private int[] argument(List<int[]> args, Map<String, int[]> kw, Api api) {
    if (api.keyword() != null && kw.containsKey(api.keyword())) {
      return kw.get(api.keyword());
    }
    return api.pathArg() >= 0 && api.pathArg() < args.size() ? args.get(api.pathArg()) : null;
  }

  private void call(String name, String dotted, int at, int from, int to, boolean constructor) {
    Api api = src.api(name);
    if (api == null && name.indexOf('.') > 0) {
      int dot = dotted.lastIndexOf('.');
      method(dotted.substring(dot + 1), at, from - 3, from - 1);
      return;
    }
    if (api == null) {
      return;
    }
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(from, to, kw);
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
        boolean recursive = values.isTrue(kw.get("recursive"));
        paths(args, kw, api).forEach(recursive ? shell::recursiveDelete : shell::delete);
      }
      case WRITE -> {
        boolean append = values.isTrue(kw.get("append")) || modeAppends(kw.get("mode")) || modeAppends(kw.get("flag"));
        paths(args, kw, api).forEach(w -> shell.write(w, append));
        writesFetched(args, kw, arg, paths(args, kw, api));
      }
      case APPEND -> {
        paths(args, kw, api).forEach(w -> shell.write(w, true));
        writesFetched(args, kw, arg, paths(args, kw, api));
      }
      case OPEN -> {
        int[] mode = api.second() >= 0 && api.second() < args.size() ? args.get(api.second())
            : kw.containsKey("flag") ? kw.get("flag") : kw.containsKey("mode") ? kw.get("mode") : kw.get("open");
        String m = mode == null ? (dialect == Dialect.JAVASCRIPT && name.contains("write") ? "w" : "r") : values.literalOf(mode);
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
        if (m == null || m.contains("w") || m.contains("a") || m.contains("x")) {
          writesFetched(args, kw, arg, paths(args, kw, api));
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
          if (src != null && fetchesFromNetwork(src[0], src[1], 0)) {
            shell.downloaded(d);
          }
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
        String m = mode == null ? null : values.modeText(mode);
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
          values.cwd(cwd);
        }
      }
      case MKDIR -> paths(args, kw, api).forEach(shell::created);
      case LOAD -> loads(name, arg);
      case LINK -> {
        int[] dst = api.second() < args.size() ? args.get(api.second()) : kw.get("to");
        Word target = arg == null ? null : pathWord(arg);
        Word link = dst == null ? null : pathWord(dst);
        if (target != null && link != null) {
          if (name.endsWith("ln_sf")) {
            shell.write(link, false);
          }
          shell.linked(target, link, false);
        }
      }
      case EXTRACT -> {
        int[] dir = api.keyword() != null && kw.containsKey(api.keyword()) ? kw.get(api.keyword())
            : name.startsWith("tar.") && kw.containsKey("C") ? kw.get("C")
            : api.pathArg() >= 0 && api.pathArg() < args.size() ? args.get(api.pathArg()) : null;
        Word w = dir == null ? null : pathWord(dir);
        if (w != null) {
          shell.extractInto(w, dotted);
        }
      }
      case DESERIALIZE -> {
        if (arg != null && fetchesFromNetwork(arg[0], arg[1], 0)) {
          findings.add(Flag.high("run-downloaded", "loads data from the network that can run code as it loads (" + dotted + ")"));
        }
      }
      case EVAL -> evaluates(name, args, kw, from, to);
      case SOURCE -> source(arg);
      case SOURCE_REMOTE -> findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + dotted + ")"));
      case NETWORK -> {
        findings.network();
        findings.facts().fetched(dotted);
        if (name.endsWith("download.file") && args.size() > 1) {
          pathWords(args.get(1)).forEach(w -> {
            shell.write(w, false);
            shell.downloaded(w);
          });
        }
        httpDelete(name, args, kw);
      }
      case SOCKET -> {
        findings.network();
        findings.facts().rawSocket(dotted);
      }
      case DNS -> {
        if (arg != null && values.literalOf(arg) == null) {
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
    String root = receiverFrom >= 0 && receiverFrom < src.size() ? src.tok(receiverFrom).text() : "";
    if (isDestructiveMethod(name) && rootedIn(receiverFrom, Set.of(Kind.REMOTE_CLIENT, Kind.CLOUD_CLIENT), 0)) {
      findings.facts().destructiveData(name + "()");
    }
    if ((name.equals("kill") || name.equals("terminate") || name.equals("send_signal") || name.equals("signal"))
        && rootedIn(receiverFrom, Set.of(Kind.PROCESS_LIST), 0)) {
      findings.facts().foreignSignal(root + "." + name + "()");
    }
    if (dialect == Dialect.RUBY && PATHNAME_METHODS.contains(name) && dot > receiverFrom && mentionsPathname(receiverFrom, dot, 0)) {
      pathnameMethod(name, receiverFrom, dot, parenOpen);
    }
  }

  private static final Set<String> PATHNAME_METHODS = Set.of(
      "rmtree", "rmdir", "delete", "unlink", "write", "binwrite", "chmod", "rename");

  /** Ruby's Pathname: {@code Pathname.new(Dir.home).rmtree}, {@code path.write(x)} act on the path they hold. */
  private void pathnameMethod(String name, int receiverFrom, int dot, int paren) {
    List<Part> v = values.eval(receiverFrom, dot);
    if (v == null) {
      return;
    }
    Word w = toWord(v);
    switch (name) {
      case "rmtree" -> shell.recursiveDelete(w);
      case "rmdir", "delete", "unlink" -> shell.delete(w);
      case "write", "binwrite" -> shell.write(w, false);
      case "chmod" -> {
        boolean called = paren < src.size() && src.tok(paren).is("(");
        int[] mode = called ? new int[] {paren + 1, src.matching(paren)} : null;
        shell.permissions(w, "chmod", mode == null ? null : values.modeText(mode));
      }
      default -> {
        // rename: the destination is judged where the block names it
      }
    }
  }

  /** Whether an expression is a Pathname: built with Pathname.new or Pathname(), or from a name bound to one. */
  private boolean mentionsPathname(int from, int to, int level) {
    if (level > ScriptValues.MAX_EVAL_DEPTH) {
      return false;
    }
    for (int j = from; j < to && j < src.size(); j++) {
      Tok t = src.tok(j);
      if (t.is("Pathname")) {
        return true;
      }
      if (t.kind() == T.NAME && (j == from || !src.isSeparator(src.tok(j - 1)))) {
        Binding b = src.bindingBefore(t.text(), j);
        if (b != null && b.from() < from && mentionsPathname(b.from(), b.to(), level + 1)) {
          return true;
        }
      }
    }
    return false;
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
    if (from < 0 || from >= src.size() || level > ScriptValues.MAX_EVAL_DEPTH) {
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
    Tok t = src.tok(from);
    if (t.kind() != T.NAME) {
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
      if (x.kind() == T.NAME && (j == b.from() || !src.isSeparator(src.tok(j - 1)))) {
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
    if (level > ScriptValues.MAX_EVAL_DEPTH) {
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
    for (int j = from; j < to && j < src.size(); j++) {
      Tok x = src.tok(j);
      if (x.kind() != T.NAME || j > from && src.isSeparator(src.tok(j - 1))) {
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

  private static final Set<String> ENV_DUMPS = Set.of(
      "each", "to_h", "to_a", "map", "inspect", "select", "reject", "each_pair", "sort", "filter_map", "values",
      "each_with_object", "to_hash", "dup", "clone", "entries", "assign", "stringify");

  /** Reading the environment: a secret-named variable is noted; the whole environment handed on is a dump. */
  private void environment(String name, String dotted, int k, int after) {
    Tok next = after < src.size() ? src.tok(after) : null;
    String whole = dialect == Dialect.JAVASCRIPT ? "process.env" : dialect == Dialect.RUBY ? "ENV" : null;
    if (whole != null && name.equals(whole)) {
      if (next != null && next.is("[") && after + 1 < src.size() && src.tok(after + 1).kind() == T.STRING) {
        secretName(src.tok(after + 1).text());
      } else if (isWholeValue(k, next)) {
        findings.environmentRead();
      }
    } else if (whole != null && name.startsWith(whole + ".")) {
      String member = name.substring(whole.length() + 1);
      int dot = member.indexOf('.');
      member = dot < 0 ? member : member.substring(0, dot);
      if (ENV_DUMPS.contains(member)) {
        findings.environmentRead();
      } else if (member.equals("fetch") && next != null && next.is("(") && after + 1 < src.size()
          && src.tok(after + 1).kind() == T.STRING) {
        secretName(src.tok(after + 1).text());
      } else {
        secretName(member);
      }
    } else if (dialect == Dialect.JAVASCRIPT && (name.equals("Object.entries")
        || name.equals("JSON.stringify") || name.equals("Object.values")) && next != null && next.is("(")
        && after + 2 < src.size() && src.canonical(src.dotted(after + 1)).equals("process.env")) {
      findings.environmentRead();
    }
    if (dialect == Dialect.R && (name.equals("Sys.getenv") || name.equals("base.Sys.getenv")) && next != null
        && next.is("(") && after + 1 < src.size()) {
      if (src.tok(after + 1).is(")")) {
        findings.environmentRead();
      } else if (src.tok(after + 1).kind() == T.STRING) {
        secretName(src.tok(after + 1).text());
      }
    }
  }

  /** process.env or ENV handed over whole (logged, sent, serialised), not spread into a child's environment. */
  private boolean isWholeValue(int k, Tok next) {
    if (k > 0 && src.tok(k - 1).is("...")) {
      return false;
    }
    if (next != null && (next.is(".") || next.is("[") || next.is("?."))) {
      return false;
    }
    int o = src.open(k);
    while (o >= 0) {
      if (src.tok(o).is("(") && o > 0 && src.tok(o - 1).kind() == T.NAME) {
        Api a = src.api(src.canonical(src.dotted(src.nameStart(o - 1))));
        if (a != null && (a.kind() == Kind.ARGV || a.kind() == Kind.SHELL || a.kind() == Kind.SPAWN)) {
          return false;
        }
        if (o >= 2 && src.isSeparator(src.tok(o - 2)) && (src.tok(o - 1).is("env") || src.tok(o - 1).is("keys"))) {
          return false;
        }
      }
      o = src.open(o);
    }
    return true;
  }

  private void secretName(String name) {
    if (SecretNames.isSecret(name)) {
      findings.facts().secretVariable(name);
    }
  }

  /** fetch(url, {method: 'DELETE'}), axios.delete(url), httr::DELETE(url), VERB("DELETE", url), HTTParty.delete(url). */
  private void httpDelete(String name, List<int[]> args, Map<String, int[]> kw) {
    String last = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    int[] url = null;
    if (last.equals("delete") || name.endsWith("Delete.new")) {
      url = args.isEmpty() ? null : args.get(0);
    } else if (last.equals("verb") && args.size() > 1 && "DELETE".equalsIgnoreCase(values.literalOf(args.get(0)))) {
      url = args.get(1);
    } else if (kw.containsKey("method") && "DELETE".equalsIgnoreCase(values.literalOf(kw.get("method")))) {
      url = args.isEmpty() ? kw.get("url") : args.get(0);
    }
    if (url != null) {
      findings.add(RemoteSystems.httpDelete(values.literalOf(url), name));
    }
  }

  private void kill(int[] arg, String how) {
    if (arg == null) {
      return;
    }
    if (arg[1] - arg[0] == 2 && src.tok(arg[0]).is("-") && src.tok(arg[0] + 1).text().equals("1")) {
      findings.add(Flag.high("kill-all", "kills every process you own (" + how + "(-1))"));
      return;
    }
    if (arg[1] - arg[0] == 1 && src.tok(arg[0]).kind() == T.NUMBER) {
      if (src.tok(arg[0]).text().equals("1")) {
        findings.add(Flag.high("kill-all", "signals init, process 1 (" + how + "(1))"));
      }
      return;
    }
    for (int j = arg[0]; j < arg[1]; j++) {
      Tok t = src.tok(j);
      if (t.kind() == T.NAME && OWN_PIDS.contains(src.canonical(src.dotted(j)))) {
        return;
      }
    }
    int root = arg[0];
    while (root < arg[1] && src.tok(root).kind() != T.NAME) {
      root++;
    }
    if (root < arg[1] && (src.tok(root).is("Number") || src.tok(root).is("parseInt") || src.tok(root).is("Integer")
        || src.tok(root).is("as.integer")) && root + 2 < arg[1]) {
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
        String v = values.literalOf(kw.get(key));
        if (v != null) {
          host = v.contains("://") ? Databases.hostOfUrl(v) : v;
        }
      }
    }
    if (host == null) {
      for (int[] a : args) {
        String v = values.literalOf(a);
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
    if (dialect == Dialect.R && code != null && src.tok(code[0]).is("parse")) {
      Map<String, int[]> inner = new HashMap<>();
      int paren = code[0] + 1;
      List<int[]> innerArgs = src.arguments(paren + 1, src.matching(paren), inner);
      code = inner.containsKey("text") ? inner.get("text") : inner.containsKey("file") ? null : innerArgs.isEmpty() ? null : innerArgs.get(0);
    }
    if (code == null) {
      return;
    }
    String literal = values.literalOf(code);
    if (literal != null) {
      new ScriptAnalyzer(dialect, judge, findings, nested, depth + 1, cwd, venv).analyze(literal);
      return;
    }
    if (fetchesFromNetwork(code[0], code[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + name + ")"));
      return;
    }
    findings.facts().computedCode(name + "(" + src.exprName(code[0], code[1]) + ")");
  }

  /** A file written with content fetched from the network: running or loading it later runs downloaded code. */
  private void writesFetched(List<int[]> args, Map<String, int[]> kw, int[] pathArg, List<Word> files) {
    if (files.isEmpty()) {
      return;
    }
    boolean fetchedContent = false;
    for (int[] a : args) {
      if (a != pathArg && fetchesFromNetwork(a[0], a[1], 0)) {
        fetchedContent = true;
      }
    }
    for (Map.Entry<String, int[]> e : kw.entrySet()) {
      if (e.getValue() != pathArg && (e.getKey().equals("text") || e.getKey().equals("x") || e.getKey().equals("data"))
          && fetchesFromNetwork(e.getValue()[0], e.getValue()[1], 0)) {
        fetchedContent = true;
      }
    }
    if (fetchedContent) {
      files.forEach(shell::downloaded);
    }
  }

  /**
   * require(path), import(path), Ruby's load / require_relative: a file the block downloaded runs downloaded code; one
   * it wrote is analysed. Package names ({@code require('fs')}, {@code require 'json'}) are libraries, not judged.
   */
  private void loads(String name, int[] arg) {
    if (arg == null) {
      return;
    }
    List<Part> v = values.eval(arg[0], arg[1]);
    if (v == null) {
      return;
    }
    Word w = toWord(v);
    String literal = w.literal();
    boolean file = literal == null || literal.startsWith("/") || literal.startsWith("./") || literal.startsWith("../")
        || name.endsWith("load") || name.equals("require_relative");
    if (!file) {
      return;
    }
    if (literal != null && (literal.startsWith("http://") || literal.startsWith("https://"))) {
      findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + name + " " + abbreviate(literal) + ")"));
      return;
    }
    Word path = dialect == Dialect.RUBY && literal != null && !literal.endsWith(".rb") && !name.endsWith("load")
        ? toWord(List.of(ScriptValues.text(literal + ".rb"))) : w;
    if (shell.isDownloaded(path) || shell.isDownloaded(w)) {
      findings.add(Flag.high("run-downloaded", "runs a file downloaded in the same block (" + name + ")"));
      return;
    }
    String content = shell.writtenContent(path);
    if (content != null) {
      new ScriptAnalyzer(dialect, judge, findings, nested, depth + 1, cwd, venv).analyze(content);
    }
  }

  private void source(int[] arg) {
    if (arg == null) {
      return;
    }
    Word w = pathWord(arg);
    String text = w == null ? "" : w.text();
    if (text.startsWith("http://") || text.startsWith("https://") || src.tok(arg[0]).is("url")
        || fetchesFromNetwork(arg[0], arg[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs an R script from the network (source " + abbreviate(text) + ")"));
      return;
    }
    if (w != null && shell.isDownloaded(w)) {
      findings.add(Flag.high("run-downloaded", "runs an R script downloaded in the same block (source " + abbreviate(text) + ")"));
      return;
    }
    if (w != null) {
      String content = shell.writtenContent(w);
      if (content != null) {
        new ScriptAnalyzer(dialect, judge, findings, nested, depth + 1, cwd, venv).analyze(content);
      }
    }
  }

  private void shellString(int[] arg) {
    List<Part> v = values.eval(arg[0], arg[1]);
    if (v == null) {
      findings.facts().computedCode("shell command " + src.exprName(arg[0], arg[1]));
      return;
    }
    if (fetchesFromNetwork(arg[0], arg[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs a command fetched from the network"));
    }
    runShell(v);
  }

  private void argv(List<int[]> args, Map<String, int[]> kw, String name) {
    List<int[]> rest = new ArrayList<>(args);
    if (!rest.isEmpty() && src.tok(rest.get(0)[0]).is("{")) {
      rest.remove(0); // Ruby's leading environment hash
    }
    if (rest.isEmpty()) {
      return;
    }
    String program = interpreterOf(rest);
    if (program != null) {
      boolean fetchedCode = false;
      for (int[] a : rest.subList(1, rest.size())) {
        fetchedCode |= fetchesFromNetwork(a[0], a[1], 0);
      }
      for (String key : List.of("stdin_data", "input")) {
        fetchedCode |= kw.containsKey(key) && fetchesFromNetwork(kw.get(key)[0], kw.get(key)[1], 0);
      }
      if (fetchedCode) {
        findings.add(Flag.high("run-downloaded", "runs code fetched from the network (" + name + " " + program + ")"));
      }
    }
    boolean shellOption = values.isTrue(kw.get("shell"));
    List<List<Part>> words = new ArrayList<>();
    for (int[] a : rest) {
      List<List<Part>> list = values.evalList(a[0], a[1]);
      if (list != null) {
        words.addAll(list);
      } else if (!src.tok(a[0]).is("{")) {
        words.add(values.eval(a[0], a[1]));
      }
    }
    if (words.size() == 1 || shellOption) {
      List<Part> joined = new ArrayList<>();
      for (List<Part> w : words) {
        if (!joined.isEmpty()) {
          joined.add(ScriptValues.text(" "));
        }
        joined.addAll(w == null ? List.of(ScriptValues.unknown("arg")) : w);
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

  /** The interpreter an argv starts ("bash", "python3"), also behind sudo or env, or null. */
  private String interpreterOf(List<int[]> argv) {
    List<String> words = new ArrayList<>();
    for (int[] a : argv) {
      List<List<Part>> list = values.evalList(a[0], a[1]);
      if (list != null) {
        for (List<Part> w : list) {
          words.add(w == null ? null : new Word(w, "").literal());
        }
      } else {
        words.add(values.literalOf(a));
      }
      if (words.size() >= 4) {
        break;
      }
    }
    for (String w : words) {
      if (w != null && ShellWords.isInterpreter(w.strip())) {
        return w.strip();
      }
      if (w == null || !(w.equals("sudo") || w.equals("env") || w.startsWith("-"))) {
        return null;
      }
    }
    return null;
  }

  /** R's system2(command, args): the pieces are pasted into one shell line. */
  private void system2(List<int[]> args, Map<String, int[]> kw) {
    int[] command = kw.containsKey("command") ? kw.get("command") : args.isEmpty() ? null : args.get(0);
    int[] rest = kw.containsKey("args") ? kw.get("args") : args.size() > 1 ? args.get(1) : null;
    if (command == null) {
      return;
    }
    List<Part> line = new ArrayList<>();
    List<Part> c = values.eval(command[0], command[1]);
    line.addAll(c == null ? List.of(ScriptValues.unknown("command")) : c);
    if (rest != null) {
      List<List<Part>> list = values.evalList(rest[0], rest[1]);
      if (list == null) {
        List<Part> one = values.eval(rest[0], rest[1]);
        list = one == null ? List.of() : List.of(one);
      }
      for (List<Part> w : list) {
        line.add(ScriptValues.text(" "));
        line.addAll(w == null ? List.of(ScriptValues.unknown("arg")) : w);
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

  private List<Word> paths(List<int[]> args, Map<String, int[]> kw, Api api) {
    int[] a = argument(args, kw, api);
    return a == null ? List.of() : pathWords(a);
  }

  /** The path words of an argument: one, or each element of a list ({@code c(...)}, {@code [...]}, a glob's matches). */
  private List<Word> pathWords(int[] a) {
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

  private Word pathWord(int[] a) {
    List<Part> v = values.eval(a[0], a[1]);
    return v == null ? null : toWord(v);
  }

  /** R expands a leading ~ in every file function; JavaScript and Ruby do not. */
  private Word toWord(List<Part> v) {
    List<Part> parts = v;
    if (dialect == Dialect.R && !v.isEmpty() && v.get(0).kind() == PartKind.TEXT) {
      parts = values.expandUser(v);
    }
    return new Word(parts, "");
  }

  private boolean modeAppends(int[] a) {
    String m = a == null ? null : values.literalOf(a);
    return m != null && m.startsWith("a");
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }
}
