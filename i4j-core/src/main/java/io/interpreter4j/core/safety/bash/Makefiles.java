package io.interpreter4j.core.safety.bash;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell commands of a Makefile a block writes and then runs with {@code make}: every recipe line (whichever
 * target runs), with make's {@code $(VAR)}, {@code $(shell ...)} and {@code $$} turned into their shell spelling and
 * the file's own simple variables filled in.
 */
final class Makefiles {

  private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)\\s*[:?+]?=\\s*(.*)$");
  private static final Pattern REFERENCE = Pattern.compile("\\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]");

  private Makefiles() {}

  /** The recipe lines as one shell script. */
  static String recipes(String makefile) {
    Map<String, String> vars = new HashMap<>();
    StringBuilder out = new StringBuilder();
    for (String line : makefile.split("\n")) {
      if (line.startsWith("\t")) {
        String cmd = line.substring(1).strip();
        while (!cmd.isEmpty() && "@-+".indexOf(cmd.charAt(0)) >= 0) {
          cmd = cmd.substring(1);
        }
        out.append(shellSpelling(cmd, vars)).append('\n');
      } else {
        Matcher m = ASSIGNMENT.matcher(line.strip());
        if (m.matches() && vars.size() < 200) {
          vars.put(m.group(1), m.group(2).strip());
        }
      }
    }
    return out.toString();
  }

  private static String shellSpelling(String cmd, Map<String, String> vars) {
    String s = cmd.replace("$$", "\u0000").replace("$(shell ", "$(");
    Matcher m = REFERENCE.matcher(s);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value = vars.containsKey(name) ? vars.get(name).replace("$(shell ", "$(")
          : name.equals("CURDIR") ? "${PWD}" : "${" + name + "}";
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    m.appendTail(sb);
    return sb.toString().replace("\u0000", "$");
  }
}
