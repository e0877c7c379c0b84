package io.interpreter4j.core.safety.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One command as the rule families see it, whatever language spelled it: the program's base name, its arguments
 * with the block's known variables expanded (unknown ones stay as {@code $NAME}), whether it runs as root, and
 * the text it reads on standard input when the block gives it (a heredoc, a here-string).
 */
public record ToolCall(String tool, List<String> args, boolean elevated, String stdin) {

  public ToolCall {
    Objects.requireNonNull(tool, "tool");
    args = List.copyOf(args);
    stdin = stdin == null ? "" : stdin;
  }

  public static ToolCall of(String tool, String... args) {
    return new ToolCall(tool, List.of(args), false, "");
  }

  /** Arguments that do not start with '-' (option values included: callers skip them where it matters). */
  public List<String> words() {
    List<String> out = new ArrayList<>();
    for (String a : args) {
      if (!a.startsWith("-") || a.equals("-")) {
        out.add(a);
      }
    }
    return out;
  }

  /** The first argument that is not an option, or "". */
  public String verb() {
    List<String> w = words();
    return w.isEmpty() ? "" : w.get(0);
  }

  /** Operands after skipping options, where {@code withValue} lists the options that take the next argument. */
  public List<String> operands(List<String> withValue) {
    List<String> out = new ArrayList<>();
    boolean end = false;
    for (int k = 0; k < args.size(); k++) {
      String a = args.get(k);
      if (!end && a.equals("--")) {
        end = true;
      } else if (!end && a.startsWith("-") && a.length() > 1) {
        if (withValue.contains(a)) {
          k++;
        }
      } else {
        out.add(a);
      }
    }
    return out;
  }

  /** Whether any argument equals one of {@code options}, or starts with one of them followed by '='. */
  public boolean has(String... options) {
    for (String a : args) {
      for (String o : options) {
        if (a.equals(o) || (o.startsWith("--") && a.startsWith(o + "="))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a short option letter appears alone or in a cluster ({@code -avn} holds n); long options ignored. */
  public boolean hasShort(char letter) {
    for (String a : args) {
      if (a.startsWith("-") && !a.startsWith("--") && a.length() > 1 && a.indexOf(letter, 1) > 0) {
        return true;
      }
    }
    return false;
  }

  /** The value of an option given as {@code -o V}, {@code --opt V}, {@code --opt=V} or {@code -oV}; null if absent. */
  public String value(String... options) {
    String found = null;
    for (int k = 0; k < args.size(); k++) {
      String a = args.get(k);
      for (String o : options) {
        if (a.equals(o) && k + 1 < args.size()) {
          found = args.get(k + 1);
        } else if (o.startsWith("--") && a.startsWith(o + "=")) {
          found = a.substring(o.length() + 1);
        } else if (!o.startsWith("--") && o.length() == 2 && a.startsWith(o) && a.length() > 2 && !a.startsWith("--")) {
          found = a.substring(2);
        }
      }
    }
    return found;
  }

  /** The commonest spellings of "only show what would happen". */
  public boolean dryRun() {
    for (String a : args) {
      String l = a.toLowerCase(Locale.ROOT);
      if (l.equals("--dry-run") || l.equals("--dryrun") || (l.startsWith("--dry-run=") && !l.equals("--dry-run=none"))
          || l.equals("--what-if") || l.equals("--simulate") || l.equals("--check") || l.equals("--no-act")
          || l.equals("--just-print") || l.equals("--recon") || l.equals("--preview")) {
        return true;
      }
    }
    return false;
  }

  /** Verbs after which the rest of the line is a command another program runs (its --help is that command's). */
  private static final java.util.Set<String> RUNS_A_COMMAND = java.util.Set.of(
      "run", "exec", "debug", "ssh", "run-command", "start-session", "execute", "invoke", "shell", "x", "dlx");

  /**
   * The command only prints its usage: {@code --help} or {@code -help} (terraform's spelling) before any
   * {@code --}, on a tool that does not hand the rest of its line to another program ({@code ssh host cmd --help},
   * {@code docker run img cmd --help} run {@code cmd}).
   */
  public boolean helpOnly() {
    if (tool.equals("ssh") || tool.equals("xargs") || tool.equals("env")) {
      return false;
    }
    for (String a : args) {
      if (a.equals("--")) {
        return false;
      }
      if (RUNS_A_COMMAND.contains(a)) {
        return false;
      }
      if (a.equals("--help") || a.equals("-help")) {
        return true;
      }
    }
    return false;
  }

  /** The command as one line, for reasons. */
  public String line() {
    StringBuilder sb = new StringBuilder(tool);
    for (String a : args) {
      if (sb.length() > 60) {
        sb.append(" ...");
        break;
      }
      sb.append(' ').append(a);
    }
    return sb.toString();
  }
}
