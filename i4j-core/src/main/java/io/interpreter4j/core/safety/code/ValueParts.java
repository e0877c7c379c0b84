package io.interpreter4j.core.safety.code;

import io.interpreter4j.core.safety.shell.ShellLexer.Part;
import io.interpreter4j.core.safety.shell.ShellLexer.PartKind;
import io.interpreter4j.core.safety.shell.ShellLexer.Word;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Values of a program's string and path expressions as the bash judges take them: lists of {@link Part}s, literal
 * text and unknown pieces. The python and script evaluators build them with these helpers.
 */
public final class ValueParts {

  private ValueParts() {}

  /** Literal text, quoted: its * and ? match themselves. */
  public static Part text(String s) {
    return new Part(PartKind.TEXT, s, true, false);
  }

  /** Text whose * and ? act as a glob (what a listing or a glob call matches). */
  public static Part glob(String s) {
    return new Part(PartKind.TEXT, s, false, false);
  }

  /** The pattern with its literal text turned into active globs, its unknown pieces kept. */
  public static List<Part> activeGlobs(List<Part> pattern) {
    List<Part> out = new ArrayList<>();
    for (Part p : pattern) {
      out.add(p.kind() == PartKind.TEXT ? glob(p.text()) : p);
    }
    return out;
  }

  /** The value's text when it is all literal, else null; null for no value. */
  public static String literal(List<Part> v) {
    return v == null ? null : new Word(v, "").literal();
  }

  /** A leading {@code ~} or {@code ~/} replaced by the home folder. */
  public static List<Part> expandUser(List<Part> v, String home) {
    if (!v.isEmpty() && v.get(0).kind() == PartKind.TEXT) {
      String t = v.get(0).text();
      if (t.equals("~") || t.startsWith("~/")) {
        List<Part> out = new ArrayList<>(v);
        out.set(0, text(home + t.substring(1)));
        return out;
      }
    }
    return v;
  }

  /**
   * Appends {@code next} to {@code base} as a path component: an absolute {@code next} replaces it. With
   * {@code mergeSlash}, no separator is added after text that already ends in one.
   */
  public static void join(List<Part> base, List<Part> next, boolean mergeSlash) {
    boolean absolute = !next.isEmpty() && next.get(0).kind() == PartKind.TEXT && next.get(0).text().startsWith("/");
    if (absolute) {
      base.clear();
      base.addAll(next);
      return;
    }
    if (!base.isEmpty()) {
      Part last = base.get(base.size() - 1);
      if (!(mergeSlash && last.kind() == PartKind.TEXT && last.text().endsWith("/"))) {
        base.add(text("/"));
      }
    }
    base.addAll(next);
  }

  /**
   * The folder holding a literal path, or {@code unknown} when the path is not literal; an invalid path (a NUL
   * character) throws {@link java.nio.file.InvalidPathException}.
   */
  public static List<Part> parent(List<Part> v, Part unknown) {
    String lit = literal(v);
    if (lit == null) {
      return List.of(unknown);
    }
    Path p = Path.of(lit).getParent();
    return List.of(text(p == null ? "." : p.toString()));
  }
}
