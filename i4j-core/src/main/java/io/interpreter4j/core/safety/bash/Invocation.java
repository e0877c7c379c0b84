package io.interpreter4j.core.safety.bash;

import static io.interpreter4j.core.safety.shell.ShellWords.WRAPPERS;
import static io.interpreter4j.core.safety.shell.ShellWords.afterWrapper;
import static io.interpreter4j.core.safety.shell.ShellWords.basename;
import static io.interpreter4j.core.safety.shell.ShellWords.isAssignment;

import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A command with its wrappers ({@code sudo}, {@code env}, {@code nohup}, {@code xargs}...) peeled off: the name it
 * runs (empty when none, or a keyword), its arguments and their texts, and the command before it in its pipeline.
 *
 * @param upstream the command feeding this one through {@code |}, or null: its own {@code upstream} goes further back
 */
record Invocation(String name, Word nameWord, List<Word> args, List<String> texts, List<Word> assignments, boolean sudo,
                  boolean viaXargs, boolean envDump, Command command, Invocation upstream) {

  private static final Set<String> NOT_COMMANDS = Set.of(
      "for", "case", "select", "function", "fi", "done", "esac", "}", "in", "return", "break", "continue", "alias",
      "[[", "]]");

  static Invocation of(Command c, BashScope scope, Invocation before) {
    List<Word> words = c.words();
    Invocation upstream = before != null && before.command().pipeline() == c.pipeline() ? before : null;
    List<Word> assignments = new ArrayList<>();
    boolean sudo = false;
    boolean xargs = false;
    int idx = 0;
    while (idx < words.size()) {
      Word w = words.get(idx);
      if (isAssignment(w)) {
        assignments.add(w);
        idx++;
        continue;
      }
      String lit = scope.nameOf(w);
      if (lit == null) {
        break;
      }
      String base = basename(lit);
      if (NOT_COMMANDS.contains(base)) {
        return new Invocation("", null, List.of(), List.of(), assignments, sudo, xargs, false, c, upstream);
      }
      if (base.equals("env")) {
        idx++;
        while (idx < words.size()) {
          String t = words.get(idx).text();
          if (t.equals("-u") || t.equals("-C") || t.equals("-S") || t.equals("--unset") || t.equals("--chdir")) {
            idx += 2;
          } else if (t.startsWith("-")) {
            idx++;
          } else if (isAssignment(words.get(idx))) {
            assignments.add(words.get(idx));
            idx++;
          } else {
            break;
          }
        }
        if (idx >= words.size()) {
          return new Invocation("", null, List.of(), List.of(), assignments, sudo, xargs, true, c, upstream);
        }
        continue;
      }
      if (base.equals("command")) {
        if (idx + 1 < words.size() && (words.get(idx + 1).text().equals("-v") || words.get(idx + 1).text().equals("-V"))) {
          return new Invocation("", null, List.of(), List.of(), assignments, sudo, xargs, false, c, upstream);
        }
        idx++;
        if (idx < words.size() && words.get(idx).text().equals("-p")) {
          idx++;
        }
        continue;
      }
      Set<String> optsWithArg = WRAPPERS.get(base);
      if (optsWithArg == null) {
        break;
      }
      if (base.equals("sudo") || base.equals("doas") || base.equals("pkexec")) {
        sudo = true;
      }
      if (base.equals("xargs")) {
        xargs = true;
      }
      idx = afterWrapper(words, idx, base, optsWithArg);
    }
    if (idx >= words.size()) {
      return new Invocation("", null, List.of(), List.of(), assignments, sudo, xargs, false, c, upstream);
    }
    Word nameWord = words.get(idx);
    String lit = scope.nameOf(nameWord);
    if (lit != null && nameWord.literal() == null) {
      // "$x" or "$(echo rm)" as the command: judge the command it stands for
      nameWord = new Word(List.of(new Part(PartKind.TEXT, lit, true, false)), nameWord.raw());
    }
    String name = lit == null ? "" : basename(lit);
    List<Word> args = List.copyOf(words.subList(idx + 1, words.size()));
    List<String> texts = new ArrayList<>(args.size());
    for (Word w : args) {
      texts.add(w.text());
    }
    return new Invocation(name, nameWord, args, texts, assignments, sudo, xargs, false, c, upstream);
  }
}
