package io.interpreter4j.cli.render;

import java.util.Locale;
import java.util.Set;

/** Other languages: strings, // and # comments, numbers and keywords most C-like and scripting languages share. */
final class GenericHighlighter extends KeywordHighlighter {
  private static final Set<String> KEYWORDS = Set.of("if", "else", "for", "while", "do", "return", "function",
      "const", "let", "var", "class", "new", "import", "from", "export", "default", "def", "end", "switch", "case",
      "break", "continue", "try", "catch", "finally", "throw", "throws", "null", "nil", "true", "false", "void",
      "int", "long", "double", "float", "boolean", "char", "string", "public", "private", "protected", "static",
      "final", "package", "interface", "extends", "implements", "async", "await", "fn", "func", "struct", "enum",
      "impl", "use", "mod", "pub", "mut", "match", "type", "this", "self", "require", "module", "undefined",
      "select", "where", "insert", "update", "delete", "create", "table", "into", "values", "and", "or", "not");

  GenericHighlighter(Theme theme) {
    super(theme);
  }

  @Override
  int resume(String line, StringBuilder out) {
    return 0;
  }

  @Override
  int markup(String line, int i, StringBuilder out) {
    char c = line.charAt(i);
    if (line.startsWith("//", i) || line.startsWith("--", i) && line.substring(0, i).isBlank()
        || c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
      out.append(theme.comment(line.substring(i)));
      return line.length();
    }
    if (c == '"' || c == '\'' || c == '`') {
      int end = quotedEnd(line, i, c, true);
      end = end < 0 ? line.length() : end;
      out.append(theme.string(line.substring(i, end)));
      return end;
    }
    return -1;
  }

  @Override
  String word(String line, int i, String word) {
    return KEYWORDS.contains(word.toLowerCase(Locale.ROOT)) ? theme.keyword(word) : word;
  }
}
