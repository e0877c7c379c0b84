package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The danger analysis's packages import one way, down (docs/safety.md, "Layout"): {@code shell} needs none of the
 * others, {@code analysis} only {@code shell}, the text {@code rules} those two, the token and value helpers python
 * and the scripts share ({@code code}) those two as well, each language's analyzer those four and never another
 * language's, and only the top package ({@code DangerAnalyzer}, the policy) sees them all. Read from
 * the main sources: every {@code import} and every fully qualified name of a safety class.
 */
class SafetyLayeringTest {

  private static final String ROOT = "io.interpreter4j.core.safety";
  private static final Path SOURCES = Path.of("src/main/java/io/interpreter4j/core/safety");

  /** For each sub-package, the safety packages it may use besides itself; "" is the top package. */
  private static final Map<String, Set<String>> MAY_USE = Map.of(
      "shell", Set.of(),
      "analysis", Set.of("shell"),
      "rules", Set.of("analysis", "shell"),
      "code", Set.of("analysis", "shell"),
      "bash", Set.of("analysis", "shell", "rules"),
      "python", Set.of("analysis", "shell", "rules", "code"),
      "script", Set.of("analysis", "shell", "rules", "code"),
      "", Set.of("analysis", "shell", "rules", "code", "bash", "python", "script"));

  /** A safety class named in code: its sub-package ("" for the top package) and class. */
  private static final Pattern REFERENCE =
      Pattern.compile("\\bio\\.interpreter4j\\.core\\.safety\\.(?:([a-z]\\w*)\\.)?([A-Z]\\w*)");

  @Test
  void importsRunOneWayDown() throws IOException {
    assertTrue(Files.isDirectory(SOURCES), "run from the i4j-core module folder: " + SOURCES.toAbsolutePath());
    List<String> broken = new ArrayList<>();
    int files = 0;
    try (Stream<Path> walk = Files.walk(SOURCES)) {
      for (Path file : walk.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        files++;
        String pkg = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
        broken.addAll(violations(pkg, SOURCES.relativize(file).toString(), Files.readString(file, StandardCharsets.UTF_8)));
      }
    }
    assertTrue(files > 40, "only " + files + " source files under " + SOURCES);
    assertEquals(List.of(), broken, "imports against the safety layering (docs/safety.md, Layout)");
  }

  @Test
  void namesTheFileAndTheImportThatBreaksARule() {
    String python = "package " + ROOT + ".python;\n\nimport " + ROOT + ".bash.BashAnalyzer;\nimport " + ROOT
        + ".analysis.Flag;\n\nfinal class X {}\n";
    assertEquals(List.of("python/X.java: import " + ROOT + ".bash.BashAnalyzer (python may use analysis, code, rules, shell)"),
        violations("python", "python/X.java", python));

    String shell = "package " + ROOT + ".shell;\n\nfinal class Y {\n  // " + ROOT + ".DangerAnalyzer in a comment is fine\n"
        + "  Object o = new " + ROOT + ".DangerAnalyzer();\n}\n";
    assertEquals(List.of("shell/Y.java: " + ROOT + ".DangerAnalyzer (shell may use nothing else)"),
        violations("shell", "shell/Y.java", shell));

    assertEquals(List.of("extra/Z.java: package extra has no place in the layering: add it to SafetyLayeringTest"),
        violations("extra", "extra/Z.java", "package " + ROOT + ".extra;\n"));
  }

  /** What in {@code source}, a file of the sub-package {@code pkg}, uses a safety package it may not. */
  static List<String> violations(String pkg, String file, String source) {
    Set<String> allowed = MAY_USE.get(pkg);
    if (allowed == null) {
      return List.of(file + ": package " + pkg + " has no place in the layering: add it to SafetyLayeringTest");
    }
    List<String> out = new ArrayList<>();
    for (String line : withoutComments(source).split("\n")) {
      String trimmed = line.strip();
      if (trimmed.startsWith("package ")) {
        continue;
      }
      Matcher m = REFERENCE.matcher(line);
      while (m.find()) {
        String used = m.group(1) == null ? "" : m.group(1);
        if (used.equals(pkg) || allowed.contains(used)) {
          continue;
        }
        String what = trimmed.startsWith("import ") ? "import " + m.group() : m.group();
        String may = allowed.isEmpty() ? "nothing else" : String.join(", ", allowed.stream().sorted()
            .map(p -> p.isEmpty() ? "the top package" : p).toList());
        out.add(file + ": " + what + " (" + (pkg.isEmpty() ? "the top package" : pkg) + " may use " + may + ")");
      }
    }
    return out;
  }

  /** The source with comments and string literals blanked, lines kept. */
  private static String withoutComments(String source) {
    StringBuilder sb = new StringBuilder(source.length());
    int n = source.length();
    for (int i = 0; i < n; i++) {
      char c = source.charAt(i);
      if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
        while (i < n && source.charAt(i) != '\n') {
          i++;
        }
        if (i < n) {
          sb.append('\n');
        }
      } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
        int end = source.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        source.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> sb.append('\n'));
        i = end - 1;
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        sb.append(c).append(c);
        i = Math.min(j, n - 1);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
