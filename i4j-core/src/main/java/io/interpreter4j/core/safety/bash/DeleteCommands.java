package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.bash.BashArgs.operands;
import static io.interpreter4j.core.safety.shell.ShellWords.basename;

import io.interpreter4j.core.safety.analysis.Flag;
import io.interpreter4j.core.safety.analysis.PathJudge.Kind;
import io.interpreter4j.core.safety.analysis.PathJudge.Target;
import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Deleting files: {@code rm} (judged by where each path really is, recursive or not, fed by {@code find | xargs}),
 * {@code unlink}, {@code find -delete} and {@code find -exec rm}, {@code shred}.
 */
final class DeleteCommands {

  static final Set<String> NARROWING_FIND_TESTS = Set.of(
      "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-mtime", "-mmin",
      "-atime", "-amin", "-ctime", "-cmin", "-newer", "-size", "-empty", "-links", "-inum", "-samefile", "-user");

  private DeleteCommands() {}

  static void register(Map<String, CommandHandler> table) {
    CommandHandler.register(table, DeleteCommands::rm, "rm");
    CommandHandler.register(table, (bash, inv) -> inv.args().forEach(bash::delete), "unlink");
    CommandHandler.register(table, DeleteCommands::find, "find");
    CommandHandler.register(table, DeleteCommands::shred, "shred");
  }

  private static void rm(BashAnalyzer bash, Invocation inv) {
    boolean recursive = false;
    boolean end = false;
    List<Word> paths = new ArrayList<>();
    for (Word a : inv.args()) {
      String t = a.text();
      if (!end && t.equals("--")) {
        end = true;
      } else if (!end && t.startsWith("--")) {
        if (t.equals("--recursive")) {
          recursive = true;
        } else if (t.equals("--no-preserve-root")) {
          bash.findings().add(Flag.high("rm-no-preserve-root", "turns off rm's protection of / (--no-preserve-root)"));
        }
      } else if (!end && t.startsWith("-") && t.length() > 1) {
        if (t.indexOf('r') >= 0 || t.indexOf('R') >= 0) {
          recursive = true;
        }
      } else {
        paths.add(a);
      }
    }
    if (paths.isEmpty() && inv.viaXargs()) {
      xargsDelete(bash, inv, recursive);
    }
    for (Word p : paths) {
      if (recursive) {
        bash.recursiveDelete(p);
      } else {
        bash.delete(p);
      }
    }
  }

  /** {@code ... | xargs rm -rf}: as dangerous as the listing that feeds it. */
  private static void xargsDelete(BashAnalyzer bash, Invocation inv, boolean recursive) {
    for (Invocation feeder = inv.upstream(); feeder != null; feeder = feeder.upstream()) {
      if (feeder.name().equals("find") || feeder.name().equals("ls")) {
        List<Word> starts = feeder.name().equals("find") ? findStarts(feeder.args()) : operands(feeder.args(), Set.of());
        boolean narrowing = feeder.texts().stream().anyMatch(NARROWING_FIND_TESTS::contains);
        if (starts.isEmpty()) {
          starts = List.of(new Word(List.of(new Part(PartKind.TEXT, ".", true, false)), "."));
        }
        for (Word s : starts) {
          Target t = bash.scope().target(s);
          if (t == null) {
            continue;
          }
          Kind kind = bash.judge().kind(t.path());
          boolean contained = kind == Kind.INSIDE_WORKDIR || kind == Kind.CREATED || (kind == Kind.WORKDIR && narrowing);
          if (!contained) {
            bash.findings().add(Flag.high(recursive ? "rm-recursive-pipe" : "rm-pipe",
                (recursive ? "recursive delete of what " : "deletes what ") + feeder.name() + " lists in " + bash.judge().display(t)));
            return;
          }
        }
        return;
      }
    }
    if (recursive) {
      bash.findings().add(Flag.medium("rm-recursive-pipe", "recursive delete of paths read from a pipe"));
    }
  }

  private static List<Word> findStarts(List<Word> args) {
    List<Word> starts = new ArrayList<>();
    for (Word a : args) {
      String t = a.text();
      if (t.equals("-H") || t.equals("-L") || t.equals("-P") || t.startsWith("-O") || t.equals("-D")) {
        continue;
      }
      if (t.startsWith("-") || t.equals("(") || t.equals("!") || t.equals("\\(")) {
        break;
      }
      starts.add(a);
    }
    return starts;
  }

  private static void find(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    List<String> texts = inv.texts();
    List<Word> starts = findStarts(args);
    boolean deleting = texts.contains("-delete");
    boolean narrowing = false;
    for (int k = 0; k < texts.size(); k++) {
      String t = texts.get(k);
      if (NARROWING_FIND_TESTS.contains(t)) {
        narrowing = true;
      }
      if (t.equals("-exec") || t.equals("-execdir") || t.equals("-ok") || t.equals("-okdir")) {
        int end = k + 1;
        while (end < texts.size() && !texts.get(end).equals(";") && !texts.get(end).equals("+")) {
          end++;
        }
        if (k + 1 < texts.size()) {
          String prog = basename(texts.get(k + 1));
          if (prog.equals("rm") || prog.equals("unlink") || prog.equals("shred") || prog.equals("rmdir")) {
            deleting = true;
          } else {
            Command sub = new Command(List.copyOf(args.subList(k + 1, end)), List.of(), List.of(),
                String.join(" ", texts.subList(k + 1, end)), 0);
            bash.analyzeCommand(Invocation.of(sub, bash.scope(), null));
          }
        }
        k = end;
      }
    }
    if (!deleting) {
      return;
    }
    if (starts.isEmpty()) {
      starts = List.of(new Word(List.of(new Part(PartKind.TEXT, ".", true, false)), "."));
    }
    for (Word s : starts) {
      BashScope.Resolved r = bash.scope().resolve(s);
      if (r.target() == null) {
        bash.findings().add(Flag.medium("find-delete-unknown", "find deleting under " + s.text() + ", whose value is not known"));
        continue;
      }
      Target t = r.target();
      Kind kind = bash.judge().kind(t.path());
      if (kind == Kind.INSIDE_WORKDIR || kind == Kind.CREATED) {
        continue;
      }
      if (kind == Kind.WORKDIR) {
        if (!narrowing) {
          bash.findings().add(Flag.high("find-delete-all", "find deletes everything in the working directory"));
        }
        continue;
      }
      bash.findings().add(Flag.high("find-delete-broad", "find deleting files under " + bash.judge().display(t)));
    }
  }

  private static void shred(BashAnalyzer bash, Invocation inv) {
    List<Word> args = inv.args();
    for (Word w : operands(args, Set.of("-n", "-s", "--iterations", "--size", "--random-source"))) {
      Target t = bash.scope().target(w);
      if (t == null) {
        continue;
      }
      Kind kind = bash.judge().kind(t.path());
      if (bash.judge().isDevice(t.path())) {
        bash.findings().add(Flag.high("shred-device", "shreds device " + bash.judge().display(t)));
      } else if (kind == Kind.SYSTEM || kind == Kind.HOME_DOT || kind == Kind.ROOT || kind == Kind.HOME) {
        bash.findings().add(Flag.high("shred-system", "irrecoverably overwrites " + bash.judge().display(t)));
      } else {
        bash.findings().add(Flag.medium("shred", "irrecoverably overwrites " + bash.judge().display(t)));
      }
    }
  }
}
