package io.interpreter4j.core.safety.python;

import io.interpreter4j.core.safety.analysis.Findings;
import io.interpreter4j.core.safety.analysis.ShellEffects;
import io.interpreter4j.core.safety.code.EvalDepth;
import io.interpreter4j.core.safety.code.Memo;
import io.interpreter4j.core.safety.code.ShellText;
import io.interpreter4j.core.safety.code.TokenKind;
import io.interpreter4j.core.safety.python.PythonApis.Origin;
import io.interpreter4j.core.safety.python.PythonLexer.Tok;
import io.interpreter4j.core.safety.python.PythonSource.Assignment;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One python program under analysis, as its call rules see it: its source and values, the findings and shell effects
 * they feed, and the look-ups through its assignments (was this fetched from the network, does this come from a
 * client, was this file downloaded).
 *
 * @param src      the program's tokens and names
 * @param values   its expressions' values
 * @param findings what the analysis found so far
 * @param shell    the file effects and shell commands, judged as bash's own
 * @param runShell records and analyses a shell command line the program runs
 * @param python   analyses a python program the block runs (exec of a literal, a file it wrote)
 * @param memo     answers of the recursive look-ups
 */
record PythonBlock(PythonSource src, PythonValues values, Findings findings, ShellEffects shell,
                   Consumer<String> runShell, Consumer<String> python, Memo memo) {

  /** How python's unknown values read as shell variables ({@code ${PY_name}}). */
  static final ShellText SHELL_TEXT = new ShellText("PY_", Integer.MAX_VALUE, "\"${PY_ARG}\"");

  /** Whether an expression, or a name it was assigned from (transitively), calls the network. */
  boolean fetchesFromNetwork(int from, int to, int level) {
    if (level > EvalDepth.MAX) {
      return false;
    }
    return memo.answer(((long) from << 32) | (to & 0xffffffffL), () -> fetchesUncached(from, to, level));
  }

  private boolean fetchesUncached(int from, int to, int level) {
    for (int j = from; j < to && j < src.size(); j++) {
      Tok t = src.tok(j);
      if (t.kind() != TokenKind.NAME || j > from && src.tok(j - 1).is(".")) {
        continue;
      }
      if (PythonApis.isNetwork(src.canonical(src.dotted(j)))) {
        return true;
      }
      Assignment a = src.assignmentBefore(t.text(), j);
      if (a != null && a.at() != j && a.from() < from && fetchesFromNetwork(a.from(), a.to(), level + 1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the expression starting at {@code from} comes from {@code origin} (a remote client, a process listing, a
   * remote shell), directly or through the names it was assigned from.
   */
  boolean rootedIn(int from, Origin origin, int level) {
    if (from < 0 || from >= src.size() || level > EvalDepth.MAX || src.tok(from).kind() != TokenKind.NAME) {
      return false;
    }
    long key = -1L - ((long) from * Origin.values().length + origin.ordinal());
    return memo.answer(key, () -> rootedInUncached(from, origin, level));
  }

  private boolean rootedInUncached(int from, Origin origin, int level) {
    if (PythonApis.isOrigin(src.canonical(src.dotted(from)), origin)) {
      return true;
    }
    Assignment a = src.assignmentBefore(src.tok(from).text(), from);
    if (a == null) {
      return false;
    }
    for (int j = a.from(); j < a.to() && j < src.size(); j++) {
      if (src.tok(j).kind() == TokenKind.NAME && (j == a.from() || !src.tok(j - 1).is(".")) && rootedIn(j, origin, level + 1)) {
        return true;
      }
    }
    return false;
  }

  boolean isDownloadedPath(int[] range) {
    Optional<Word> w = values.pathArg(range);
    return w.isPresent() && shell.isDownloaded(w.get());
  }

  /** {@code open(p).read()}, {@code f.read()} with f bound to {@code open(p)}: whether p is a file the block downloaded. */
  boolean readsDownloadedFile(int[] range) {
    Optional<Word> file = values.openedFile(range);
    return file.isPresent() && shell.isDownloaded(file.get());
  }
}
