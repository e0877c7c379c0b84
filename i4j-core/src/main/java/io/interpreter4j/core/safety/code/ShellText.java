package io.interpreter4j.core.safety.code;

import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellWords;
import java.util.List;

/**
 * A program's shell-out written back as shell source for the bash analysis: literal text as it is, each unknown
 * piece as a shell variable named after it ({@code PY_name}, {@code JS_name}), so bash judges it as it would an
 * unset or unknown variable.
 *
 * @param prefix      the variables' name prefix
 * @param maxName     past this length a variable's name is cut
 * @param missingWord the word that stands for an argv element whose value is not known at all
 */
public record ShellText(String prefix, int maxName, String missingWord) {

  /** A string used as shell source: literal text as written, unknown pieces as shell variables. */
  public String source(List<Part> parts) {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      sb.append(p.kind() == PartKind.TEXT ? p.text() : variable(p));
    }
    return sb.toString();
  }

  /** Argv elements as one command line, each a single shell word. */
  public String command(List<List<Part>> argv) {
    StringBuilder cmd = new StringBuilder();
    for (List<Part> arg : argv) {
      cmd.append(cmd.length() == 0 ? "" : " ").append(word(arg));
    }
    return cmd.toString();
  }

  /** One argv element as a single shell word: literal text single-quoted, unknown pieces as quoted variables. */
  public String word(List<Part> parts) {
    if (parts == null) {
      return missingWord;
    }
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (p.kind() == PartKind.TEXT) {
        if (!p.text().isEmpty()) {
          sb.append('\'').append(p.text().replace("'", "'\\''")).append('\'');
        }
      } else {
        sb.append('"').append(variable(p)).append('"');
      }
    }
    return sb.length() == 0 ? "''" : sb.toString();
  }

  /** An unknown piece as a variable; one that cannot be empty reads {@code ${X:?}}. */
  public String variable(Part p) {
    StringBuilder name = new StringBuilder(prefix);
    for (char c : p.text().toCharArray()) {
      if (Character.isLetterOrDigit(c) || c == '_') {
        name.append(c);
      }
      if (name.length() > maxName) {
        break;
      }
    }
    return p.mayBeEmpty() ? "${" + name + "}" : "${" + name + ":?}";
  }

  /**
   * The interpreter (bash, python, node, ...) an argv's words start, also behind sudo, env and options; null when
   * they start something else or a word is not known. With {@code trim}, a word is named an interpreter with its
   * surrounding white space removed.
   */
  public static String interpreter(List<String> words, boolean trim) {
    for (String w : words) {
      String name = w == null ? null : trim ? w.strip() : w;
      if (name != null && ShellWords.isInterpreter(name)) {
        return name;
      }
      if (w == null || !(w.equals("sudo") || w.equals("env") || w.startsWith("-"))) {
        return null;
      }
    }
    return null;
  }
}
