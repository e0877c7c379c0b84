package io.interpreter4j.core.safety.script;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.NestedCode;
import io.interpreter4j.core.safety.analysis.PathJudge;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.rules.Databases;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptLexer.Dialect;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds what a JavaScript, Ruby or R block does to what, with the same judges as bash: shell-outs (exec, spawn,
 * system, system2, backticks) are analysed as bash; deletions, writes, reads, permission changes and folder changes
 * of paths built from literals, {@code os.homedir()}, {@code Dir.home}, {@code Sys.getenv("HOME")}, environment
 * variables with their defaults and the block's own variables are judged by where they land; evaluating fetched
 * code, sending secrets out, signalling others' processes and deleting data on remote systems feed the block's facts.
 * {@link ScriptSource} reads the block, {@link ScriptValues} evaluates its expressions, {@link ScriptApis} says what
 * each library call does; each family of calls has its rules: {@link ScriptProcesses}, {@link ScriptFiles},
 * {@link ScriptRemote}, {@link ScriptCode}, {@link ScriptEnvironment}.
 */
public final class ScriptAnalyzer {

  private final Dialect dialect;
  private final PathJudge judge;
  private final Findings findings;
  private final int depth;
  private final NestedCode nested;
  private final ShellEffects shell;
  private final boolean venv;
  private final Path cwd;
  private ScriptSource src;
  private ScriptValues values;
  private ScriptBlock block;
  private ScriptEnvironment environment;
  private ScriptProcesses processes;
  private ScriptFiles files;
  private ScriptRemote remote;
  private ScriptCode code;

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

  public void analyze(String program) {
    if (depth > Findings.MAX_DEPTH) {
      findings.add(Flag.high("nesting-too-deep", "nests shells too deeply to check"));
      return;
    }
    src = new ScriptSource(program, dialect);
    values = new ScriptValues(src, judge, findings, cwd);
    // a program the block runs is read from the folder the block is in by then
    block = new ScriptBlock(src, values, findings, shell,
        inner -> new ScriptAnalyzer(dialect, judge, findings, nested, depth + 1, values.cwd(), venv).analyze(inner));
    environment = new ScriptEnvironment(src, findings);
    processes = new ScriptProcesses(block);
    files = new ScriptFiles(block);
    remote = new ScriptRemote(block);
    code = new ScriptCode(block);
    scan();
  }

  private void scan() {
    for (int k = 0; k < src.size(); k++) {
      Tok t = src.tok(k);
      if (t.kind() == TokenKind.SHELL) {
        block.runShell(values.stringParts(t, k));
        continue;
      }
      if (t.kind() == TokenKind.STRING) {
        String sql = t.literal() == null ? null : Databases.destructiveStatement(t.literal());
        if (sql != null) {
          findings.facts().destructiveData(sql);
        }
        continue;
      }
      if (t.kind() != TokenKind.NAME) {
        if (src.isSeparator(t) && k + 1 < src.size() && src.tok(k + 1).kind() == TokenKind.NAME && k > 0
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
      environment.read(name, dotted, k, after);
      if (after < src.size() && src.tok(after).is("(")) {
        int close = src.matching(after);
        call(name, dotted, k, after + 1, close);
      } else if (dialect == Dialect.RUBY && after < src.size() && startsArgument(src.tok(after)) && src.api(name) != null
          && (k == 0 || !src.tok(k - 1).is("def"))) {
        call(name, dotted, k, after, src.endOfStatement(after));
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
    if (src.tok(receiver).is("require") && receiver + 4 == dot && src.tok(receiver + 2).kind() == TokenKind.STRING) {
      String name = ScriptSource.module(src.tok(receiver + 2).text()) + "." + rest;
      environment.read(name, name, dot + 1, after);
      if (called) {
        call(src.canonical(name), name, dot + 1, after + 1, src.matching(after));
      }
      return;
    }
    if (called || dialect == Dialect.RUBY) {
      method(rest.substring(rest.lastIndexOf('.') + 1), receiver, after - 2, after);
    }
  }

  private static boolean startsArgument(Tok t) {
    return t.kind() == TokenKind.STRING || t.kind() == TokenKind.SHELL || t.kind() == TokenKind.NAME && !t.is("do") && !t.is("if")
        && !t.is("unless") && !t.is("rescue") && !t.is("and") && !t.is("or") && !t.is("then") || t.is("[");
  }

  private void call(String name, String dotted, int at, int from, int to) {
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
    int[] arg = ScriptBlock.argument(args, kw, api);
    switch (api.kind()) {
      case SHELL, ARGV, SPAWN, SYSTEM2, KILL, PROCESS_LIST -> processes.call(api, name, dotted, args, kw, arg);
      case DELETE, DELETE_RECURSIVE, DELETE_OPTION, WRITE, APPEND, OPEN, COPY, MOVE, READ, CHMOD, CHOWN, CHDIR, MKDIR,
           LINK, EXTRACT -> files.call(api, name, dotted, args, kw, arg);
      case LOAD, DESERIALIZE, EVAL, SOURCE, SOURCE_REMOTE, INSTALL_R, REMOVE_R, INSTALL_REMOTE_R ->
          code.call(api, name, dotted, args, kw, arg, from, to);
      case NETWORK, SOCKET, DNS, CLOUD_CLIENT, REMOTE_CLIENT -> remote.call(api, name, dotted, args, kw, arg);
    }
  }

  /** A method called on something that is not a module: destructive calls on remote clients, kills of others' processes. */
  private void method(String name, int receiverFrom, int dot, int parenOpen) {
    remote.method(name, receiverFrom);
    processes.method(name, receiverFrom);
    files.method(name, receiverFrom, dot, parenOpen);
  }
}
