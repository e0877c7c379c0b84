package io.interpreter4j.core.safety.bash;

import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Redirect;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * A command's redirections: files written ({@code >}, {@code >>}, what a heredoc or an echo puts there, code written
 * into a shell's start-up file), files read, {@code /dev/tcp} connections; and what the command reads on stdin.
 */
final class Redirections {

  private Redirections() {}

  static void judge(BashAnalyzer bash, Invocation inv) {
    Command c = inv.command();
    for (Redirect r : c.redirects()) {
      String t = r.target().text();
      if (t.startsWith("/dev/tcp/") || t.startsWith("/dev/udp/")) {
        bash.findings().network();
        continue;
      }
      if (r.op().equals(">&") || r.op().equals("<&")) {
        if (t.chars().allMatch(Character::isDigit) || t.equals("-")) {
          continue;
        }
      }
      if (r.writes()) {
        Target target = bash.write(r.target(), r.appends());
        if (target != null && bash.judge().isShellRc(target.path())) {
          contentOfRcWrite(bash, inv, c);
        }
        String content = target == null || r.appends() ? null : contentWritten(bash, inv, c);
        if (content != null) {
          bash.findings().wroteFile(target.path(), content);
        }
      } else if (r.reads()) {
        bash.paths().noteRead(bash.scope().through(bash.scope().resolve(r.target()).target()));
      }
    }
  }

  /** What {@code cat <<EOF > f} or {@code echo ... > f} puts in the file, when the block spells it out. */
  private static String contentWritten(BashAnalyzer bash, Invocation inv, Command c) {
    String name = inv.name();
    if ((name.equals("cat") || name.equals("tee")) && !c.heredocs().isEmpty()) {
      return c.heredocs().get(0);
    }
    if (name.equals("echo") || name.equals("printf")) {
      return InterpreterCommands.echoed(bash, inv);
    }
    return null;
  }

  /** What is written into a shell rc file runs in every later shell, so it is analysed as code too. */
  private static void contentOfRcWrite(BashAnalyzer bash, Invocation inv, Command c) {
    if (inv.name().equals("echo") || inv.name().equals("printf")) {
      List<String> content = new ArrayList<>();
      for (Word w : inv.args()) {
        String t = w.text();
        if (content.isEmpty() && t.startsWith("-")) {
          continue;
        }
        content.add(t);
      }
      bash.child().analyze(String.join(" ", content).replace("\\n", "\n"));
    }
    for (String body : c.heredocs()) {
      bash.child().analyze(body);
    }
  }

  /** What the command reads on standard input when the block spells it out: heredocs and here-strings. */
  static String stdin(BashAnalyzer bash, Command c) {
    StringBuilder sb = new StringBuilder();
    for (String h : c.heredocs()) {
      sb.append(h);
    }
    for (Redirect r : c.redirects()) {
      if (r.op().equals("<<<")) {
        String v = bash.scope().valueOf(r.target());
        sb.append(v == null ? r.target().text() : v).append('\n');
      }
    }
    return sb.toString();
  }
}
