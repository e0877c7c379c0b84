package io.interpreter4j.core.safety.shell;

import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a shell block into the commands an approval rule must check one by one: each simple command as
 * written, plus the commands hidden inside it ({@code $(...)}, backticks, {@code bash -c '...'}, {@code eval}),
 * so that an allow rule for {@code git push*} does not wave through {@code git push $(rm -rf ~)}.
 */
public final class ShellCommands {

  /**
   * One command.
   *
   * @param text the command as written, whitespace collapsed ("sudo rm -rf build")
   * @param core the command without wrappers and leading assignments ("rm -rf build"); equal to text if none
   */
  public record ShellCommand(String text, String core) {}

  private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish");
  private static final int MAX_DEPTH = 8;

  private ShellCommands() {}

  public static List<ShellCommand> split(String code) {
    List<ShellCommand> out = new ArrayList<>();
    split(code, 0, out);
    return out;
  }

  private static void split(String code, int depth, List<ShellCommand> out) {
    if (depth > MAX_DEPTH) {
      out.add(new ShellCommand(collapse(code), collapse(code)));
      return;
    }
    for (Command c : ShellLexer.parse(code)) {
      if (c.words().isEmpty()) {
        if (!c.text().isBlank()) {
          out.add(new ShellCommand(collapse(c.text()), collapse(c.text())));
        }
        continue;
      }
      if (isKeywordOnly(c)) {
        continue;
      }
      int core = coreStart(c.words());
      String text = withoutKeywords(collapse(c.text()));
      out.add(new ShellCommand(text, core >= c.words().size() ? text : joinRaw(c.words().subList(core, c.words().size()))));
      for (Word w : c.words()) {
        nested(w, depth, out);
      }
      for (ShellLexer.Redirect r : c.redirects()) {
        nested(r.target(), depth, out);
      }
      if (core < c.words().size()) {
        String name = ShellWords.basename(c.words().get(core).text());
        List<Word> args = c.words().subList(core + 1, c.words().size());
        if (name.equals("eval") && !args.isEmpty()) {
          StringBuilder sb = new StringBuilder();
          for (Word a : args) {
            sb.append(sb.length() == 0 ? "" : " ").append(a.text());
          }
          split(sb.toString(), depth + 1, out);
        } else if (SHELLS.contains(name)) {
          for (int k = 0; k + 1 < args.size(); k++) {
            String t = args.get(k).text();
            if (t.startsWith("-") && !t.startsWith("--") && t.indexOf('c') > 0) {
              split(args.get(k + 1).text(), depth + 1, out);
              break;
            }
          }
        }
      }
    }
  }

  private static void nested(Word w, int depth, List<ShellCommand> out) {
    for (Part p : w.parts()) {
      if (p.kind() == PartKind.SUBST) {
        split(p.text(), depth + 1, out);
      }
    }
  }

  /** {@code then}, {@code fi}, {@code done}, {@code do}: structure, not a command to approve. */
  private static boolean isKeywordOnly(Command c) {
    for (Word w : c.words()) {
      String lit = w.literal();
      if (lit == null || !(ShellWords.WRAPPERS.containsKey(lit) || Set.of("fi", "done", "esac", "}", "{").contains(lit))) {
        return false;
      }
    }
    return true;
  }

  /** Index of the first word after leading assignments and wrappers such as sudo, env, nohup, time, xargs. */
  private static int coreStart(List<Word> words) {
    int idx = 0;
    while (idx < words.size()) {
      Word w = words.get(idx);
      if (ShellWords.isAssignment(w)) {
        idx++;
        continue;
      }
      String lit = w.literal();
      if (lit == null) {
        return idx;
      }
      String base = ShellWords.basename(lit);
      Set<String> optsWithArg = base.equals("env") || base.equals("command") ? Set.of("-u", "-C", "-S")
          : ShellWords.WRAPPERS.get(base);
      if (optsWithArg == null) {
        return idx;
      }
      idx = ShellWords.afterWrapper(words, idx, base, optsWithArg);
    }
    return idx;
  }

  private static final Set<String> KEYWORDS = Set.of("then", "do", "else", "elif", "if", "while", "until", "!", "{");

  /** "then rm -rf build" is the command "rm -rf build" inside an if: rules see the command. */
  private static String withoutKeywords(String text) {
    String t = text;
    boolean stripped = true;
    while (stripped) {
      stripped = false;
      int sp = t.indexOf(' ');
      if (sp > 0 && KEYWORDS.contains(t.substring(0, sp))) {
        t = t.substring(sp + 1);
        stripped = true;
      }
    }
    return t;
  }

  private static String joinRaw(List<Word> words) {
    StringBuilder sb = new StringBuilder();
    for (Word w : words) {
      sb.append(sb.length() == 0 ? "" : " ").append(w.raw());
    }
    return collapse(sb.toString());
  }

  /** Runs of whitespace (also newlines from line continuations) become one space, so "git  push" is "git push". */
  public static String collapse(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    boolean space = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        space = true;
      } else {
        if (space && sb.length() > 0) {
          sb.append(' ');
        }
        space = false;
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
