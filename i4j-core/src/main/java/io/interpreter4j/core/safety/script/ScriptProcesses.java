package io.interpreter4j.core.safety.script;

import static io.interpreter4j.core.safety.code.ValueParts.text;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.code.ShellText;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.code.ValueParts;
import io.interpreter4j.core.safety.script.ScriptApis.Api;
import io.interpreter4j.core.safety.script.ScriptApis.Kind;
import io.interpreter4j.core.safety.script.ScriptLexer.Tok;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The processes of a JavaScript, Ruby or R block: shell-outs ({@code exec}, {@code spawn}, {@code system},
 * {@code system2}, backticks) handed to the bash analysis, signals to processes it did not start, process listings.
 */
final class ScriptProcesses extends ScriptCallRules {

  private static final Set<String> OWN_PIDS = Set.of(
      "process.pid", "Process.pid", "Sys.getpid", "$$", "process.ppid");

  ScriptProcesses(ScriptBlock block) {
    super(block);
  }

  /** Judges a call of a process API; {@code arg} is its main argument. */
  void call(Api api, String name, String dotted, List<int[]> args, Map<String, int[]> kw, int[] arg) {
    switch (api.kind()) {
      case SHELL -> {
        if (arg != null) {
          shellString(arg);
        }
      }
      case ARGV, SPAWN -> argv(args, kw, name);
      case SYSTEM2 -> system2(args, kw);
      case KILL -> kill(arg, dotted);
      case PROCESS_LIST -> findings.facts().processList(dotted);
      default -> throw new IllegalArgumentException("not a process API: " + api.kind());
    }
  }

  /** {@code p.kill()} on a process found in a listing: a signal to a process the block did not start. */
  void method(String name, int receiverFrom) {
    String root = receiverFrom >= 0 && receiverFrom < src.size() ? src.tok(receiverFrom).text() : "";
    if ((name.equals("kill") || name.equals("terminate") || name.equals("send_signal") || name.equals("signal"))
        && block.rootedIn(receiverFrom, Set.of(Kind.PROCESS_LIST), 0)) {
      findings.facts().foreignSignal(root + "." + name + "()");
    }
  }

  private void shellString(int[] arg) {
    List<Part> v = values.eval(arg[0], arg[1]);
    if (v == null) {
      findings.facts().computedCode("shell command " + src.exprName(arg[0], arg[1]));
      return;
    }
    if (block.fetchesFromNetwork(arg[0], arg[1], 0)) {
      findings.add(Flag.high("run-downloaded", "runs a command fetched from the network"));
    }
    block.runShell(v);
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
        fetchedCode |= block.fetchesFromNetwork(a[0], a[1], 0);
      }
      for (String key : List.of("stdin_data", "input")) {
        fetchedCode |= kw.containsKey(key) && block.fetchesFromNetwork(kw.get(key)[0], kw.get(key)[1], 0);
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
          joined.add(text(" "));
        }
        joined.addAll(w == null ? List.of(ScriptValues.unknown("arg")) : w);
      }
      if (words.size() == 1 && words.get(0) == null) {
        findings.facts().computedCode("command " + name);
        return;
      }
      block.runShell(joined);
      return;
    }
    shell.analyze(ScriptBlock.SHELL_TEXT.command(words));
  }

  /** The interpreter an argv starts ("bash", "python3"), also behind sudo or env, or null. */
  private String interpreterOf(List<int[]> argv) {
    List<String> words = new ArrayList<>();
    for (int[] a : argv) {
      List<List<Part>> list = values.evalList(a[0], a[1]);
      if (list != null) {
        for (List<Part> w : list) {
          words.add(ValueParts.literal(w));
        }
      } else {
        words.add(values.literalOf(a));
      }
      if (words.size() >= 4) {
        break;
      }
    }
    return ShellText.interpreter(words, true);
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
        line.add(text(" "));
        line.addAll(w == null ? List.of(ScriptValues.unknown("arg")) : w);
      }
    }
    block.runShell(line);
  }

  private void kill(int[] arg, String how) {
    if (arg == null) {
      return;
    }
    if (arg[1] - arg[0] == 2 && src.tok(arg[0]).is("-") && src.tok(arg[0] + 1).text().equals("1")) {
      findings.add(Flag.high("kill-all", "kills every process you own (" + how + "(-1))"));
      return;
    }
    if (arg[1] - arg[0] == 1 && src.tok(arg[0]).kind() == TokenKind.NUMBER) {
      if (src.tok(arg[0]).text().equals("1")) {
        findings.add(Flag.high("kill-all", "signals init, process 1 (" + how + "(1))"));
      }
      return;
    }
    for (int j = arg[0]; j < arg[1]; j++) {
      Tok t = src.tok(j);
      if (t.kind() == TokenKind.NAME && OWN_PIDS.contains(src.canonical(src.dotted(j)))) {
        return;
      }
    }
    int root = arg[0];
    while (root < arg[1] && src.tok(root).kind() != TokenKind.NAME) {
      root++;
    }
    if (root < arg[1] && (src.tok(root).is("Number") || src.tok(root).is("parseInt") || src.tok(root).is("Integer")
        || src.tok(root).is("as.integer")) && root + 2 < arg[1]) {
      root += 2;
    }
    if (root < arg[1] && block.rootedIn(root, Set.of(Kind.SPAWN, Kind.ARGV), 0)) {
      return;
    }
    findings.facts().foreignSignal(how);
  }
}
