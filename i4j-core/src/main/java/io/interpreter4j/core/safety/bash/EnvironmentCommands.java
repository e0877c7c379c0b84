package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.suffix;
import static io.interpreter4j.core.safety.shell.ShellWords.isAssignment;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.rules.SecretNames;
import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Redirect;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.List;
import java.util.Map;

/**
 * The shell's own state: variables the block assigns (their values, pids of its own processes, values fetched from
 * the network), secrets the environment holds, reads of the whole environment, and wiping the shell's history.
 */
final class EnvironmentCommands {

  private EnvironmentCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, EnvironmentCommands::history, "history");
    CommandHandler.register(table, EnvironmentCommands::unset, "unset");
    CommandHandler.register(table, EnvironmentCommands::set, "set");
    CommandHandler.register(table, EnvironmentCommands::declare, "export", "declare", "typeset", "local", "readonly");
    CommandHandler.register(table, EnvironmentCommands::printenv, "printenv");
    CommandHandler.register(table, EnvironmentCommands::compgen, "compgen");
  }

  static void assignment(BashAnalyzer bash, Word w, boolean persistent) {
    Part first = w.parts().get(0);
    String text = first.text();
    int eq = text.indexOf('=');
    String name = text.substring(0, eq);
    if (name.endsWith("+")) {
      bash.scope().set(name.substring(0, name.length() - 1), null);
      return;
    }
    Word value = suffix(w, eq + 1);
    if (value != null && value.parts().size() == 1 && value.parts().get(0).kind() == PartKind.VAR
        && value.parts().get(0).text().equals("!")) {
      bash.scope().ownPid(name, true);
    } else {
      bash.scope().ownPid(name, false);
    }
    String v = value == null ? "" : bash.scope().valueOf(value);
    if (persistent) {
      bash.findings().fetchedVariable(name, value != null && FetchedCode.holdsFetched(bash, value));
    }
    if (name.equals("HISTFILE") && (v == null || v.isEmpty() || v.equals("/dev/null"))
        || (name.equals("HISTSIZE") || name.equals("HISTFILESIZE")) && "0".equals(v)) {
      bash.findings().add(Flag.high("history-wipe", "disables shell history (" + name + "=" + (v == null ? "" : v) + ")"));
    }
    if (persistent) {
      bash.scope().set(name, v);
    }
  }

  /** {@code $GITHUB_TOKEN}: a secret the environment holds, noted for the combinations that send it out. */
  static void secretVariables(BashAnalyzer bash, Command c) {
    for (Word w : c.words()) {
      secretVariables(bash, w);
    }
    for (Redirect r : c.redirects()) {
      secretVariables(bash, r.target());
    }
  }

  private static void secretVariables(BashAnalyzer bash, Word w) {
    for (Part p : w.parts()) {
      if (p.kind() == PartKind.VAR && !bash.scope().isSet(p.text()) && SecretNames.isSecret(p.text())) {
        bash.findings().facts().secretVariable(p.text());
      }
    }
  }

  private static void history(BashAnalyzer bash, Invocation inv) {
    if (inv.texts().stream().anyMatch(t -> t.startsWith("-") && t.contains("c"))) {
      bash.findings().add(Flag.high("history-wipe", "clears shell history (history -c)"));
    }
  }

  private static void unset(BashAnalyzer bash, Invocation inv) {
    if (inv.texts().contains("HISTFILE")) {
      bash.findings().add(Flag.high("history-wipe", "disables shell history (unset HISTFILE)"));
    }
  }

  private static void set(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    if (texts.isEmpty()) {
      bash.findings().environmentRead();
    } else if (texts.contains("+o") && texts.contains("history")) {
      bash.findings().add(Flag.high("history-wipe", "disables shell history (set +o history)"));
    }
  }

  private static void declare(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
    boolean any = false;
    for (Word w : args) {
      if (isAssignment(w)) {
        assignment(bash, w, true);
        any = true;
      }
    }
    if (!any && texts.stream().allMatch(t -> t.startsWith("-"))
        && (texts.isEmpty() || texts.contains("-p") || texts.contains("-x"))) {
      bash.findings().environmentRead();
    }
  }

  private static void printenv(BashAnalyzer bash, Invocation inv) {
    if (inv.texts().stream().allMatch(t -> t.startsWith("-"))) {
      bash.findings().environmentRead();
    }
  }

  private static void compgen(BashAnalyzer bash, Invocation inv) {
    if (inv.texts().contains("-e") || inv.texts().contains("-v")) {
      bash.findings().environmentRead();
    }
  }
}
