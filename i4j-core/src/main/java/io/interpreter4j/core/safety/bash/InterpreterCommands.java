package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.abbreviate;
import static io.interpreter4j.core.safety.bash.BashArgs.operands;
import static io.interpreter4j.core.safety.shell.ShellWords.OTHER_INTERPRETERS;
import static io.interpreter4j.core.safety.shell.ShellWords.SHELLS;
import static io.interpreter4j.core.safety.shell.ShellWords.basename;
import static io.interpreter4j.core.safety.shell.ShellWords.isVersioned;

import io.interpreter4j.core.intercept.Languages;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.shell.ShellLexer;
import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Redirect;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Code the block runs inside itself: command substitutions, interpreters given a program ({@code -c}, a file, a
 * heredoc, a pipe), {@code eval}, {@code trap}, {@code source}, a Makefile's recipes, a script it wrote earlier, and
 * in-place edits by perl and ruby. Programs in other languages go to {@link BashAnalyzer#nested}.
 */
final class InterpreterCommands {

  private InterpreterCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, InterpreterCommands::eval, "eval");
    CommandHandler.register(table, InterpreterCommands::trap, "trap");
    CommandHandler.register(table, InterpreterCommands::source, "source", ".");
    CommandHandler.register(table, InterpreterCommands::make, "make", "gmake");
  }

  /**
   * Interpreters, which run the program they are given: {@code python -c}, {@code sh -c}, {@code node -e}, a script
   * file, a heredoc or a pipe into them. Whether the command was one.
   */
  static boolean interprets(BashAnalyzer bash, Invocation inv) {
    String name = inv.name();
    if (isVersioned(name, "python") || name.equals("py") || isVersioned(name, "pypy")) {
      python(bash, inv);
    } else if (SHELLS.contains(name)) {
      shell(bash, inv);
    } else if (OTHER_INTERPRETERS.contains(name)) {
      otherInterpreter(bash, inv);
    } else {
      return false;
    }
    return true;
  }

  /** {@code ./run.sh}, {@code /tmp/x}: a program named by its path, downloaded or written by the block earlier. */
  static void runsPath(BashAnalyzer bash, Invocation inv) {
    if (inv.nameWord().literal().contains("/")) {
      BashScope.Resolved r = bash.scope().resolve(inv.nameWord());
      if (r.target() != null && bash.scope().isDownloaded(r.target().path())) {
        bash.findings().add(Flag.high("run-downloaded", "runs a file downloaded in the same block"));
      }
      runWritten(bash, r.target(), null);
    }
  }

  private static void eval(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    if (!args.isEmpty()) {
      FetchedCode.runsFetched(bash, "eval", args);
      bash.child().analyze(String.join(" ", bash.scope().expanded(args)));
      for (Word a : args) {
        if (a.literal() == null && bash.scope().valueOf(a) == null) {
          bash.findings().facts().computedCode("eval " + abbreviate(a.text()));
        }
      }
    }
  }

  static void substitutions(BashAnalyzer bash, Command c) {
    List<Word> all = new ArrayList<>(c.words());
    for (Redirect r : c.redirects()) {
      all.add(r.target());
    }
    for (Word w : all) {
      for (Part p : w.parts()) {
        if (p.kind() == PartKind.SUBST && !BashScope.isMktemp(p.text())) {
          bash.child().analyze(p.text());
        }
      }
    }
  }

  private static void python(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    FetchedCode.hereStringFromDownload(bash, inv);
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (t.equals("-c") && k + 1 < args.size()) {
        FetchedCode.inlineFromDownload(bash, inv, args.get(k + 1));
        bash.nested(Languages.PYTHON, args.get(k + 1).text());
        return;
      }
      if (t.equals("-m") && k + 1 < args.size()) {
        String module = args.get(k + 1).text();
        List<Word> rest = args.subList(k + 2, args.size());
        if (module.equals("pip")) {
          PackageCommands.pip(bash, rest, inv.nameWord(), inv.name() + " -m pip");
        } else if (module.equals("venv") || module.equals("virtualenv")) {
          operands(rest, Set.of("--prompt")).stream().findFirst().ifPresent(bash::created);
        } else if (module.equals("http.server") || module.equals("SimpleHTTPServer")) {
          bash.findings().network();
          Word dir = null;
          for (int j = 0; j + 1 < rest.size(); j++) {
            if (rest.get(j).text().equals("-d") || rest.get(j).text().equals("--directory")) {
              dir = rest.get(j + 1);
            }
          }
          NetworkCommands.serves(bash, "python -m " + module, dir, bash.scope().expanded(rest));
        }
        return;
      }
      if (t.equals("-W") || t.equals("-X") || t.equals("-Q")) {
        k++;
        continue;
      }
      if (t.equals("-")) {
        break;
      }
      if (!t.startsWith("-")) {
        runsFile(bash, inv, args.get(k));
        return;
      }
    }
    FetchedCode.pipedFromDownload(bash, inv);
    for (String body : inv.command().heredocs()) {
      bash.nested(Languages.PYTHON, body);
    }
  }

  private static void shell(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    FetchedCode.hereStringFromDownload(bash, inv);
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (t.startsWith("-") && !t.startsWith("--") && t.indexOf('c') > 0) {
        if (k + 1 < args.size()) {
          FetchedCode.runsFetched(bash, inv.name() + " -c", List.of(args.get(k + 1)));
          // sh -c "$CMD", sh -c "$(printf 'rm -rf %s' ~)": the command is the value, when the block knows it
          String v = args.get(k + 1).literal() == null ? bash.scope().valueOf(args.get(k + 1)) : null;
          bash.child().analyze(v != null ? v : args.get(k + 1).text());
        }
        return;
      }
      if (t.equals("-o") || t.equals("+o")) {
        k++;
        continue;
      }
      if (t.equals("-s") || t.equals("-") || t.equals("--")) {
        break;
      }
      if (!t.startsWith("-") && !t.startsWith("+")) {
        runsFile(bash, inv, args.get(k));
        return;
      }
    }
    FetchedCode.pipedFromDownload(bash, inv);
    for (String body : inv.command().heredocs()) {
      bash.child().analyze(body);
    }
  }

  private static void otherInterpreter(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    FetchedCode.hereStringFromDownload(bash, inv);
    inPlaceEdit(bash, inv);
    if (inv.name().equals("php") && inv.texts().contains("-S")) {
      int t = inv.texts().indexOf("-t");
      NetworkCommands.serves(bash, "php -S", t >= 0 && t + 1 < args.size() ? args.get(t + 1) : null, inv.texts());
      return;
    }
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      boolean program = t.equals("-e") || t.equals("-E") || t.equals("--eval") || t.equals("-r") || t.equals("-c")
          || t.startsWith("-") && !t.startsWith("--") && t.endsWith("e") && (inv.name().equals("perl") || inv.name().equals("ruby"));
      if (program && k + 1 < args.size()) {
        FetchedCode.inlineFromDownload(bash, inv, args.get(k + 1));
        bash.nested(inv.name(), args.get(k + 1).text());
        return;
      }
      if (!t.startsWith("-")) {
        runsFile(bash, inv, args.get(k));
        return;
      }
    }
    FetchedCode.pipedFromDownload(bash, inv);
    for (String body : inv.command().heredocs()) {
      // node <<'EOF' ... EOF, ruby - <<EOF: the program comes on standard input
      bash.nested(inv.name(), body);
    }
  }

  private static void runsFile(BashAnalyzer bash, Invocation inv, Word script) {
    for (Part p : script.parts()) {
      if (p.kind() == PartKind.SUBST && FetchedCode.runsDownloader(bash, p.text())) {
        bash.findings().add(Flag.high("pipe-to-shell", "runs a downloaded script (" + inv.name() + " <(...))"));
        return;
      }
    }
    Target t = bash.scope().target(script);
    if (t != null && bash.scope().isDownloaded(t.path())) {
      bash.findings().add(Flag.high("run-downloaded", "runs a script downloaded in the same block"));
    }
    runWritten(bash, t, inv.name());
  }

  /** A file the block wrote earlier and now runs: its content is analysed as the program it is. */
  static void runWritten(BashAnalyzer bash, Target t, String interpreter) {
    if (t == null || t.glob() != null) {
      return;
    }
    String content = bash.findings().writtenContent(t.path());
    if (content == null) {
      return;
    }
    String language = interpreter != null ? interpreter : shebang(content);
    bash.nested(language, content);
  }

  /** "python3" for {@code #!/usr/bin/env python3}; "bash" when there is no shebang. */
  private static String shebang(String content) {
    if (!content.startsWith("#!")) {
      return "bash";
    }
    int eol = content.indexOf('\n');
    String line = (eol < 0 ? content : content.substring(0, eol)).substring(2).strip();
    String[] words = line.split("\\s+");
    String prog = basename(words[0]);
    return prog.equals("env") && words.length > 1 ? words[words.length - 1] : prog;
  }

  /** make -f FILE, or make with a Makefile the block wrote: every recipe line is shell code that runs. */
  private static void make(BashAnalyzer bash, Invocation inv) {
    List<String> texts = inv.texts();
    List<String> names = new ArrayList<>();
    for (int k = 0; k < texts.size(); k++) {
      String t = texts.get(k);
      if ((t.equals("-f") || t.equals("--file") || t.equals("--makefile")) && k + 1 < texts.size()) {
        names.add(texts.get(k + 1));
      } else if (t.startsWith("--file=") || t.startsWith("--makefile=")) {
        names.add(t.substring(t.indexOf('=') + 1));
      }
    }
    if (names.isEmpty()) {
      names = List.of("GNUmakefile", "makefile", "Makefile");
    }
    for (String n : names) {
      Target t = bash.scope().resolve(ShellLexer.word(n)).target();
      String content = t == null ? null : bash.findings().writtenContent(t.path());
      if (content != null) {
        bash.child().analyze(Makefiles.recipes(content));
        return;
      }
    }
  }

  private static void source(BashAnalyzer bash, Invocation inv) {
    FetchedCode.hereStringFromDownload(bash, inv);
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
    if (args.isEmpty()) {
      return;
    }
    Word file = args.get(0);
    for (Part p : file.parts()) {
      if (p.kind() == PartKind.SUBST && FetchedCode.runsDownloader(bash, p.text())) {
        bash.findings().add(Flag.high("pipe-to-shell", "runs a downloaded script (source <(...))"));
      }
    }
    String t = texts.get(0);
    if (t.endsWith("/bin/activate") || t.equals("activate") || t.endsWith("/Scripts/activate")) {
      bash.scope().activateVenv();
    }
    Target target = bash.scope().target(file);
    if (target != null && bash.scope().isDownloaded(target.path())) {
      bash.findings().add(Flag.high("run-downloaded", "runs a script downloaded in the same block"));
    }
    runWritten(bash, target, "bash");
  }

  /** {@code perl -pi -e ... FILE}, {@code ruby -i -pe ... FILE}: every file operand is rewritten in place. */
  private static void inPlaceEdit(BashAnalyzer bash, Invocation inv) {
    if (!inv.name().equals("perl") && !inv.name().equals("ruby")) {
      return;
    }
    List<Word> args = inv.args();
    boolean inPlace = false;
    boolean programSeen = false;
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (t.startsWith("-") && !t.startsWith("--") && t.length() > 1) {
        inPlace |= t.indexOf('i') > 0;
        if (t.endsWith("e") || t.equals("-E")) {
          k++;
          programSeen = true;
        }
      } else if (inPlace && programSeen) {
        bash.write(args.get(k), false);
      } else {
        programSeen = true; // the script file comes first when there is no -e
      }
    }
  }

  /** The text echo or printf writes, when its arguments are known; null otherwise. */
  static String echoed(BashAnalyzer bash, Invocation inv) {
    List<String> out = new ArrayList<>();
    for (Word w : inv.args()) {
      String v = bash.scope().valueOf(w);
      if (v == null) {
        return null;
      }
      if (out.isEmpty() && v.startsWith("-") && inv.name().equals("echo")) {
        continue;
      }
      out.add(v);
    }
    String s = String.join(" ", out);
    return inv.name().equals("printf") || inv.texts().contains("-e") ? s.replace("\\n", "\n") : s;
  }

  private static void trap(BashAnalyzer bash, Invocation inv) {
    if (!inv.args().isEmpty() && !inv.texts().get(0).startsWith("-")) {
      bash.child().analyze(inv.texts().get(0));
    }
  }
}
