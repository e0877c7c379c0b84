package io.interpreter4j.core.safety;

import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.analysis.Level;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reads {@code danger-cases.tsv}: the table of dangerous commands and benign look-alikes with their expected level. */
final class DangerCases {

  static final AnalysisContext CONTEXT = new AnalysisContext(
      Path.of("/home/user/project"), Path.of("/home/user"),
      Set.of(Path.of("/tmp/i4j-scratch"), Path.of("/home/user/project/tmpdir")), false);

  /** One row: expected level, language, code (unescaped), and whether a virtual environment is active. */
  record Case(int line, Level expected, String language, String code, boolean venv) {

    boolean dangerous() {
      return expected == Level.HIGH;
    }

    AnalysisContext context() {
      return CONTEXT.withVenvActive(venv);
    }

    @Override
    public String toString() {
      return "line " + line + " [" + language + (venv ? ", venv" : "") + "] " + code.replace("\n", "\\n");
    }
  }

  private DangerCases() {}

  static List<Case> load() {
    InputStream in = DangerCases.class.getResourceAsStream("danger-cases.tsv");
    if (in == null) {
      throw new IllegalStateException("danger-cases.tsv not on the test classpath");
    }
    List<Case> cases = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = r.readLine()) != null) {
        number++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] cols = line.split("\t", -1);
        if (cols.length < 3) {
          throw new IllegalStateException("danger-cases.tsv line " + number + ": expected level, language, code");
        }
        boolean venv = cols.length > 3 && cols[3].strip().equals("venv");
        cases.add(new Case(number, Level.valueOf(cols[0].strip()), cols[1].strip(), unescape(cols[2]), venv));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cases;
  }

  /** {@code \n} newline, {@code \t} tab, {@code \\} backslash; any other backslash stays as written. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char n = s.charAt(i + 1);
        if (n == 'n' || n == 't' || n == '\\') {
          sb.append(n == 'n' ? '\n' : n == 't' ? '\t' : '\\');
          i++;
          continue;
        }
      }
      sb.append(c);
    }
    return sb.toString();
  }
}
