package io.interpreter4j.core.safety.shell;

import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Shell word handling that every analyzer shares: command names ({@link #basename}), the wrappers that run the rest
 * of a line ({@code sudo}, {@code nohup}, {@code xargs}...), assignments, and which programs are interpreters.
 */
public final class ShellWords {

  /** Shells: their {@code -c} argument and standard input are shell programs. */
  public static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox");
  /** Interpreters of other languages that run a program given as an argument or on standard input. */
  public static final Set<String> OTHER_INTERPRETERS = Set.of(
      "perl", "ruby", "node", "nodejs", "php", "pwsh", "bun", "deno", "Rscript", "R");
  /** Wrappers that run the rest of the line as a command; the values are options that take an argument. */
  public static final Map<String, Set<String>> WRAPPERS = Map.ofEntries(
      Map.entry("nohup", Set.of()), Map.entry("time", Set.of()), Map.entry("builtin", Set.of()),
      Map.entry("exec", Set.of("-a")), Map.entry("setsid", Set.of()), Map.entry("unbuffer", Set.of()),
      Map.entry("chronic", Set.of()), Map.entry("caffeinate", Set.of("-t", "-w")), Map.entry("stdbuf", Set.of()),
      Map.entry("nice", Set.of("-n")), Map.entry("ionice", Set.of("-c", "-n", "-p")),
      Map.entry("timeout", Set.of("-s", "-k", "--signal", "--kill-after")), Map.entry("watch", Set.of("-n", "-d")),
      Map.entry("xargs", Set.of("-n", "-I", "-P", "-L", "-d", "-s", "-a", "-E", "-e")),
      Map.entry("then", Set.of()), Map.entry("do", Set.of()), Map.entry("else", Set.of()), Map.entry("elif", Set.of()),
      Map.entry("if", Set.of()), Map.entry("while", Set.of()), Map.entry("until", Set.of()), Map.entry("!", Set.of()),
      Map.entry("{", Set.of()), Map.entry("strace", Set.of("-o", "-e", "-p")), Map.entry("ltrace", Set.of("-o")),
      Map.entry("flock", Set.of("-w", "-E")), Map.entry("script", Set.of()), Map.entry("doas", Set.of("-u", "-C")),
      Map.entry("sudo", Set.of("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group")),
      Map.entry("pkexec", Set.of("--user")));

  /**
   * Index of the word the wrapper at {@code idx} runs: past its options ({@code optsWithArg} take the next word as
   * their value), a {@code --}, and timeout's duration.
   */
  public static int afterWrapper(List<Word> words, int idx, String base, Set<String> optsWithArg) {
    idx++;
    while (idx < words.size()) {
      String t = words.get(idx).text();
      if (t.equals("--")) {
        idx++;
        break;
      }
      if (!t.startsWith("-") || t.length() < 2) {
        break;
      }
      idx += optsWithArg.contains(t) ? 2 : 1;
    }
    if (base.equals("timeout") && idx < words.size()) {
      idx++; // the duration
    }
    return idx;
  }

  /** {@code NAME=value} or {@code NAME+=value} with an unquoted name. */
  public static boolean isAssignment(Word w) {
    List<Part> parts = w.parts();
    if (parts.isEmpty() || parts.get(0).kind() != PartKind.TEXT || parts.get(0).quoted()) {
      return false;
    }
    String t = parts.get(0).text();
    if (t.isEmpty() || !(Character.isLetter(t.charAt(0)) || t.charAt(0) == '_')) {
      return false;
    }
    for (int k = 1; k < t.length(); k++) {
      char c = t.charAt(k);
      if (c == '=' || (c == '+' && k + 1 < t.length() && t.charAt(k + 1) == '=')) {
        return true;
      }
      if (!(Character.isLetterOrDigit(c) || c == '_')) {
        return false;
      }
    }
    return false;
  }

  /** "pip", "pip3", "python3.12": the base name followed only by digits and dots. */
  public static boolean isVersioned(String name, String base) {
    if (!name.startsWith(base)) {
      return false;
    }
    for (int k = base.length(); k < name.length(); k++) {
      char c = name.charAt(k);
      if (!(Character.isDigit(c) || c == '.')) {
        return false;
      }
    }
    return true;
  }

  /** The last path segment of a command name: {@code /usr/bin/rm} is {@code rm}. */
  public static String basename(String s) {
    int slash = s.lastIndexOf('/');
    return slash >= 0 && slash < s.length() - 1 ? s.substring(slash + 1) : s;
  }

  /** The interpreters that run a program given as an argument or on standard input. */
  public static boolean isInterpreter(String program) {
    String name = basename(program);
    return SHELLS.contains(name) || OTHER_INTERPRETERS.contains(name) || isVersioned(name, "python")
        || name.equals("py") || isVersioned(name, "pypy");
  }

  private ShellWords() {}
}
