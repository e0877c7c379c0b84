package io.interpreter4j.core.safety.python;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.NestedCode;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.code.Memo;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.python.PythonLexer.Tok;
import io.interpreter4j.core.safety.rules.Databases;
import io.interpreter4j.core.safety.rules.SecretNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds dangerous calls in a python block (and IPython {@code !cmd} / {@code %pip} lines): shell-outs with a
 * literal command are analysed as bash; deletions, writes and reads of paths built from literals,
 * {@code os.path.expanduser}, {@code Path.home()} and simple assignments are judged like their shell twins.
 * Only string literals that reach a call matter, so {@code print("rm -rf /")} is harmless. {@link PythonSource}
 * reads the program, {@link PythonValues} evaluates its expressions, and each family of calls has its rules:
 * {@link ProcessCalls}, {@link FileCalls}, {@link RemoteCalls}, {@link CodeCalls}.
 */
public final class PythonAnalyzer {

  private static final Set<String> ENVIRONMENT_GETS = Set.of("os.getenv", "os.environ.get", "os.environ.setdefault");

  private final PathJudge judge;
  private final Findings findings;
  private final int depth;
  private final NestedCode nested;
  private final ShellEffects shell;
  private final Path cwd;
  private final boolean venv;
  private final List<String> shellCommands = new ArrayList<>();
  private PythonSource src;
  private PythonValues values;
  private ProcessCalls processes;
  private FileCalls files;
  private RemoteCalls remote;
  private CodeCalls code;

  /** The analysis of one python program; {@code nested} analyses the shell commands and other programs it runs. */
  public PythonAnalyzer(PathJudge judge, Findings findings, NestedCode nested, int depth, Path cwd, boolean venvActive) {
    this.venv = venvActive;
    this.judge = judge;
    this.findings = findings;
    this.nested = nested;
    this.depth = depth;
    this.cwd = cwd;
    this.shell = nested.shell(depth + 1, cwd, venvActive);
  }

  public void analyze(String program) {
    if (depth > Findings.MAX_DEPTH) {
      findings.add(Flag.high("nesting-too-deep", "nests shells too deeply to check"));
      return;
    }
    String python = IPythonMagics.strip(program, this::runShell);
    if (python.isBlank()) {
      return;
    }
    src = new PythonSource(python);
    values = new PythonValues(src, judge, cwd, venv);
    PythonBlock block = new PythonBlock(src, values, findings, shell, this::runShell,
        inner -> new PythonAnalyzer(judge, findings, nested, depth + 1, cwd, venv).analyze(inner), new Memo());
    processes = new ProcessCalls(block);
    files = new FileCalls(block);
    remote = new RemoteCalls(block);
    code = new CodeCalls(block);
    scan();
  }

  /** The shell command lines this block runs (literal shell-outs, {@code !cmd}, {@code %pip}), in order. */
  public List<String> shellCommands() {
    return List.copyOf(shellCommands);
  }

  private void runShell(String command) {
    shellCommands.add(command);
    shell.analyze(command);
  }

