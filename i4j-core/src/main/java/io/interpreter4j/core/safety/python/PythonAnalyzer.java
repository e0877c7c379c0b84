package io.interpreter4j.core.safety.python;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.NestedCode;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.rules.Databases;
import io.interpreter4j.core.safety.rules.RemoteSystems;
import io.interpreter4j.core.safety.rules.SecretNames;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import io.interpreter4j.core.safety.shell.ShellWords;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds dangerous calls in a python block (and IPython {@code !cmd} / {@code %pip} lines): shell-outs with a
 * literal command are analysed as bash; deletions, writes and reads of paths built from literals,
 * {@code os.path.expanduser}, {@code Path.home()} and simple assignments are judged like their shell twins.
 * Only string literals that reach a call matter, so {@code print("rm -rf /")} is harmless.
 */
public final class PythonAnalyzer {

  private enum T { NAME, STRING, NUMBER, OP, NEWLINE }

  private record Tok(T kind, String text, int line, boolean fstring) {
    boolean is(String s) {
      return (kind == T.OP || kind == T.NAME) && text.equals(s);
    }
  }

  /** {@code name = expr} (element -1), or {@code for a, b in expr} (element = position of the name). */
  private record Assignment(int at, int from, int to, int element) {}

  private static final Set<String> SHELL_STRING = Set.of(
      "os.system", "os.popen", "os.popen2", "os.popen3", "subprocess.getoutput", "subprocess.getstatusoutput",
      "commands.getoutput", "commands.getstatusoutput", "asyncio.create_subprocess_shell", "pty.spawn");
  private static final Set<String> SHELL_ARGV_OR_STRING = Set.of(
      "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
      "sh.run");
  private static final Set<String> SHELL_VARARGS = Set.of(
      "asyncio.create_subprocess_exec", "os.execl", "os.execlp", "os.execle", "os.execlpe");
  private static final Set<String> SHELL_ARGV_SECOND = Set.of("os.execv", "os.execve", "os.execvp", "os.execvpe");
  private static final Set<String> OPEN = Set.of("open", "io.open", "codecs.open", "builtins.open");
  private static final Set<String> COPY = Set.of(
      "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "distutils.dir_util.copy_tree");
  private static final Set<String> MOVE = Set.of("shutil.move", "os.rename", "os.replace", "os.renames");
  private static final Set<String> REMOVE = Set.of("os.remove", "os.unlink", "os.removedirs");
  private static final Set<String> RECURSIVE_REMOVE = Set.of("shutil.rmtree", "distutils.dir_util.remove_tree");
  private static final Set<String> PERMISSIONS = Set.of("os.chmod", "os.chown", "os.lchown", "shutil.chown");
  private static final Set<String> EXEC = Set.of("exec", "eval", "builtins.exec", "builtins.eval");
  private static final List<String> NETWORK_PREFIXES = List.of(
      "requests.", "httpx.", "urllib.request.", "urllib3.", "http.client.", "socket.", "aiohttp.", "smtplib.",
      "ftplib.", "paramiko.", "websocket.", "websockets.", "pycurl.", "telnetlib.", "asyncssh.", "boto3.", "xmlrpc.client.");
  private static final Set<String> PATH_CONSTRUCTORS = Set.of(
      "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath", "os.path.abspath",
      "os.path.realpath", "os.path.normpath", "str", "os.fspath");
  private static final Set<String> IDENTITY_METHODS = Set.of("resolve", "absolute", "strip", "rstrip", "lstrip");
  private static final Pattern SHELL_ASSIGN = Pattern.compile("^\\s*[A-Za-z_][\\w, ]*=\\s*!(.*)$");
  private static final Set<String> WELL_KNOWN_MODULES = Set.of(
      "os", "shutil", "subprocess", "sys", "pathlib", "io", "codecs", "tempfile", "glob", "json", "requests", "socket",
      "urllib", "http", "asyncio", "pty", "distutils", "builtins");
  private static final Set<String> ITERATION_METHODS = Set.of("items", "values", "keys");
  /** Reading the whole environment through a method of os.environ. */
  private static final Set<String> ENVIRONMENT_DUMPS = Set.of(
      "os.environ.items", "os.environ.values", "os.environ.__repr__", "os.environ.__str__");
  /** Connections to databases and caches: remote when their host is. */
  private static final Set<String> DATA_CLIENTS = Set.of(
      "psycopg2.connect", "psycopg.connect", "pymysql.connect", "mysql.connector.connect", "MySQLdb.connect",
      "pymssql.connect", "cx_Oracle.connect", "oracledb.connect", "redis.Redis", "redis.StrictRedis", "redis.from_url",
      "redis.Redis.from_url", "pymongo.MongoClient", "motor.motor_asyncio.AsyncIOMotorClient", "sqlalchemy.create_engine",
      "clickhouse_driver.Client", "clickhouse_connect.get_client", "cassandra.cluster.Cluster",
      "elasticsearch.Elasticsearch", "asyncpg.connect", "asyncpg.create_pool", "aiomysql.connect", "pika.BlockingConnection",
      "psycopg2.pool.SimpleConnectionPool", "snowflake.connector.connect");
  /** Clients of services that are always on another machine. */
  private static final List<String> CLOUD_CLIENTS = List.of(
      "boto3.client", "boto3.resource", "boto3.Session", "boto3.session.Session", "github.Github", "gitlab.Gitlab",
      "google.cloud.", "azure.", "kubernetes.client.", "hvac.Client", "stripe.", "digitalocean.", "openstack.connect",
      "huggingface_hub.HfApi", "dropbox.Dropbox", "pygithub.Github");
  private static final List<String> DESTRUCTIVE_METHODS = List.of(
      "delete", "drop", "flush", "truncate", "purge", "terminate", "remove", "destroy", "empty", "wipe");
  private static final Set<String> RESOLVERS = Set.of(
      "socket.gethostbyname", "socket.gethostbyname_ex", "socket.getaddrinfo", "dns.resolver.resolve",
      "dns.resolver.query", "dns.resolver.Resolver", "socket.gethostbyaddr");
  private static final Set<String> HTTP_DELETES = Set.of(
      "requests.delete", "httpx.delete", "requests.request", "httpx.request", "requests.Session.delete");
  private static final Set<String> DOWNLOADS = Set.of(
      "urllib.request.urlretrieve", "wget.download", "urllib.urlretrieve");
  /**
   * Loaders whose input can hold code that runs while it loads (pickle's reduce, marshal'd code objects, unsafe YAML
   * tags): fed from the network, they run downloaded code like exec.
   */
  private static final Set<String> DESERIALIZERS = Set.of(
      "pickle.loads", "pickle.load", "cPickle.loads", "cPickle.load", "_pickle.loads", "_pickle.load", "dill.loads",
      "dill.load", "cloudpickle.loads", "cloudpickle.load", "joblib.load", "marshal.loads", "marshal.load",
      "yaml.load", "yaml.unsafe_load", "yaml.load_all", "yaml.unsafe_load_all", "jsonpickle.decode", "torch.load",
      "numpy.load", "pandas.read_pickle", "shelve.open", "pickle.Unpickler", "dill.Unpickler");
  /** Ways to run a python file: a downloaded one runs downloaded code. */
  private static final Set<String> RUN_FILE = Set.of(
      "runpy.run_path", "importlib.util.spec_from_file_location", "importlib.machinery.SourceFileLoader",
      "imp.load_source");
  private static final Set<String> LINKS = Set.of("os.symlink", "os.link");
  private static final Set<String> UNPACKS = Set.of("shutil.unpack_archive", "patoolib.extract_archive");
  private static final Set<String> PROCESS_LISTS = Set.of(
      "psutil.process_iter", "psutil.pids", "psutil.Process", "psutil.net_connections");
  private static final int MAX_EVAL_DEPTH = 12;

  private final PathJudge judge;
  private final Findings findings;
  private final int depth;
  private final NestedCode nested;
  private final ShellEffects shell;
  private final Path cwd;
  private final boolean shellVenv;
  private List<Tok> toks = List.of();
  private int[] lineIndent = new int[0];
  private final Map<String, String> aliases = new HashMap<>();
  private final List<String> starModules = new ArrayList<>();
  private final Map<String, List<Assignment>> assignments = new HashMap<>();
  private int evalDepth;
  private final List<String> shellCommands = new ArrayList<>();
  /** Answers of the recursive look-ups through assignments (fetched code, clients, process lists), per token. */
  private final Map<Long, Boolean> memo = new HashMap<>();

  /** The analysis of one python program; {@code nested} analyses the shell commands and other programs it runs. */
  public PythonAnalyzer(PathJudge judge, Findings findings, NestedCode nested, int depth, Path cwd, boolean venvActive) {
    this.shellVenv = venvActive;
    this.judge = judge;
    this.findings = findings;
    this.nested = nested;
    this.depth = depth;
    this.cwd = cwd;
    this.shell = nested.shell(depth + 1, cwd, venvActive);
  }

  public void analyze(String code) {
    if (depth > Findings.MAX_DEPTH) {
      findings.add(Flag.high("nesting-too-deep", "nests shells too deeply to check"));
      return;
    }
    String python = magics(code);
    if (python.isBlank()) {
      return;
    }
    toks = lex(python);
    lineIndent = indents(python);
    imports();
    collectAssignments();
    scan();
  }

  /** The shell command lines this block runs (literal shell-outs, {@code !cmd}, {@code %pip}), in order. */
  public List<String> shellCommands() {
    return List.copyOf(shellCommands);
  }

  private void runShell(String code) {
    shellCommands.add(code);
    shell.analyze(code);
  }

  // ---------------------------------------------------------------- IPython lines

  /** Runs {@code !cmd}, {@code %pip}, {@code %%bash} through the bash analyzer and blanks them for python. */
  private String magics(String code) {
    String[] lines = code.split("\n", -1);
    int first = 0;
    while (first < lines.length && lines[first].isBlank()) {
      first++;
    }
    if (first < lines.length) {
      String head = lines[first].strip();
      if (head.startsWith("%%bash") || head.startsWith("%%sh") || head.startsWith("%%script bash")
          || head.startsWith("%%script sh") || head.startsWith("%%system")) {
        runShell(String.join("\n", java.util.Arrays.copyOfRange(lines, first + 1, lines.length)));
        return "";
      }
      if (head.startsWith("%%writefile") || head.startsWith("%%html") || head.startsWith("%%javascript")
          || head.startsWith("%%markdown") || head.startsWith("%%latex")) {
        return "";
      }
      if (head.startsWith("%%")) {
        lines[first] = "";
      }
    }
    StringBuilder out = new StringBuilder(code.length());
    for (String line : lines) {
      String s = line.strip();
      if (s.startsWith("!")) {
        runShell(s.substring(1));
        line = "";
      } else if (s.startsWith("%")) {
        int sp = s.indexOf(' ');
        String magic = sp < 0 ? s : s.substring(0, sp);
        String rest = sp < 0 ? "" : s.substring(sp + 1);
        switch (magic) {
          case "%pip" -> runShell("pip " + rest);
          case "%conda", "%mamba" -> runShell("conda " + rest);
          case "%system", "%sx", "%sh", "%bash" -> runShell(rest);
          case "%cd" -> runShell("cd " + rest);
          default -> {
            // other line magics (%time, %matplotlib, ...) run no shell
          }
        }
        line = "";
      } else if (s.indexOf('!') > 0) {
        Matcher m = SHELL_ASSIGN.matcher(line);
        if (m.matches()) {
          runShell(m.group(1));
          line = "";
        }
      }
      out.append(line).append('\n');
    }
    return out.toString();
  }

  // ---------------------------------------------------------------- lexer

  private static int[] indents(String s) {
    String[] lines = s.split("\n", -1);
    int[] out = new int[lines.length + 1];
    for (int k = 0; k < lines.length; k++) {
      String l = lines[k];
      int n = 0;
      while (n < l.length() && (l.charAt(n) == ' ' || l.charAt(n) == '\t')) {
        n++;
      }
      out[k] = n;
    }
    return out;
  }

  private static List<Tok> lex(String s) {
    List<Tok> out = new ArrayList<>();
    int n = s.length();
    int i = 0;
    int depth = 0;
    int line = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (c == '\n') {
        if (depth == 0 && !out.isEmpty() && out.get(out.size() - 1).kind() != T.NEWLINE) {
          out.add(new Tok(T.NEWLINE, "\n", line, false));
        }
        line++;
        i++;
      } else if (c == '\\' && i + 1 < n && s.charAt(i + 1) == '\n') {
        line++;
        i += 2;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        i++;
      } else if (c == '#') {
        while (i < n && s.charAt(i) != '\n') {
          i++;
        }
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
          i++;
        }
        String word = s.substring(start, i);
        if (i < n && (s.charAt(i) == '\'' || s.charAt(i) == '"') && word.length() <= 2 && isStringPrefix(word)) {
          int[] pos = {i, line};
          String value = readString(s, pos, word);
          boolean f = word.indexOf('f') >= 0 || word.indexOf('F') >= 0;
          out.add(new Tok(T.STRING, value, line, f));
          i = pos[0];
          line = pos[1];
        } else {
          out.add(new Tok(T.NAME, word, line, false));
        }
      } else if (c == '\'' || c == '"') {
        int[] pos = {i, line};
        String value = readString(s, pos, "");
        out.add(new Tok(T.STRING, value, line, false));
        i = pos[0];
        line = pos[1];
      } else if (Character.isDigit(c)) {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '.')) {
          i++;
        }
        out.add(new Tok(T.NUMBER, s.substring(start, i), line, false));
      } else {
        if (c == '(' || c == '[' || c == '{') {
          depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
          depth--;
        }
        if (c == ';' && depth == 0) {
          out.add(new Tok(T.NEWLINE, ";", line, false));
          i++;
          continue;
        }
        String op = String.valueOf(c);
        if (i + 1 < n) {
          char d = s.charAt(i + 1);
          if (d == '=' && "=!<>:+-*/%&|^".indexOf(c) >= 0 || (c == '*' && d == '*') || (c == '/' && d == '/')
              || (c == '-' && d == '>')) {
            op = s.substring(i, i + 2);
          }
        }
        out.add(new Tok(T.OP, op, line, false));
        i += op.length();
      }
    }
    out.add(new Tok(T.NEWLINE, "\n", line, false));
    return out;
  }

  private static boolean isStringPrefix(String w) {
    for (int k = 0; k < w.length(); k++) {
      if ("rRbBuUfF".indexOf(w.charAt(k)) < 0) {
        return false;
      }
    }
    return true;
  }

  /** Reads a string literal at pos[0]; leaves pos[0] after it and pos[1] at the line it ends on. */
  private static String readString(String s, int[] pos, String prefix) {
    boolean raw = prefix.indexOf('r') >= 0 || prefix.indexOf('R') >= 0;
    int n = s.length();
    int i = pos[0];
    char q = s.charAt(i);
    String tripleQuote = q == '"' ? "\"\"\"" : "'''";
    boolean triple = s.startsWith(tripleQuote, i);
    i += triple ? 3 : 1;
    StringBuilder sb = new StringBuilder();
    while (i < n) {
      char c = s.charAt(i);
      if (triple ? c == q && s.startsWith(tripleQuote, i) : c == q) {
        i += triple ? 3 : 1;
        break;
      }
      if (!triple && c == '\n') {
        break;
      }
      if (c == '\\' && i + 1 < n) {
        char e = s.charAt(i + 1);
        if (raw) {
          sb.append(c).append(e);
        } else {
          switch (e) {
            case 'n' -> sb.append('\n');
            case 't' -> sb.append('\t');
            case '\\', '\'', '"' -> sb.append(e);
            case '\n' -> { }
            default -> sb.append(c).append(e);
          }
        }
        if (e == '\n') {
          pos[1]++;
        }
        i += 2;
        continue;
      }
      if (c == '\n') {
        pos[1]++;
      }
      sb.append(c);
      i++;
    }
    pos[0] = i;
    return sb.toString();
  }

  // ---------------------------------------------------------------- names

  private boolean statementStart(int k) {
    return k == 0 || toks.get(k - 1).kind() == T.NEWLINE || toks.get(k - 1).is(":");
  }

  private void imports() {
    for (int k = 0; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.is("import") && statementStart(k)) {
        int j = k + 1;
        while (j < toks.size() && toks.get(j).kind() == T.NAME) {
          String dotted = dotted(j);
          j += dottedLength(dotted);
          if (j + 1 < toks.size() && toks.get(j).is("as")) {
            aliases.put(toks.get(j + 1).text(), dotted);
            j += 2;
          } else {
            String first = dotted.split("\\.")[0];
            aliases.putIfAbsent(first, first);
          }
          if (j < toks.size() && toks.get(j).is(",")) {
            j++;
          }
        }
      } else if (t.is("from") && statementStart(k)) {
        String module = dotted(k + 1);
        int j = k + 1 + Math.max(1, module.split("\\.").length * 2 - 1);
        if (j >= toks.size() || !toks.get(j).is("import")) {
          continue;
        }
        j++;
        while (j < toks.size() && toks.get(j).kind() != T.NEWLINE) {
          Tok name = toks.get(j);
          if (name.is("*")) {
            starModules.add(module);
          } else if (name.kind() == T.NAME) {
            if (j + 2 < toks.size() && toks.get(j + 1).is("as")) {
              aliases.put(toks.get(j + 2).text(), module + "." + name.text());
              j += 2;
            } else {
              aliases.put(name.text(), module + "." + name.text());
            }
          }
          j++;
        }
      }
    }
  }

  /** The dotted name starting at k ("os.path.join"), or "" if k is not a name. */
  private String dotted(int k) {
    return dotted(k, toks.size());
  }

  /** The dotted name starting at k and ending before {@code limit}. */
  private String dotted(int k, int limit) {
    if (k >= limit || toks.get(k).kind() != T.NAME) {
      return "";
    }
    if (k + 2 >= limit || !toks.get(k + 1).is(".")) {
      return toks.get(k).text();
    }
    StringBuilder sb = new StringBuilder(toks.get(k).text());
    int j = k + 1;
    while (j + 1 < limit && toks.get(j).is(".") && toks.get(j + 1).kind() == T.NAME) {
      sb.append('.').append(toks.get(j + 1).text());
      j += 2;
    }
    return sb.toString();
  }

  private static int dottedLength(String dotted) {
    int dots = 0;
    for (int k = 0; k < dotted.length(); k++) {
      if (dotted.charAt(k) == '.') {
        dots++;
      }
    }
    return dots * 2 + 1;
  }

  private String canonical(String dotted) {
    int dot = dotted.indexOf('.');
    String first = dot < 0 ? dotted : dotted.substring(0, dot);
    String rest = dot < 0 ? "" : dotted.substring(dot);
    String mapped = aliases.get(first);
    if (mapped != null) {
      return mapped + rest;
    }
    for (String m : starModules) {
      String candidate = m + "." + dotted;
      if (SHELL_STRING.contains(candidate) || SHELL_ARGV_OR_STRING.contains(candidate) || REMOVE.contains(candidate)
          || RECURSIVE_REMOVE.contains(candidate) || MOVE.contains(candidate) || COPY.contains(candidate)) {
        return candidate;
      }
    }
    return dotted;
  }

  private void collectAssignments() {
    for (int k = 0; k + 2 < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.is("for") && statementStart(k)) {
        forLoop(k);
        continue;
      }
      if (t.kind() == T.NAME && statementStart(k) && toks.get(k + 1).is("=")) {
        int end = endOfStatement(k + 2);
        assignments.computeIfAbsent(t.text(), x -> new ArrayList<>()).add(new Assignment(k, k + 2, end, -1));
      } else if (t.is("as") && k + 2 < toks.size() && toks.get(k + 1).kind() == T.NAME && toks.get(k + 2).is(":")) {
        // with EXPR as NAME: binds NAME to EXPR, close enough for paths and files
        int start = k - 1;
        int depthCount = 0;
        while (start > 0) {
          Tok p = toks.get(start);
          if (p.is(")") || p.is("]")) {
            depthCount++;
          } else if (p.is("(") || p.is("[")) {
            depthCount--;
          }
          if (depthCount == 0 && (toks.get(start - 1).is("with") || toks.get(start - 1).is(","))) {
            break;
          }
          start--;
        }
        assignments.computeIfAbsent(toks.get(k + 1).text(), x -> new ArrayList<>()).add(new Assignment(k, start, k, -1));
      }
    }
  }

  /** {@code for root, dirs, files in os.walk(X):} binds each name to an element of the iterated value. */
  private void forLoop(int k) {
    int in = k + 1;
    List<String> names = new ArrayList<>();
    while (in < toks.size() && !toks.get(in).is("in") && toks.get(in).kind() != T.NEWLINE) {
      if (toks.get(in).kind() == T.NAME) {
        names.add(toks.get(in).text());
      }
      in++;
    }
    if (in >= toks.size() || !toks.get(in).is("in")) {
      return;
    }
    int colon = in + 1;
    int d = 0;
    while (colon < toks.size() && toks.get(colon).kind() != T.NEWLINE) {
      Tok t = toks.get(colon);
      if (t.is("(") || t.is("[") || t.is("{")) {
        d++;
      } else if (t.is(")") || t.is("]") || t.is("}")) {
        d--;
      } else if (d == 0 && t.is(":")) {
        break;
      }
      colon++;
    }
    for (int i = 0; i < names.size(); i++) {
      assignments.computeIfAbsent(names.get(i), x -> new ArrayList<>()).add(new Assignment(k, in + 1, colon, i));
    }
  }

  private int endOfStatement(int from) {
    int j = from;
    while (j < toks.size() && toks.get(j).kind() != T.NEWLINE) {
      j++;
    }
    return j;
  }

  private Assignment assignmentBefore(String name, int at) {
    List<Assignment> list = assignments.get(name);
    if (list == null) {
      return null;
    }
    Assignment best = null;
    for (Assignment a : list) {
      if (a.at() < at) {
        best = a;
      }
    }
    return best;
  }

  // ---------------------------------------------------------------- calls

  private void scan() {
    boolean network = false;
    for (int k = 0; k < toks.size(); k++) {
      Tok t = toks.get(k);
      if (t.kind() == T.STRING && !t.fstring()) {
        String sql = Databases.destructiveStatement(t.text());
        if (sql != null) {
          findings.facts().destructiveData(sql);
        }
      }
      if (t.kind() == T.NAME && (k == 0 || !toks.get(k - 1).is("."))) {
        String dotted = dotted(k);
        String name = canonical(dotted);
        int after = k + dottedLength(dotted);
        if (!network && isNetwork(name)) {
          network = true;
          findings.facts().fetched(name);
        }
        if (name.equals("os.environ")) {
          environment(k, after);
        } else if (ENVIRONMENT_DUMPS.contains(name)) {
          findings.environmentRead();
        }
        if (PROCESS_LISTS.contains(name)) {
          findings.facts().processList(name);
        }
        if (name.startsWith("socket.socket") || name.equals("socket.create_connection")) {
          findings.facts().rawSocket(name);
        }
        if (after < toks.size() && toks.get(after).is("(")) {
          clients(name, after);
        }
        if (after < toks.size() && toks.get(after).is("(") && isJudgedCall(name)) {
          int close = matching(after);
          call(name, k, after + 1, close);
        }
        if (name.equals("while")) {
          forkLoop(k);
        }
      } else if (t.is(".") && k + 2 < toks.size() && toks.get(k + 1).kind() == T.NAME && toks.get(k + 2).is("(")) {
        int receiver = receiverStart(k);
        if (!isModuleName(receiver, k)) {
          method(toks.get(k + 1).text(), receiver, k, k + 3, toks.size() > k + 2 ? matching(k + 2) : k + 2);
        }
      }
    }
    if (network) {
      findings.network();
    }
  }

  private static final Set<String> JUDGED_CALLS = judgedCalls();

  private static Set<String> judgedCalls() {
    Set<String> all = new java.util.HashSet<>();
    for (Set<String> s : List.of(SHELL_STRING, SHELL_ARGV_OR_STRING, SHELL_ARGV_SECOND, SHELL_VARARGS, OPEN, COPY, MOVE,
        REMOVE, RECURSIVE_REMOVE, PERMISSIONS, EXEC)) {
      all.addAll(s);
    }
    all.addAll(List.of("os.kill", "os.killpg", "os.chdir", "os.makedirs", "os.mkdir", "os.getenv", "os.environ.get",
        "os.environ.setdefault"));
    all.addAll(RESOLVERS);
    all.addAll(HTTP_DELETES);
    all.addAll(DOWNLOADS);
    all.addAll(DESERIALIZERS);
    all.addAll(RUN_FILE);
    all.addAll(LINKS);
    all.addAll(UNPACKS);
    all.add("shutil.copyfileobj");
    return Set.copyOf(all);
  }

  /** One lookup decides whether a call is one of those {@link #call} judges; most calls are not. */
  private static boolean isJudgedCall(String name) {
    return JUDGED_CALLS.contains(name);
  }

  /** requests.post, socket.create_connection, urllib.request.urlopen, or the bare module name. */
  private static boolean isNetwork(String name) {
    for (String prefix : NETWORK_PREFIXES) {
      if (name.startsWith(prefix)
          || (name.length() == prefix.length() - 1 && prefix.startsWith(name))) {
        return true;
      }
    }
    return name.endsWith("urlopen");
  }

  private void environment(int k, int after) {
    Tok next = after < toks.size() ? toks.get(after) : null;
    boolean passedOn = next == null || next.is(")") || next.is(",") || next.is("]") || next.is("}")
        || next.kind() == T.NEWLINE;
    boolean iterated = next != null && next.is(".") && after + 1 < toks.size()
        && ITERATION_METHODS.contains(toks.get(after + 1).text());
    if (next != null && next.is("[") && after + 1 < toks.size()) {
      secretName(new int[] {after + 1, matching(after)});
    }
    boolean envKeyword = k >= 2 && toks.get(k - 1).is("=") && toks.get(k - 2).is("env");
    if ((passedOn || iterated) && !envKeyword) {
      findings.environmentRead();
    }
  }

  /** Whether tokens [from, dot) are a module path like {@code os} or {@code os.path}: its functions are calls, not methods. */
  private boolean isModuleName(int from, int dot) {
    for (int j = from; j < dot; j++) {
      Tok t = toks.get(j);
      if (!(t.kind() == T.NAME || t.is("."))) {
        return false;
      }
    }
    String first = toks.get(from).text();
    return aliases.containsKey(first) && !assignments.containsKey(first) || WELL_KNOWN_MODULES.contains(first);
  }

  /** Index of the bracket closing the one at {@code open}. */
  private int matching(int open) {
    int d = 0;
    for (int j = open; j < toks.size(); j++) {
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

  private int matchingBackwards(int close) {
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

  /** The first token of the expression a {@code .method} is called on. */
  private int receiverStart(int dot) {
    int j = dot - 1;
    while (j >= 0) {
      Tok t = toks.get(j);
      if (t.is(")") || t.is("]")) {
        j = matchingBackwards(j);
        if (j > 0 && toks.get(j - 1).kind() == T.NAME) {
          j--;
        } else {
          return j;
        }
      } else if (t.kind() != T.NAME && t.kind() != T.STRING) {
        return j + 1;
      }
      if (j > 0 && toks.get(j - 1).is(".")) {
        j -= 2;
      } else {
        return j;
      }
    }
    return 0;
  }

  /** Positional arguments (token ranges) and keyword arguments of a call whose arguments span [from, to). */
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
          if (j - start >= 2 && toks.get(start).kind() == T.NAME && toks.get(start + 1).is("=")) {
            keywords.put(toks.get(start).text(), new int[] {start + 2, j});
          } else if (!toks.get(start).is("*") && !toks.get(start).is("**")) {
            out.add(new int[] {start, j});
          }
        }
        start = j + 1;
      }
    }
    return out;
  }

  private void call(String name, int at, int from, int to) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(from, to, kw);
    if (SHELL_STRING.contains(name) || SHELL_ARGV_OR_STRING.contains(name)) {
      int[] a = args.isEmpty() ? kw.get("args") : args.get(0);
      if (a != null && kw.containsKey("input") && fetchesFromNetwork(kw.get("input")[0], kw.get("input")[1], 0)
          && runsInterpreter(a)) {
        findings.add(Flag.high("run-downloaded", "feeds code downloaded from the network to an interpreter (" + name + ")"));
      }
      if (a != null) {
        shellOut(a[0], a[1]);
      }
    } else if (SHELL_ARGV_SECOND.contains(name) && args.size() >= 2) {
      shellOut(args.get(1)[0], args.get(1)[1]);
    } else if (SHELL_VARARGS.contains(name) && !args.isEmpty()) {
      List<int[]> argv = name.startsWith("os.execl") ? args.subList(1, args.size()) : args;
      StringBuilder cmd = new StringBuilder();
      for (int[] a : argv) {
        List<Part> v = evalString(a[0], a[1]);
        cmd.append(cmd.length() == 0 ? "" : " ").append(shellWord(v));
      }
      runShell(cmd.toString());
    } else if (RECURSIVE_REMOVE.contains(name) && !args.isEmpty()) {
      pathArg(args.get(0)).ifPresent(shell::recursiveDelete);
    } else if (REMOVE.contains(name) && !args.isEmpty()) {
      pathArg(args.get(0)).ifPresent(shell::delete);
    } else if (OPEN.contains(name) && !args.isEmpty()) {
      int[] mode = args.size() > 1 ? args.get(1) : kw.get("mode");
      open(args.get(0), mode);
    } else if (COPY.contains(name) && args.size() >= 2) {
      pathArg(args.get(0)).ifPresent(shell::read);
      pathArg(args.get(1)).ifPresent(w -> shell.write(w, false));
    } else if (MOVE.contains(name) && args.size() >= 2) {
      var src = pathArg(args.get(0));
      var dst = pathArg(args.get(1));
      if (src.isPresent() && dst.isPresent()) {
        shell.move(src.get(), dst.get());
      }
    } else if (PERMISSIONS.contains(name) && !args.isEmpty()) {
      String mode = name.endsWith("chmod") && args.size() > 1 ? modeText(args.get(1)) : null;
      pathArg(args.get(0)).ifPresent(w -> shell.permissions(w, name.endsWith("chmod") ? "chmod" : "chown", mode));
    } else if ((name.equals("os.kill") || name.equals("os.killpg")) && !args.isEmpty()) {
      int[] a = args.get(0);
      if (a[1] - a[0] == 2 && toks.get(a[0]).is("-") && toks.get(a[0] + 1).text().equals("1")) {
        findings.add(Flag.high("kill-all", "kills every process you own (os.kill(-1, ...))"));
      } else if (a[1] - a[0] == 1 && toks.get(a[0]).text().equals("1")) {
        findings.add(Flag.high("kill-all", "signals init, process 1 (" + name + "(1, ...))"));
      } else if (!ownPid(a[0], a[1])) {
        findings.facts().foreignSignal(name);
      }
    } else if ((name.equals("os.getenv") || name.equals("os.environ.get") || name.equals("os.environ.setdefault"))
        && !args.isEmpty()) {
      secretName(args.get(0));
    } else if (HTTP_DELETES.contains(name) && !args.isEmpty()) {
      boolean request = name.endsWith(".request");
      List<Part> method = request ? evalString(args.get(0)[0], args.get(0)[1]) : null;
      int[] url = request ? (args.size() > 1 ? args.get(1) : kw.get("url")) : args.get(0);
      if (url != null && (!request || method != null && "DELETE".equalsIgnoreCase(new Word(method, "").literal()))) {
        List<Part> u = evalString(url[0], url[1]);
        findings.add(RemoteSystems.httpDelete(u == null ? null : new Word(u, "").literal(), name));
      }
    } else if (DOWNLOADS.contains(name) && args.size() > 1) {
      pathArg(args.get(1)).ifPresent(shell::downloaded);
    } else if (DESERIALIZERS.contains(name) && !args.isEmpty()) {
      deserializes(name, args, kw, from, to);
    } else if (RUN_FILE.contains(name) && !args.isEmpty()) {
      int[] file = name.startsWith("runpy") ? args.get(0) : args.size() > 1 ? args.get(1) : kw.get("location");
      if (file != null) {
        runsFile(name, file);
      }
    } else if (UNPACKS.contains(name) && !args.isEmpty()) {
      int[] dir = args.size() > 1 ? args.get(1) : kw.containsKey("extract_dir") ? kw.get("extract_dir") : kw.get("outdir");
      if (dir != null) {
        pathArg(dir).ifPresent(w -> shell.extractInto(w, name));
      }
    } else if (LINKS.contains(name) && args.size() >= 2) {
      var target = pathArg(args.get(0));
      var link = pathArg(args.get(1));
      if (target.isPresent() && link.isPresent()) {
        shell.linked(target.get(), link.get(), false);
      }
    } else if (name.equals("shutil.copyfileobj") && args.size() >= 2 && fetchesFromNetwork(args.get(0)[0], args.get(0)[1], 0)) {
      openedFile(args.get(1)).ifPresent(shell::downloaded);
    } else if (RESOLVERS.contains(name) && !args.isEmpty()) {
      List<Part> host = evalString(args.get(0)[0], args.get(0)[1]);
      if (host == null || new Word(host, "").literal() == null) {
        findings.facts().dynamicDns(name);
      }
    } else if (name.equals("os.chdir") && !args.isEmpty()) {
      pathArg(args.get(0)).ifPresent(shell::chdir);
    } else if ((name.equals("os.makedirs") || name.equals("os.mkdir")) && !args.isEmpty()) {
      pathArg(args.get(0)).ifPresent(shell::created);
    } else if (EXEC.contains(name)) {
      if (!args.isEmpty() && toks.get(args.get(0)[0]).kind() == T.STRING) {
        List<Part> program = evalString(args.get(0)[0], args.get(0)[1]);
        Word w = program == null ? null : new Word(program, "");
        if (w != null && w.literal() != null) {
          new PythonAnalyzer(judge, findings, nested, depth + 1, cwd, shellVenv).analyze(w.literal());
          return;
        }
      }
      if (fetchesFromNetwork(from, to, 0)) {
        findings.add(Flag.high("run-downloaded", "executes code downloaded from the network (" + name + ")"));
        return;
      }
      if (!args.isEmpty() && readsDownloadedFile(args.get(0))) {
        findings.add(Flag.high("run-downloaded", "executes a file downloaded in the same block (" + name + ")"));
        return;
      }
      if (!args.isEmpty()) {
        findings.facts().computedCode(name + "(" + exprName(args.get(0)[0], args.get(0)[1]) + ")");
      }
    }
  }

  /**
   * pickle.loads(data) and its kin: data from the network (directly, through names, or a file the block downloaded)
   * can run code as it loads. Local data, and yaml.load with a safe loader, are not judged.
   */
  private void deserializes(String name, List<int[]> args, Map<String, int[]> kw, int from, int to) {
    if (name.startsWith("yaml.load")) {
      int[] loader = args.size() > 1 ? args.get(1) : kw.get("Loader");
      if (loader == null || exprName(loader[0], loader[1]).contains("Safe")) {
        return;
      }
    }
    if (name.equals("numpy.load") && !(kw.containsKey("allow_pickle") && toks.get(kw.get("allow_pickle")[0]).is("True"))) {
      return;
    }
    int[] data = args.get(0);
    List<Part> v = evalString(data[0], data[1]);
    String literal = v == null ? null : new Word(v, "").literal();
    if (fetchesFromNetwork(data[0], data[1], 0) || literal != null && (literal.startsWith("http://")
        || literal.startsWith("https://")) || readsDownloadedFile(data) || isDownloadedPath(data)) {
      findings.add(Flag.high("run-downloaded", "loads data from the network that can run code as it loads (" + name + ")"));
    }
  }

  /** runpy.run_path(f), spec_from_file_location(name, f): a downloaded file runs downloaded code; a written one is read. */
  private void runsFile(String name, int[] file) {
    if (isDownloadedPath(file)) {
      findings.add(Flag.high("run-downloaded", "runs a python file downloaded in the same block (" + name + ")"));
      return;
    }
    pathArg(file).ifPresent(w -> {
      String content = shell.writtenContent(w);
      if (content != null) {
        new PythonAnalyzer(judge, findings, nested, depth + 1, cwd, shellVenv).analyze(content);
      }
    });
  }

  private boolean isDownloadedPath(int[] range) {
    var w = pathArg(range);
    return w.isPresent() && shell.isDownloaded(w.get());
  }

  /** {@code open(p).read()}, {@code f.read()} with f bound to {@code open(p)}: whether p is a file the block downloaded. */
  private boolean readsDownloadedFile(int[] range) {
    var file = openedFile(range);
    return file.isPresent() && shell.isDownloaded(file.get());
  }

  /**
   * The file an expression reads or writes through a file object: {@code open(p, ...)} itself, a method called on it
   * ({@code open(p).read()}), or a name bound to it ({@code with open(p, 'wb') as f}).
   */
  private java.util.Optional<Word> openedFile(int[] range) {
    int from = range[0];
    int to = range[1];
    if (from >= to || toks.get(from).kind() != T.NAME) {
      return java.util.Optional.empty();
    }
    String name = canonical(dotted(from));
    int after = from + dottedLength(dotted(from));
    if (OPEN.contains(name) && after < to && toks.get(after).is("(")) {
      Map<String, int[]> kw = new HashMap<>();
      List<int[]> args = arguments(after + 1, matching(after), kw);
      return args.isEmpty() ? java.util.Optional.empty() : pathArg(args.get(0));
    }
    if (evalDepth < MAX_EVAL_DEPTH) {
      Assignment a = assignmentBefore(toks.get(from).text(), from);
      if (a != null && a.from() < from && a.element() < 0) {
        evalDepth++;
        try {
          return openedFile(new int[] {a.from(), a.to()});
        } finally {
          evalDepth--;
        }
      }
    }
    return java.util.Optional.empty();
  }

  /** Whether an expression, or a name it was assigned from (transitively), calls the network. */
  private boolean fetchesFromNetwork(int from, int to, int level) {
    if (level > MAX_EVAL_DEPTH) {
      return false;
    }
    long key = ((long) from << 32) | (to & 0xffffffffL);
    Boolean known = memo.get(key);
    if (known != null) {
      return known;
    }
    memo.put(key, false);
    boolean result = fetchesUncached(from, to, level);
    memo.put(key, result);
    return result;
  }

  private boolean fetchesUncached(int from, int to, int level) {
    for (int j = from; j < to && j < toks.size(); j++) {
      Tok t = toks.get(j);
      if (t.kind() != T.NAME || j > from && toks.get(j - 1).is(".")) {
        continue;
      }
      if (isNetwork(canonical(dotted(j)))) {
        return true;
      }
      Assignment a = assignmentBefore(t.text(), j);
      if (a != null && a.at() != j && a.from() < from && fetchesFromNetwork(a.from(), a.to(), level + 1)) {
        return true;
      }
    }
    return false;
  }

  /** The origins a receiver can come from: what the rooted-in look-up asks about. */
  private enum Origin { CLIENT, PROCESS_LIST, REMOTE_SHELL }

  private boolean isOrigin(String name, Origin origin) {
    return switch (origin) {
      case CLIENT -> isCloudClient(name) || DATA_CLIENTS.contains(name);
      case PROCESS_LIST -> PROCESS_LISTS.contains(name);
      case REMOTE_SHELL -> name.startsWith("paramiko.") || name.startsWith("fabric.") || name.startsWith("asyncssh.")
          || name.startsWith("invoke.");
    };
  }

  /**
   * Whether the expression starting at {@code from} comes from {@code origin} (a remote client, a process listing, a
   * remote shell), directly or through the names it was assigned from.
   */
  private boolean rootedIn(int from, Origin origin, int level) {
    if (from < 0 || from >= toks.size() || level > MAX_EVAL_DEPTH || toks.get(from).kind() != T.NAME) {
      return false;
    }
    long key = -1L - ((long) from * Origin.values().length + origin.ordinal());
    Boolean known = memo.get(key);
    if (known != null) {
      return known;
    }
    memo.put(key, false);
    boolean result = rootedInUncached(from, origin, level);
    memo.put(key, result);
    return result;
  }

  private boolean rootedInUncached(int from, Origin origin, int level) {
    if (isOrigin(canonical(dotted(from)), origin)) {
      return true;
    }
    Assignment a = assignmentBefore(toks.get(from).text(), from);
    if (a == null) {
      return false;
    }
    for (int j = a.from(); j < a.to() && j < toks.size(); j++) {
      if (toks.get(j).kind() == T.NAME && (j == a.from() || !toks.get(j - 1).is(".")) && rootedIn(j, origin, level + 1)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isCloudClient(String name) {
    for (String c : CLOUD_CLIENTS) {
      if (c.endsWith(".") ? name.startsWith(c) : name.equals(c)) {
        return true;
      }
    }
    return false;
  }

  /** A connection to a database or cloud service: a fact when it reaches another machine. */
  private void clients(String name, int paren) {
    if (isCloudClient(name)) {
      findings.facts().remoteData(name);
      return;
    }
    if (!DATA_CLIENTS.contains(name)) {
      return;
    }
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(paren + 1, matching(paren), kw);
    String host = null;
    for (String key : List.of("host", "url", "hostname", "server", "dsn", "conninfo")) {
      if (kw.containsKey(key)) {
        host = hostIn(kw.get(key));
      }
    }
    for (int k = 0; host == null && k < args.size(); k++) {
      host = hostIn(args.get(k));
    }
    if (host != null && !Databases.isLocalHost(host)) {
      findings.facts().remoteData(host);
    }
  }

  /** The host a connection argument names: a plain host, a URL, or a libpq string ("host=db port=5432"). */
  private String hostIn(int[] arg) {
    List<Part> v = evalString(arg[0], arg[1]);
    String s = v == null ? null : new Word(v, "").literal();
    if (s == null) {
      return null;
    }
    if (s.contains("://")) {
      return Databases.hostOfUrl(s);
    }
    int h = s.indexOf("host=");
    if (h >= 0) {
      int end = s.indexOf(' ', h);
      return s.substring(h + 5, end < 0 ? s.length() : end);
    }
    return s.contains(" ") || s.contains("/") ? null : s;
  }

  private void secretName(int[] arg) {
    List<Part> v = evalString(arg[0], arg[1]);
    String name = v == null ? null : new Word(v, "").literal();
    if (name != null && SecretNames.isSecret(name)) {
      findings.facts().secretVariable(name);
    }
  }

  /** A pid the block owns: its own (os.getpid()), or a child it started (proc.pid of a Popen). */
  private boolean ownPid(int from, int to) {
    if (to - from == 1 && toks.get(from).kind() == T.NUMBER) {
      return true;
    }
    for (int j = from; j < to; j++) {
      Tok t = toks.get(j);
      if (t.kind() != T.NAME) {
        continue;
      }
      String n = canonical(dotted(j));
      if (n.equals("os.getpid") || n.equals("os.getppid") || n.startsWith("subprocess.Popen")) {
        return true;
      }
      if (j + 2 < to && toks.get(j + 1).is(".") && toks.get(j + 2).is("pid")) {
        Assignment a = assignmentBefore(t.text(), j);
        if (a != null && a.from() < a.to() && toks.get(a.from()).kind() == T.NAME
            && canonical(dotted(a.from())).startsWith("subprocess.")) {
          return true;
        }
      }
    }
    return false;
  }

  /** A mode argument as written: 0o666, 0o777, 438, stat.S_IRWXU | ... (unknown). */
  private String modeText(int[] a) {
    if (a[1] - a[0] == 1 && toks.get(a[0]).kind() == T.NUMBER) {
      return toks.get(a[0]).text();
    }
    return null;
  }

  private void method(String name, int receiverFrom, int dot, int from, int to) {
    String module = importedModule(receiverFrom, dot);
    if (module != null) {
      call(module + "." + name, receiverFrom, from, to);
      return;
    }
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(from, to, kw);
    // a server-side dry run (kubernetes dry_run="All", boto3 DryRun=True) changes nothing
    boolean dryRun = kw.containsKey("dry_run") || kw.containsKey("DryRun");
    for (String d : DESTRUCTIVE_METHODS) {
      if (!dryRun && name.startsWith(d) && rootedIn(receiverFrom, Origin.CLIENT, 0)) {
        findings.facts().destructiveData(name + "()");
        break;
      }
    }
    switch (name) {
      case "unlink" -> pathOf(receiverFrom, dot).ifPresent(shell::delete);
      case "rmtree" -> pathOf(receiverFrom, dot).ifPresent(shell::recursiveDelete);
      case "write_text", "write_bytes" -> pathOf(receiverFrom, dot).ifPresent(w -> {
        shell.write(w, false);
        if (!args.isEmpty() && fetchesFromNetwork(args.get(0)[0], args.get(0)[1], 0)) {
          shell.downloaded(w);
        }
      });
      case "write", "writelines" -> {
        if (!args.isEmpty() && fetchesFromNetwork(args.get(0)[0], args.get(0)[1], 0)) {
          openedFile(new int[] {receiverFrom, dot}).ifPresent(shell::downloaded);
        }
      }
      case "extractall" -> {
        int[] dir = !args.isEmpty() ? args.get(0) : kw.get("path");
        if (dir != null) {
          pathArg(dir).ifPresent(w -> shell.extractInto(w, "extractall"));
        }
      }
      case "symlink_to", "hardlink_to" -> {
        if (!args.isEmpty()) {
          var link = pathOf(receiverFrom, dot);
          var target = pathArg(args.get(0));
          if (link.isPresent() && target.isPresent()) {
            shell.linked(target.get(), link.get(), false);
          }
        }
      }
      case "upload_file", "put" -> {
        // boto3's s3.upload_file(local, ...), paramiko's sftp.put(local, remote): the local file leaves the machine
        if (!args.isEmpty() && (rootedIn(receiverFrom, Origin.CLIENT, 0) || rootedIn(receiverFrom, Origin.REMOTE_SHELL, 0))) {
          pathArg(args.get(0)).ifPresent(shell::read);
          findings.network();
        }
      }
      case "read_text", "read_bytes" -> pathOf(receiverFrom, dot).ifPresent(shell::read);
      case "open" -> {
        if (!isPathExpression(receiverFrom, dot)) {
          return;
        }
        int[] mode = args.isEmpty() ? kw.get("mode") : args.get(0);
        pathOf(receiverFrom, dot).ifPresent(w -> openMode(w, mode));
      }
      case "rename", "replace" -> {
        if (!args.isEmpty() && isPathExpression(receiverFrom, dot)) {
          var src = pathOf(receiverFrom, dot);
          var dst = pathArg(args.get(0));
          if (src.isPresent() && dst.isPresent()) {
            shell.move(src.get(), dst.get());
          }
        }
      }
      case "chmod" -> {
        String mode = args.isEmpty() ? null : modeText(args.get(0));
        pathOf(receiverFrom, dot).ifPresent(w -> shell.permissions(w, "chmod", mode));
      }
      case "exec_command", "run", "sudo" -> {
        if (!args.isEmpty() && rootedIn(receiverFrom, Origin.REMOTE_SHELL, 0)) {
          List<Part> cmd = evalString(args.get(0)[0], args.get(0)[1]);
          if (name.equals("sudo")) {
            findings.add(Flag.high("sudo", "runs as root with sudo on a remote host"));
          }
          if (cmd != null) {
            shell.runShell(shellSource(cmd));
          }
        }
      }
      case "kill", "terminate", "send_signal" -> {
        if (rootedIn(receiverFrom, Origin.PROCESS_LIST, 0)) {
          findings.facts().foreignSignal(toks.get(receiverFrom).text() + "." + name + "()");
        }
      }
      case "mkdir" -> pathOf(receiverFrom, dot).ifPresent(shell::created);
      case "system", "getoutput" -> {
        if (dot - receiverFrom >= 1 && toks.get(receiverFrom).text().equals("get_ipython") && !args.isEmpty()) {
          shellOut(args.get(0)[0], args.get(0)[1]);
        }
      }
      default -> {
        // other methods touch no files we judge
      }
    }
  }

  /** {@code __import__('os')} or {@code importlib.import_module('os')} as a receiver: the module's name. */
  private String importedModule(int from, int dot) {
    if (dot - from < 4 || !toks.get(dot - 1).is(")")) {
      return null;
    }
    String callee = canonical(dotted(from));
    int paren = from + dottedLength(dotted(from));
    if (!(callee.equals("__import__") || callee.equals("importlib.import_module")) || !toks.get(paren).is("(")
        || matching(paren) != dot - 1 || toks.get(paren + 1).kind() != T.STRING) {
      return null;
    }
    return toks.get(paren + 1).text();
  }

  /** Whether the receiver is built from pathlib (so {@code .open()} is a file, not a socket or an archive). */
  private boolean isPathExpression(int from, int to) {
    for (int j = from; j < to; j++) {
      Tok t = toks.get(j);
      if (t.kind() == T.NAME && (canonical(t.text()).startsWith("pathlib.") || t.text().equals("Path"))) {
        return true;
      }
      if (t.kind() == T.NAME && j == from && to - from == 1) {
        Assignment a = assignmentBefore(t.text(), j);
        return a != null && isPathExpression(a.from(), a.to());
      }
    }
    return false;
  }

  private void open(int[] path, int[] mode) {
    pathArg(path).ifPresent(w -> openMode(w, mode));
  }

  private void openMode(Word file, int[] mode) {
    String m = "r";
    if (mode != null) {
      List<Part> v = evalString(mode[0], mode[1]);
      Word w = v == null ? null : new Word(v, "");
      m = w == null || w.literal() == null ? "w" : w.literal();
    }
    if (m.contains("w") || m.contains("x")) {
      shell.write(file, false);
    } else if (m.contains("a")) {
      shell.write(file, true);
    } else if (m.contains("+")) {
      shell.write(file, true);
    } else {
      shell.read(file);
    }
  }

  private void shellOut(int from, int to) {
    List<List<Part>> argv = evalList(from, to);
    if (argv != null && runsInterpreter(new int[] {from, to}) && fetchesFromNetwork(from, to, 0)) {
      // ["bash", "-c", script] with script fetched: the interpreter runs the download
      findings.add(Flag.high("run-downloaded", "runs code downloaded from the network through an interpreter"));
    }
    if (argv != null) {
      StringBuilder cmd = new StringBuilder();
      for (List<Part> arg : argv) {
        cmd.append(cmd.length() == 0 ? "" : " ").append(shellWord(arg));
      }
      runShell(cmd.toString());
      return;
    }
    List<Part> s = splitSource(from, to);
    if (s == null) {
      s = evalString(from, to);
    }
    if (s != null && !s.isEmpty() && s.get(0).kind() != PartKind.TEXT) {
      // the command itself is computed: code fetched earlier in the block, or something nobody has read
      if (fetchesFromNetwork(from, to, 0)) {
        findings.add(Flag.high("run-downloaded", "runs a command downloaded from the network"));
        return;
      }
      findings.facts().computedCode("a computed shell command");
    }
    if (s != null) {
      runShell(shellSource(s));
    }
  }

  /** Whether an argv list starts an interpreter (bash, python, node...), also behind sudo or env. */
  private boolean runsInterpreter(int[] range) {
    List<List<Part>> argv = evalList(range[0], range[1]);
    if (argv == null) {
      return false;
    }
    for (int k = 0; k < argv.size() && k < 4; k++) {
      String w = argv.get(k) == null ? null : new Word(argv.get(k), "").literal();
      if (w != null && ShellWords.isInterpreter(w)) {
        return true;
      }
      if (w == null || !(w.equals("sudo") || w.equals("env") || w.startsWith("-"))) {
        return false;
      }
    }
    return false;
  }

  /** {@code "git push -f".split()} and {@code shlex.split("...")}: the string is the command line. */
  private List<Part> splitSource(int from, int to) {
    if (to - from < 4 || !toks.get(to - 1).is(")")) {
      return null;
    }
    int open = matchingBackwards(to - 1);
    if (open >= from + 2 && toks.get(open - 1).is("split") && toks.get(open - 2).is(".")
        && !isModuleName(from, open - 2)) {
      return evalString(from, open - 2);
    }
    if (toks.get(from).kind() == T.NAME && canonical(dotted(from)).equals("shlex.split")) {
      int paren = from + dottedLength(dotted(from));
      if (paren < to && toks.get(paren).is("(")) {
        return evalString(paren + 1, matching(paren));
      }
    }
    return null;
  }

  /** A string used as shell source: literal text as written, unknown pieces as shell variables. */
  private static String shellSource(List<Part> parts) {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      sb.append(p.kind() == PartKind.TEXT ? p.text() : shellVariable(p));
    }
    return sb.toString();
  }

  /** One argv element as a single shell word. */
  private static String shellWord(List<Part> parts) {
    if (parts == null) {
      return "\"${PY_ARG}\"";
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
    StringBuilder name = new StringBuilder("PY_");
    for (char c : p.text().toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '_') {
        name.append(c);
      }
    }
    return p.mayBeEmpty() ? "${" + name + "}" : "${" + name + ":?}";
  }

  private void forkLoop(int whileAt) {
    int colon = whileAt;
    while (colon < toks.size() && !toks.get(colon).is(":") && toks.get(colon).kind() != T.NEWLINE) {
      colon++;
    }
    if (colon >= toks.size() || !toks.get(colon).is(":")) {
      return;
    }
    int indent = indentOf(toks.get(whileAt).line());
    int j = colon + 1;
    boolean sameLine = j < toks.size() && toks.get(j).kind() != T.NEWLINE;
    for (; j < toks.size(); j++) {
      Tok t = toks.get(j);
      if (sameLine && t.kind() == T.NEWLINE) {
        break;
      }
      if (!sameLine && t.kind() != T.NEWLINE && t.line() > toks.get(colon).line() && indentOf(t.line()) <= indent) {
        break;
      }
      if (t.kind() == T.NAME && (t.text().equals("fork") || t.text().equals("forkpty"))
          && j + 1 < toks.size() && toks.get(j + 1).is("(")) {
        String owner = j >= 2 && toks.get(j - 1).is(".") ? canonical(toks.get(j - 2).text()) : canonical(t.text());
        if (owner.equals("os") || owner.startsWith("os.")) {
          findings.add(Flag.high("fork-bomb", "forks processes in an endless loop (while ...: os.fork())"));
          return;
        }
      }
    }
  }

  private int indentOf(int line) {
    return line < lineIndent.length ? lineIndent[line] : 0;
  }

  // ---------------------------------------------------------------- expressions

  private java.util.Optional<Word> pathArg(int[] range) {
    return pathOf(range[0], range[1]);
  }

  private java.util.Optional<Word> pathOf(int from, int to) {
    List<Part> v = evalString(from, to);
    return v == null || v.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(new Word(v, ""));
  }

  private static Part text(String s) {
    return new Part(PartKind.TEXT, s, true, false);
  }

  private static Part unknown(String name, boolean mayBeEmpty) {
    return new Part(PartKind.VAR, name, true, mayBeEmpty);
  }

  /** A list or tuple literal of strings (or a name bound to one); null when the expression is something else. */
  private List<List<Part>> evalList(int from, int to) {
    if (from >= to) {
      return null;
    }
    Tok first = toks.get(from);
    if ((first.is("[") || first.is("(")) && matching(from) == to - 1) {
      Map<String, int[]> ignored = new HashMap<>();
      List<List<Part>> out = new ArrayList<>();
      for (int[] a : arguments(from + 1, to - 1, ignored)) {
        out.add(evalString(a[0], a[1]));
      }
      return out;
    }
    if (to - from == 1 && first.kind() == T.NAME && evalDepth < MAX_EVAL_DEPTH) {
      Assignment a = assignmentBefore(first.text(), from);
      if (a != null) {
        evalDepth++;
        try {
          return evalList(a.from(), a.to());
        } finally {
          evalDepth--;
        }
      }
    }
    return null;
  }

  /**
   * The value of a string or path expression as text and unknown pieces, or null when it is not one. Handles
   * literals (also f-strings), +, pathlib's /, os.path.join/expanduser/abspath, Path(...), Path.home(),
   * os.getenv("HOME"), tempfile.mkdtemp(), sys.executable and names assigned such values.
   */
  private List<Part> evalString(int from, int to) {
    if (from >= to || evalDepth > MAX_EVAL_DEPTH) {
      return null;
    }
    evalDepth++;
    try {
      List<Part> out = new ArrayList<>();
      int j = from;
      int d = 0;
      int termStart = from;
      String pendingOp = null;
      for (; j <= to; j++) {
        Tok t = j < to ? toks.get(j) : null;
        if (t != null && (t.is("(") || t.is("[") || t.is("{"))) {
          d++;
        } else if (t != null && (t.is(")") || t.is("]") || t.is("}"))) {
          d--;
        }
        if (j == to || (d == 0 && (t.is("+") || t.is("/")) && j > termStart)) {
          List<Part> term = evalTerm(termStart, j);
          if (term == null) {
            return null;
          }
          if (pendingOp != null && pendingOp.equals("/")) {
            join(out, term);
          } else {
            out.addAll(term);
          }
          pendingOp = t == null ? null : t.text();
          termStart = j + 1;
        } else if (d == 0 && t != null && (t.is("%") || t.is("if") || t.is("or") || t.is("and") || t.is("for"))) {
          return List.of(unknown(exprName(from, to), true));
        }
      }
      return out;
    } finally {
      evalDepth--;
    }
  }

  private void join(List<Part> base, List<Part> next) {
    boolean absolute = !next.isEmpty() && next.get(0).kind() == PartKind.TEXT && next.get(0).text().startsWith("/");
    if (absolute) {
      base.clear();
      base.addAll(next);
      return;
    }
    if (!base.isEmpty()) {
      base.add(text("/"));
    }
    base.addAll(next);
  }

  private List<Part> evalTerm(int from, int to) {
    if (from >= to) {
      return null;
    }
    Tok first = toks.get(from);
    List<Part> value;
    int j;
    if (first.kind() == T.STRING) {
      value = new ArrayList<>();
      j = from;
      while (j < to && toks.get(j).kind() == T.STRING) {
        value.addAll(stringParts(toks.get(j), j));
        j++;
      }
    } else if (first.is("(")) {
      int close = matching(from);
      value = evalString(from + 1, close);
      j = close + 1;
    } else if (first.kind() == T.NAME) {
      String dotted = dotted(from, to);
      String name = canonical(dotted);
      j = from + dottedLength(dotted);
      if (j < to && toks.get(j).is("(")) {
        int close = matching(j);
        value = callValue(name, dotted, j + 1, close);
        j = close + 1;
      } else if (j < to && toks.get(j).is("[") && name.equals("os.environ")) {
        int close = matching(j);
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
      Tok t = toks.get(j);
      if (t.is(".") && j + 1 < to && toks.get(j + 1).kind() == T.NAME) {
        String m = toks.get(j + 1).text();
        boolean isCall = j + 2 < to && toks.get(j + 2).is("(");
        int close = isCall ? matching(j + 2) : j + 1;
        if (m.equals("expanduser")) {
          value = expandUser(value);
        } else if (m.equals("parent")) {
          value = parent(value);
        } else if (m.equals("join") && isCall) {
          value = joinList(value, j + 3, close);
        } else if (m.equals("format") && isCall) {
          value = formatted(value);
        } else if (!IDENTITY_METHODS.contains(m)) {
          value = List.of(unknown(exprName(from, close + 1), false));
        }
        j = close + 1;
      } else {
        return List.of(unknown(exprName(from, to), false));
      }
    }
    return value;
  }

  private List<Part> nameValue(String name, String dotted, int at) {
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
      Assignment a = assignmentBefore(dotted, at);
      if (a != null && a.element() >= 0) {
        List<Part> v = loopElement(a);
        return v == null ? List.of(unknown(dotted, true)) : v;
      }
      if (a != null) {
        List<Part> v = evalString(a.from(), a.to());
        return v == null ? List.of(unknown(dotted, true)) : v;
      }
    }
    return List.of(unknown(dotted, true));
  }

  /**
   * What a loop variable stands for when the loop walks a directory: the directory itself (os.walk's root) or
   * "any entry" as an active glob, so deleting each element is judged like {@code rm DIR/*}.
   */
  private List<Part> loopElement(Assignment a) {
    int from = a.from();
    int to = a.to();
    if (from >= to) {
      return null;
    }
    if (to - from == 1 && toks.get(from).kind() == T.NAME) {
      return nameValue(toks.get(from).text(), toks.get(from).text(), from);
    }
    Tok last = toks.get(to - 1);
    if (!last.is(")")) {
      return null;
    }
    int open = matchingBackwards(to - 1);
    if (open >= 2 && toks.get(open - 1).kind() == T.NAME && toks.get(open - 2).is(".")) {
      String method = toks.get(open - 1).text();
      int dot = open - 2;
      if (isModuleName(receiverStart(dot), dot) && receiverStart(dot) == from) {
        return directoryListing(canonical(dotted(from)), a.element(), open + 1, to - 1);
      }
      List<Part> receiver = evalString(from, dot);
      if (receiver == null) {
        return null;
      }
      Map<String, int[]> kw = new HashMap<>();
      List<int[]> args = arguments(open + 1, to - 1, kw);
      List<Part> out = new ArrayList<>(receiver);
      switch (method) {
        case "iterdir", "scandir" -> join(out, List.of(glob("*")));
        case "glob", "rglob" -> {
          List<Part> pattern = args.isEmpty() ? null : evalString(args.get(0)[0], args.get(0)[1]);
          join(out, pattern == null ? List.of(glob("*")) : activeGlobs(pattern));
        }
        default -> {
          return null;
        }
      }
      return out;
    }
    if (toks.get(from).kind() == T.NAME && toks.get(from + dottedLength(dotted(from))).is("(")) {
      return directoryListing(canonical(dotted(from)), a.element(), from + dottedLength(dotted(from)) + 1, to - 1);
    }
    return null;
  }

  private List<Part> directoryListing(String call, int element, int argsFrom, int argsTo) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(argsFrom, argsTo, kw);
    List<Part> dir = args.isEmpty() ? List.of(text(".")) : evalString(args.get(0)[0], args.get(0)[1]);
    if (dir == null) {
      return null;
    }
    switch (call) {
      case "os.walk":
        return element == 0 ? dir : List.of(glob("*"));
      case "os.listdir":
        return List.of(glob("*"));
      case "os.scandir": {
        List<Part> out = new ArrayList<>(dir);
        join(out, List.of(glob("*")));
        return out;
      }
      case "glob.glob", "glob.iglob":
        return activeGlobs(dir);
      case "sorted", "list", "reversed", "set", "tuple":
        return args.isEmpty() ? null : evalString(args.get(0)[0], args.get(0)[1]);
      default:
        return null;
    }
  }

  private static Part glob(String pattern) {
    return new Part(PartKind.TEXT, pattern, false, false);
  }

  private static List<Part> activeGlobs(List<Part> pattern) {
    List<Part> out = new ArrayList<>();
    for (Part p : pattern) {
      out.add(p.kind() == PartKind.TEXT ? glob(p.text()) : p);
    }
    return out;
  }

  private List<Part> callValue(String name, String dotted, int from, int to) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(from, to, kw);
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
            v = List.of(unknown(exprName(a[0], a[1]), true));
          }
          join(out, v);
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
        return shellVenv ? List.of(unknown("site_packages", false)) : List.of(text("/usr/lib/python3/dist-packages"));
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
          return List.of(unknown(exprName(from, to), false));
        }
        join(out, v);
      }
      return out;
    }
    return List.of(unknown(exprName(from, to), false));
  }

  private List<Part> environmentValue(int from, int to, boolean mayDefault) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = arguments(from, to, kw);
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

  private List<Part> expandUser(List<Part> v) {
    if (!v.isEmpty() && v.get(0).kind() == PartKind.TEXT) {
      String t = v.get(0).text();
      if (t.equals("~") || t.startsWith("~/")) {
        List<Part> out = new ArrayList<>(v);
        out.set(0, text(judge.context().home() + t.substring(1)));
        return out;
      }
    }
    return v;
  }

  private static List<Part> parent(List<Part> v) {
    Word w = new Word(v, "");
    String lit = w.literal();
    if (lit == null) {
      return List.of(unknown("parent", false));
    }
    Path p = Path.of(lit).getParent();
    return List.of(text(p == null ? "." : p.toString()));
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

  /** {@code "rm -rf {}".format(x)}: each placeholder becomes an unknown piece. */
  private static List<Part> formatted(List<Part> template) {
    List<Part> out = new ArrayList<>();
    for (Part p : template) {
      if (p.kind() == PartKind.TEXT) {
        out.addAll(fieldsAsUnknown(p.text()));
      } else {
        out.add(p);
      }
    }
    return out;
  }

  /** A literal's pieces; an f-string field that names a variable takes the variable's value when known. */
  private List<Part> stringParts(Tok t, int at) {
    if (!t.fstring()) {
      return List.of(text(t.text()));
    }
    List<Part> out = new ArrayList<>();
    for (Part p : fieldsAsUnknown(t.text())) {
      if (p.kind() == PartKind.VAR && isIdentifier(p.text().strip())) {
        out.addAll(nameValue(p.text().strip(), p.text().strip(), at));
      } else {
        out.add(p);
      }
    }
    return out;
  }

  private static boolean isIdentifier(String s) {
    if (s.isEmpty() || !(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
      return false;
    }
    for (int k = 1; k < s.length(); k++) {
      if (!(Character.isLetterOrDigit(s.charAt(k)) || s.charAt(k) == '_')) {
        return false;
      }
    }
    return true;
  }

  /** Splits "a {x} b" into text and unknown pieces; "{{" and "}}" are literal braces. */
  private static List<Part> fieldsAsUnknown(String s) {
    List<Part> out = new ArrayList<>();
    StringBuilder lit = new StringBuilder();
    int n = s.length();
    for (int k = 0; k < n; k++) {
      char c = s.charAt(k);
      if (c == '{' && k + 1 < n && s.charAt(k + 1) == '{') {
        lit.append('{');
        k++;
      } else if (c == '}' && k + 1 < n && s.charAt(k + 1) == '}') {
        lit.append('}');
        k++;
      } else if (c == '{') {
        int end = s.indexOf('}', k);
        end = end < 0 ? n : end;
        if (lit.length() > 0) {
          out.add(text(lit.toString()));
          lit.setLength(0);
        }
        out.add(unknown(s.substring(k + 1, end), true));
        k = end;
      } else {
        lit.append(c);
      }
    }
    if (lit.length() > 0 || out.isEmpty()) {
      out.add(text(lit.toString()));
    }
    return out;
  }

  private String exprName(int from, int to) {
    StringBuilder sb = new StringBuilder();
    for (int j = from; j < to && j < toks.size() && sb.length() < 24; j++) {
      Tok t = toks.get(j);
      if (t.kind() == T.NAME) {
        sb.append(sb.length() == 0 ? "" : "_").append(t.text());
      }
    }
    return sb.length() == 0 ? "expr" : sb.toString();
  }
}
