package io.interpreter4j.core.safety.python;

import static io.interpreter4j.core.safety.python.PythonApis.SHELL_ARGV_OR_STRING;
import static io.interpreter4j.core.safety.python.PythonApis.SHELL_ARGV_SECOND;
import static io.interpreter4j.core.safety.python.PythonApis.SHELL_STRING;
import static io.interpreter4j.core.safety.python.PythonApis.SHELL_VARARGS;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.code.ShellText;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.code.ValueParts;
import io.interpreter4j.core.safety.python.PythonApis.Origin;
import io.interpreter4j.core.safety.python.PythonLexer.Tok;
import io.interpreter4j.core.safety.python.PythonSource.Assignment;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Python's processes: shell-outs ({@code subprocess}, {@code os.system}, {@code os.exec*}, IPython's
 * {@code get_ipython().system}) handed to the bash analysis, signals to other processes, fork loops.
 */
final class ProcessCalls extends PythonCallRules {

  ProcessCalls(PythonBlock block) {
    super(block);
  }

  /** Judges the call of {@code name} if it starts or signals a process; whether it was one. */
  boolean call(String name, List<int[]> args, Map<String, int[]> kw) {
    if (SHELL_STRING.contains(name) || SHELL_ARGV_OR_STRING.contains(name)) {
      int[] a = args.isEmpty() ? kw.get("args") : args.get(0);
      if (a != null && kw.containsKey("input") && block.fetchesFromNetwork(kw.get("input")[0], kw.get("input")[1], 0)
          && runsInterpreter(a)) {
        findings.add(Flag.high("run-downloaded",
            "feeds code downloaded from the network to an interpreter (" + name + ")"));
      }
      if (a != null) {
        shellOut(a[0], a[1]);
      }
    } else if (SHELL_ARGV_SECOND.contains(name)) {
      if (args.size() >= 2) {
        shellOut(args.get(1)[0], args.get(1)[1]);
      }
    } else if (SHELL_VARARGS.contains(name)) {
      if (!args.isEmpty()) {
        List<List<Part>> argv = new ArrayList<>();
        for (int[] a : name.startsWith("os.execl") ? args.subList(1, args.size()) : args) {
          argv.add(values.evalString(a[0], a[1]));
        }
        block.runShell().accept(PythonBlock.SHELL_TEXT.command(argv));
      }
    } else if (name.equals("os.kill") || name.equals("os.killpg")) {
      if (!args.isEmpty()) {
        kill(name, args.get(0));
      }
    } else {
      return false;
    }
    return true;
  }