  private void scan() {
    boolean network = false;
    for (int k = 0; k < src.size(); k++) {
      Tok t = src.tok(k);
      if (t.kind() == TokenKind.STRING && !t.fstring()) {
        String sql = Databases.destructiveStatement(t.text());
        if (sql != null) {
          findings.facts().destructiveData(sql);
        }
      }
      if (t.kind() == TokenKind.NAME && (k == 0 || !src.tok(k - 1).is("."))) {
        String dotted = src.dotted(k);
        String name = src.canonical(dotted);
        int after = k + PythonSource.dottedLength(dotted);
        if (!network && PythonApis.isNetwork(name)) {
          network = true;
          findings.facts().fetched(name);
        }
        if (name.equals("os.environ")) {
          environment(k, after);
        } else if (PythonApis.ENVIRONMENT_DUMPS.contains(name)) {
          findings.environmentRead();
        }
        if (PythonApis.PROCESS_LISTS.contains(name)) {
          findings.facts().processList(name);
        }
        if (name.startsWith("socket.socket") || name.equals("socket.create_connection")) {
          findings.facts().rawSocket(name);
        }
        if (after < src.size() && src.tok(after).is("(")) {
          remote.clients(name, after);
        }
        if (after < src.size() && src.tok(after).is("(") && PythonApis.isJudgedCall(name)) {
          int close = src.matching(after);
          call(name, after + 1, close);
        }
        if (name.equals("while")) {
          processes.forkLoop(k);
        }
      } else if (t.is(".") && k + 2 < src.size() && src.tok(k + 1).kind() == TokenKind.NAME && src.tok(k + 2).is("(")) {
        int receiver = src.receiverStart(k);
        if (!src.isModuleName(receiver, k)) {
          method(src.tok(k + 1).text(), receiver, k, k + 3, src.size() > k + 2 ? src.matching(k + 2) : k + 2);
        }
      }
    }
    if (network) {
      findings.network();
    }
  }

  /** Hands a judged call to the family it belongs to (each name belongs to one); the getenv kin read a variable. */
  private void call(String name, int from, int to) {
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(from, to, kw);
    boolean judged = processes.call(name, args, kw) || files.call(name, args, kw) || remote.call(name, args, kw)
        || code.call(name, args, kw, from, to);
    if (!judged && ENVIRONMENT_GETS.contains(name) && !args.isEmpty()) {
      secretName(args.get(0));
    }
  }

  private void method(String name, int receiverFrom, int dot, int from, int to) {
    String module = importedModule(receiverFrom, dot);
    if (module != null) {
      call(module + "." + name, from, to);
      return;
    }
    Map<String, int[]> kw = new HashMap<>();
    List<int[]> args = src.arguments(from, to, kw);
    remote.destructiveMethod(name, receiverFrom, kw);
    // each method name belongs to one family at most
    if (!files.method(name, receiverFrom, dot, args, kw) && !processes.method(name, receiverFrom, dot, args)) {
      remote.method(name, receiverFrom, args);
    }
  }

  /** {@code __import__('os')} or {@code importlib.import_module('os')} as a receiver: the module's name. */
  private String importedModule(int from, int dot) {
    if (dot - from < 4 || !src.tok(dot - 1).is(")")) {
      return null;
    }
    String callee = src.canonical(src.dotted(from));
    int paren = from + PythonSource.dottedLength(src.dotted(from));
    if (!(callee.equals("__import__") || callee.equals("importlib.import_module")) || !src.tok(paren).is("(")
        || src.matching(paren) != dot - 1 || src.tok(paren + 1).kind() != TokenKind.STRING) {
      return null;
    }
    return src.tok(paren + 1).text();
  }

  /** {@code os.environ} at token k: a secret-named key is noted; the whole mapping handed on or iterated is a dump. */
  private void environment(int k, int after) {
    Tok next = after < src.size() ? src.tok(after) : null;
    boolean passedOn = next == null || next.is(")") || next.is(",") || next.is("]") || next.is("}")
        || next.kind() == TokenKind.NEWLINE;
    boolean iterated = next != null && next.is(".") && after + 1 < src.size()
        && PythonApis.ITERATION_METHODS.contains(src.tok(after + 1).text());
    if (next != null && next.is("[") && after + 1 < src.size()) {
      secretName(new int[] {after + 1, src.matching(after)});
    }
    boolean envKeyword = k >= 2 && src.tok(k - 1).is("=") && src.tok(k - 2).is("env");
    if ((passedOn || iterated) && !envKeyword) {
      findings.environmentRead();
    }
  }

  private void secretName(int[] arg) {
    String name = values.literalOf(arg);
    if (name != null && SecretNames.isSecret(name)) {
      findings.facts().secretVariable(name);
    }
  }
}
