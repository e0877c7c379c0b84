package io.interpreter4j.core.safety.shell;

import io.interpreter4j.core.safety.shell.ShellLexer.Command;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The value of a command substitution the block computes from what it already knows, so that
 * {@code $(dirname "$PWD")}, {@code $(echo cm0gLXJm | base64 -d)} or {@code $(command -v node)} are judged by what
 * they stand for: {@code dirname}, {@code basename}, {@code realpath}, {@code pwd}, {@code echo}/{@code printf}
 * piped through decoders (base64, base32, xxd -r -p, rev), {@code which}, {@code whoami}. Anything else is unknown.
 */
public final class ShellValues {

  /** Programs usually installed in /usr/bin: {@code $(command -v node)} is a system path. */
  private static final Set<String> LOCATORS = Set.of("which", "command", "type");

  private ShellValues() {}

  /**
   * The output of {@code code}, or null when it cannot be known.
   *
   * @param valueOf a word's value in the block, or null
   * @param cwd     the block's current folder, or null
   */
  public static String evaluate(String code, Function<Word, String> valueOf, Path cwd, Path home) {
    try {
      return pipeline(code, valueOf, cwd, home);
    } catch (InvalidPathException e) {
      return null;
    }
  }

  private static String pipeline(String code, Function<Word, String> valueOf, Path cwd, Path home) {
    List<Command> cmds = ShellLexer.parse(code.strip());
    if (cmds.isEmpty() || cmds.size() > 4) {
      return null;
    }
    int pipeline = cmds.get(0).pipeline();
    String value = null;
    for (int k = 0; k < cmds.size(); k++) {
      Command c = cmds.get(k);
      if (c.pipeline() != pipeline || c.words().isEmpty()) {
        return null;
      }
      List<String> args = new ArrayList<>();
      for (Word w : c.words()) {
        String v = valueOf.apply(w);
        if (v == null) {
          return null;
        }
        args.add(v);
      }
      String name = ShellWords.basename(args.get(0));
      List<String> rest = args.subList(1, args.size());
      value = k == 0 ? source(name, rest, c, cwd, home, valueOf) : filter(name, rest, value);
      if (value == null) {
        return null;
      }
    }
    return value;
  }

  private static String source(String name, List<String> args, Command c, Path cwd, Path home,
                               Function<Word, String> valueOf) {
    List<String> ops = new ArrayList<>();
    for (String a : args) {
      if (!a.startsWith("-") || a.equals("-")) {
        ops.add(a);
      }
    }
    return switch (name) {
      case "echo" -> {
        List<String> words = new ArrayList<>(args);
        while (!words.isEmpty() && words.get(0).matches("-[neE]+")) {
          words.remove(0);
        }
        yield String.join(" ", words);
      }
      case "printf" -> {
        if (args.isEmpty()) {
          yield null;
        }
        yield printf(args.get(0), args.subList(1, args.size()));
      }
      case "cat" -> {
        if (ops.isEmpty() && !c.heredocs().isEmpty()) {
          yield c.heredocs().get(0).stripTrailing();
        }
        for (ShellLexer.Redirect r : c.redirects()) {
          if (r.op().equals("<<<")) {
            yield valueOf.apply(r.target());
          }
        }
        yield null;
      }
      case "pwd" -> cwd == null ? null : cwd.toString();
      case "dirname" -> ops.size() == 1 ? parent(ops.get(0), cwd) : null;
      case "basename" -> ops.isEmpty() ? null : Path.of(ops.get(0)).getFileName() == null ? "/" : Path.of(ops.get(0)).getFileName().toString();
      case "realpath", "readlink" -> ops.size() == 1 && (name.equals("realpath") || args.contains("-f") || args.contains("-m")
          || args.contains("-e")) ? absolute(ops.get(0), cwd) : null;
      case "which", "command", "type" -> {
        String prog = ops.isEmpty() ? null : ops.get(ops.size() - 1);
        yield prog == null || prog.contains("/") || !LOCATORS.contains(name) ? null : "/usr/bin/" + prog;
      }
      case "whoami" -> home.getFileName() == null ? null : home.getFileName().toString();
      case "id" -> args.contains("-un") || args.contains("-nu") ? (home.getFileName() == null ? null : home.getFileName().toString()) : null;
      default -> null;
    };
  }

  /** printf's output for %s, %b, %d and %% conversions; null for any other (widths, floats). */
  private static String printf(String format, List<String> args) {
    StringBuilder out = new StringBuilder();
    int next = 0;
    do {
      for (int k = 0; k < format.length(); k++) {
        char c = format.charAt(k);
        if (c == '\\' && k + 1 < format.length() && format.charAt(k + 1) == 'n') {
          out.append('\n');
          k++;
        } else if (c == '%' && k + 1 < format.length()) {
          char conv = format.charAt(++k);
          if (conv == '%') {
            out.append('%');
          } else if (conv == 's' || conv == 'b' || conv == 'd') {
            out.append(next < args.size() ? args.get(next) : "");
            next++;
          } else {
            return null;
          }
        } else {
          out.append(c);
        }
      }
    } while (next < args.size() && next > 0 && out.length() < 100_000);
    return out.toString();
  }

  /** A decoder or simple filter applied to the previous stage's output. */
  private static String filter(String name, List<String> args, String in) {
    String input = in.strip();
    try {
      return switch (name) {
        case "base64" -> args.contains("-d") || args.contains("--decode") || args.contains("-D")
            ? new String(Base64.getMimeDecoder().decode(input), StandardCharsets.UTF_8) : null;
        case "xxd" -> (args.contains("-r") || args.contains("-revert")) && (args.contains("-p") || args.contains("-ps")
            || args.contains("-plain") || args.contains("-rp")) ? hex(input) : null;
        case "rev" -> new StringBuilder(input).reverse().toString();
        case "tr", "head", "cut" -> null;
        default -> null;
      };
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String hex(String s) {
    String h = s.replaceAll("\\s", "");
    if (h.length() % 2 != 0 || h.length() > 1_000_000) {
      throw new IllegalArgumentException("odd hex");
    }
    byte[] out = new byte[h.length() / 2];
    for (int k = 0; k < out.length; k++) {
      out[k] = (byte) Integer.parseInt(h.substring(2 * k, 2 * k + 2), 16);
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  private static String parent(String p, Path cwd) {
    String abs = absolute(p, cwd);
    if (abs == null) {
      return null;
    }
    Path parent = Path.of(abs).getParent();
    return parent == null ? "/" : parent.toString();
  }

  private static String absolute(String p, Path cwd) {
    try {
      if (p.startsWith("/")) {
        return Path.of(p).normalize().toString();
      }
      return cwd == null ? null : cwd.resolve(p).normalize().toString();
    } catch (InvalidPathException e) {
      return null;
    }
  }
}
