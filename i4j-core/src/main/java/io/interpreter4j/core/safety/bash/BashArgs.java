package io.interpreter4j.core.safety.bash;

import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Argument handling the bash rule families share: operands, word suffixes, texts for display. */
final class BashArgs {

  private BashArgs() {}

  /** Arguments that are not options nor option values; everything after "--" counts. */
  static List<Word> operands(List<Word> args, Set<String> optionsWithValue) {
    List<Word> out = new ArrayList<>();
    boolean end = false;
    for (int k = 0; k < args.size(); k++) {
      String t = args.get(k).text();
      if (!end && t.equals("--")) {
        end = true;
      } else if (!end && t.startsWith("-") && t.length() > 1) {
        if (optionsWithValue.contains(t)) {
          k++;
        }
      } else {
        out.add(args.get(k));
      }
    }
    return out;
  }

  static String joinTexts(List<Word> words) {
    StringBuilder sb = new StringBuilder();
    for (Word w : words) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(w.text());
    }
    return sb.toString();
  }

  /** A copy of the word without its first {@code chars} characters of literal text; null if nothing is left. */
  static Word suffix(Word w, int chars) {
    List<Part> out = new ArrayList<>();
    int skip = chars;
    for (Part p : w.parts()) {
      if (skip > 0 && p.kind() == PartKind.TEXT) {
        if (p.text().length() <= skip) {
          skip -= p.text().length();
          continue;
        }
        out.add(new Part(PartKind.TEXT, p.text().substring(skip), p.quoted(), false));
        skip = 0;
      } else if (skip > 0) {
        return null;
      } else {
        out.add(p);
      }
    }
    return out.isEmpty() ? null : new Word(out, w.raw());
  }

  static String abbreviate(String s) {
    String t = s.strip();
    return t.length() > 30 ? t.substring(0, 30) + "..." : t;
  }
}
