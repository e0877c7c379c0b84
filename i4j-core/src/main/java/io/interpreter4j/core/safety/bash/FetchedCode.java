package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.abbreviate;
import static io.interpreter4j.core.safety.shell.ShellWords.SHELLS;

import io.interpreter4j.core.intercept.Languages;
import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.shell.ShellLexer;
import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Redirect;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.List;
import java.util.Set;

/**
 * Code fetched from the network that runs unread: a download piped into an interpreter, decoded and piped in, passed
 * as {@code -c}, {@code eval} or a here-string, or held in a variable assigned from a download.
 */
final class FetchedCode {

  private static final Set<String> DOWNLOADERS = Set.of("curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lwp-download");

  private FetchedCode() {}

  /** Whether shell code runs a downloader (curl, wget...) in any of its commands. */
  static boolean runsDownloader(BashAnalyzer bash, String code) {
    for (Command c : ShellLexer.parse(code)) {
      Invocation inv = Invocation.of(c, bash.scope(), null);
      if (DOWNLOADERS.contains(inv.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a word's value is what a download printed: a substitution that runs curl or wget, or a variable the block
   * assigned from one.
   */
  static boolean holdsFetched(BashAnalyzer bash, Word w) {
    for (Part p : w.parts()) {
      if (p.kind() == PartKind.SUBST && runsDownloader(bash, p.text())
          || p.kind() == PartKind.VAR && bash.findings().isFetchedVariable(p.text())) {
        return true;
      }
    }
    return false;
  }

  /** eval, sh -c, a here-string into an interpreter, echo into sh: code that is a download's output runs. */
  static void runsFetched(BashAnalyzer bash, String how, List<Word> code) {
    for (Word w : code) {
      if (holdsFetched(bash, w)) {
        bash.findings().add(Flag.high("run-downloaded", "runs code fetched from the network (" + how + " " + abbreviate(w.text()) + ")"));
        return;
      }
    }
  }

  /** {@code bash <<< "$S"}, {@code python3 - <<< "$(curl ...)"}: the interpreter reads a download as its program. */
  static void hereStringFromDownload(BashAnalyzer bash, Invocation inv) {
    for (Redirect r : inv.command().redirects()) {
      if (r.op().equals("<<<")) {
        runsFetched(bash, inv.name() + " <<<", List.of(r.target()));
      }
    }
  }

  /** {@code node -e "$(curl ...)"}, {@code python3 -c "$S"} with S downloaded: the program is whatever the download holds. */
  static void inlineFromDownload(BashAnalyzer bash, Invocation inv, Word program) {
    if (holdsFetched(bash, program)) {
      bash.findings().add(Flag.high("pipe-to-shell", "runs downloaded code as " + inv.name() + "'s program (" + inv.name()
          + " " + abbreviate(program.text()) + ")"));
    }
  }

  /** For an interpreter reading its program from stdin: does an earlier stage of its pipeline download it? */
  static void pipedFromDownload(BashAnalyzer bash, Invocation inv) {
    for (Invocation feeder = inv.upstream(); feeder != null; feeder = feeder.upstream()) {
      String f = feeder.name();
      if (DOWNLOADERS.contains(f)) {
        bash.findings().add(Flag.high("pipe-to-shell", "pipes a download into " + inv.name() + " (" + f + " | " + inv.name() + ")"));
        return;
      }
      if (isDecoder(feeder)) {
        bash.findings().add(Flag.high("pipe-to-shell", "pipes decoded, hidden code into " + inv.name() + " (" + f + " | " + inv.name() + ")"));
        return;
      }
      if ((f.equals("echo") || f.equals("printf")) && feeder.args().stream().anyMatch(w -> holdsFetched(bash, w))) {
        bash.findings().add(Flag.high("pipe-to-shell", "pipes downloaded code into " + inv.name() + " (" + f + " | " + inv.name() + ")"));
        return;
      }
      if ((f.equals("echo") || f.equals("printf")) && feeder == inv.upstream()) {
        // echo 'cmd' | sh runs cmd: analyse it as the program it is
        String program = InterpreterCommands.echoed(bash, feeder);
        if (program != null) {
          if (inv.name().startsWith("python")) {
            bash.nested(Languages.PYTHON, program);
          } else if (SHELLS.contains(inv.name())) {
            bash.child().analyze(program);
          }
        }
        return;
      }
    }
  }

  /** base64 -d, xxd -r, openssl enc -d, gunzip...: their output is code nobody has read. */
  static boolean isDecoder(Invocation inv) {
    List<String> t = inv.texts();
    return switch (inv.name()) {
      case "base64", "base32" -> t.contains("-d") || t.contains("--decode") || t.contains("-D");
      case "xxd" -> t.contains("-r") || t.contains("-revert");
      case "openssl" -> t.contains("-d") || t.contains("base64") && t.contains("-A");
      case "gunzip", "zcat", "bzcat", "xzcat", "uudecode", "rev" -> true;
      case "gzip", "bzip2", "xz" -> t.contains("-d") || t.contains("-dc") || t.contains("-cd");
      default -> false;
    };
  }
}