  /** Judges {@code receiver.name(...)} if it signals a listed process or runs a shell; whether it was such a method. */
  boolean method(String name, int receiverFrom, int dot, List<int[]> args) {
    switch (name) {
      case "kill", "terminate", "send_signal" -> {
        if (block.rootedIn(receiverFrom, Origin.PROCESS_LIST, 0)) {
          findings.facts().foreignSignal(src.tok(receiverFrom).text() + "." + name + "()");
        }
      }
      case "system", "getoutput" -> {
        if (dot - receiverFrom >= 1 && src.tok(receiverFrom).text().equals("get_ipython") && !args.isEmpty()) {
          shellOut(args.get(0)[0], args.get(0)[1]);
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  private void kill(String name, int[] a) {
    if (a[1] - a[0] == 2 && src.tok(a[0]).is("-") && src.tok(a[0] + 1).text().equals("1")) {
      findings.add(Flag.high("kill-all", "kills every process you own (os.kill(-1, ...))"));
    } else if (a[1] - a[0] == 1 && src.tok(a[0]).text().equals("1")) {
      findings.add(Flag.high("kill-all", "signals init, process 1 (" + name + "(1, ...))"));
    } else if (!ownPid(a[0], a[1])) {
      findings.facts().foreignSignal(name);
    }
  }

  /** A pid the block owns: its own (os.getpid()), or a child it started (proc.pid of a Popen). */
  private boolean ownPid(int from, int to) {
    if (to - from == 1 && src.tok(from).kind() == TokenKind.NUMBER) {
      return true;
    }
    for (int j = from; j < to; j++) {
      Tok t = src.tok(j);
      if (t.kind() != TokenKind.NAME) {
        continue;
      }
      String n = src.canonical(src.dotted(j));
      if (n.equals("os.getpid") || n.equals("os.getppid") || n.startsWith("subprocess.Popen")) {
        return true;
      }
      if (j + 2 < to && src.tok(j + 1).is(".") && src.tok(j + 2).is("pid")) {
        Assignment a = src.assignmentBefore(t.text(), j);
        if (a != null && a.from() < a.to() && src.tok(a.from()).kind() == TokenKind.NAME
            && src.canonical(src.dotted(a.from())).startsWith("subprocess.")) {
          return true;
        }
      }
    }
    return false;
  }

  /** A command given as an argv list, a string, or a split string: analysed as the shell line it is. */
  private void shellOut(int from, int to) {
    List<List<Part>> argv = values.evalList(from, to);
    if (argv != null && runsInterpreter(new int[] {from, to}) && block.fetchesFromNetwork(from, to, 0)) {
      // ["bash", "-c", script] with script fetched: the interpreter runs the download
      findings.add(Flag.high("run-downloaded", "runs code downloaded from the network through an interpreter"));
    }
    if (argv != null) {
      block.runShell().accept(PythonBlock.SHELL_TEXT.command(argv));
      return;
    }
    List<Part> s = splitSource(from, to);
    if (s == null) {
      s = values.evalString(from, to);
    }
    if (s != null && !s.isEmpty() && s.get(0).kind() != PartKind.TEXT) {
      // the command itself is computed: code fetched earlier in the block, or something nobody has read
      if (block.fetchesFromNetwork(from, to, 0)) {
        findings.add(Flag.high("run-downloaded", "runs a command downloaded from the network"));
        return;
      }
      findings.facts().computedCode("a computed shell command");
    }
    if (s != null) {
      block.runShell().accept(PythonBlock.SHELL_TEXT.source(s));
    }
  }

  /** Whether an argv list starts an interpreter (bash, python, node...), also behind sudo or env. */
  private boolean runsInterpreter(int[] range) {
    List<List<Part>> argv = values.evalList(range[0], range[1]);
    if (argv == null) {
      return false;
    }
    List<String> words = new ArrayList<>();
    for (int k = 0; k < argv.size() && k < 4; k++) {
      words.add(ValueParts.literal(argv.get(k)));
    }
    return ShellText.interpreter(words, false) != null;
  }

  /** {@code "git push -f".split()} and {@code shlex.split("...")}: the string is the command line. */
  private List<Part> splitSource(int from, int to) {
    if (to - from < 4 || !src.tok(to - 1).is(")")) {
      return null;
    }
    int open = src.matchingBackwards(to - 1);
    if (open >= from + 2 && src.tok(open - 1).is("split") && src.tok(open - 2).is(".")
        && !src.isModuleName(from, open - 2)) {
      return values.evalString(from, open - 2);
    }
    if (src.tok(from).kind() == TokenKind.NAME && src.canonical(src.dotted(from)).equals("shlex.split")) {
      int paren = from + PythonSource.dottedLength(src.dotted(from));
      if (paren < to && src.tok(paren).is("(")) {
        return values.evalString(paren + 1, src.matching(paren));
      }
    }
    return null;
  }

  /** {@code while ...: os.fork()}: a fork bomb. */
  void forkLoop(int whileAt) {
    int colon = whileAt;
    while (colon < src.size() && !src.tok(colon).is(":") && src.tok(colon).kind() != TokenKind.NEWLINE) {
      colon++;
    }
    if (colon >= src.size() || !src.tok(colon).is(":")) {
      return;
    }
    int indent = src.indentOf(src.tok(whileAt).line());
    int j = colon + 1;
    boolean sameLine = j < src.size() && src.tok(j).kind() != TokenKind.NEWLINE;
    for (; j < src.size(); j++) {
      Tok t = src.tok(j);
      if (sameLine && t.kind() == TokenKind.NEWLINE) {
        break;
      }
      if (!sameLine && t.kind() != TokenKind.NEWLINE && t.line() > src.tok(colon).line() && src.indentOf(t.line()) <= indent) {
        break;
      }
      if (t.kind() == TokenKind.NAME && (t.text().equals("fork") || t.text().equals("forkpty"))
          && j + 1 < src.size() && src.tok(j + 1).is("(")) {
        String owner = j >= 2 && src.tok(j - 1).is(".") ? src.canonical(src.tok(j - 2).text()) : src.canonical(t.text());
        if (owner.equals("os") || owner.startsWith("os.")) {
          findings.add(Flag.high("fork-bomb", "forks processes in an endless loop (while ...: os.fork())"));
          return;
        }
      }
    }
  }
}
