package io.interpreter4j.core.safety.python;

import static io.interpreter4j.core.safety.code.ValueParts.text;

import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import java.util.ArrayList;
import java.util.List;

/** Python's string templates: f-string fields and {@code str.format} placeholders as unknown pieces. */
final class PythonTemplates {

  private PythonTemplates() {}


  /** {@code "rm -rf {}".format(x)}: each placeholder becomes an unknown piece. */
  static List<Part> formatted(List<Part> template) {
    List<Part> out = new ArrayList<>();
    for (Part p : template) {
      if (p.kind() == PartKind.TEXT) {
        out.addAll(fieldsAsUnknown(p.text()));
      } else {
        out.add(p);
      }
    }
    return out;
  }

  static boolean isIdentifier(String s) {
    if (s.isEmpty() || !(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_')) {
      return false;
    }
    for (int k = 1; k < s.length(); k++) {
      if (!(Character.isLetterOrDigit(s.charAt(k)) || s.charAt(k) == '_')) {
        return false;
      }
    }
    return true;
  }

  /** Splits "a {x} b" into text and unknown pieces; "{{" and "}}" are literal braces. */
  static List<Part> fieldsAsUnknown(String s) {
    List<Part> out = new ArrayList<>();
    StringBuilder lit = new StringBuilder();
    int n = s.length();
    for (int k = 0; k < n; k++) {
      char c = s.charAt(k);
      if (c == '{' && k + 1 < n && s.charAt(k + 1) == '{') {
        lit.append('{');
        k++;
      } else if (c == '}' && k + 1 < n && s.charAt(k + 1) == '}') {
        lit.append('}');
        k++;
      } else if (c == '{') {
        int end = s.indexOf('}', k);
        end = end < 0 ? n : end;
        if (lit.length() > 0) {
          out.add(text(lit.toString()));
          lit.setLength(0);
        }
        out.add(PythonValues.unknown(s.substring(k + 1, end), true));
        k = end;
      } else {
        lit.append(c);
      }
    }
    if (lit.length() > 0 || out.isEmpty()) {
      out.add(text(lit.toString()));
    }
    return out;
  }

}
