package io.interpreter4j.cli.render;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders markdown prose one complete line at a time, as it streams: headings, emphasis, code spans, links, lists,
 * quotes, rules and tables, word-wrapped to the terminal width. Fenced code is not its business (see
 * {@link MarkdownStream}). A line is rendered knowing only the lines before it, so constructs that need what
 * follows degrade: a table's columns are not aligned (its cells are separated by rules), and a paragraph's lines
 * are wrapped one by one.
 */
public final class MarkdownRenderer {

  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(\\s+#+)?\\s*$");
  private static final Pattern RULE = Pattern.compile("^ {0,3}([-*_])( *\\1){2,} *$");
  private static final Pattern QUOTE = Pattern.compile("^ {0,3}> ?(.*)$");
  private static final Pattern ITEM = Pattern.compile("^(\\s*)([-*+]|\\d{1,9}[.)])\\s+(.*)$");
  private static final Pattern TASK = Pattern.compile("^\\[([ xX])\\]\\s+(.*)$");
  private static final Pattern TABLE_ROW = Pattern.compile("^\\s*\\|.*\\|\\s*$");
  private static final Pattern TABLE_RULE = Pattern.compile("^\\s*\\|?\\s*:?-{2,}:?\\s*(\\|\\s*:?-{2,}:?\\s*)*\\|?\\s*$");
  private static final String[] BULLETS = {"•", "◦", "▪"};

  private final Theme theme;
  private boolean inTable;
  /** Display widths of the cells of the table's first row, for the rule under it. */
  private List<Integer> headerWidths = List.of();

  public MarkdownRenderer(Theme theme) {
    this.theme = theme;
  }

  /** The terminal rows of one complete markdown line (without its newline). */
  public List<String> render(String line, int width) {
    String text = line.replace("\t", "    ");
    boolean tableLine = TABLE_ROW.matcher(text).matches() || inTable && TABLE_RULE.matcher(text).matches();
    if (!tableLine) {
      inTable = false;
    }
    if (text.isBlank()) {
      return List.of("");
    }
    Matcher m = HEADING.matcher(text);
    if (m.matches()) {
      return TextWrap.wrap(theme.heading(m.group(1).length(), inline(m.group(2))), width, "", "");
    }
    if (tableLine) {
      return tableRow(text, width);
    }
    if (RULE.matcher(text).matches()) {
      return List.of(theme.frame("─".repeat(Math.max(3, Math.min(width, 80) - 1))));
    }
    m = QUOTE.matcher(text);
    if (m.matches()) {
      String gutter = theme.frame("│ ");
      return TextWrap.wrap(theme.italic(inline(m.group(1))), width, gutter, gutter);
    }
    m = ITEM.matcher(text);
    if (m.matches()) {
      int depth = m.group(1).length() / 2;
      String marker = m.group(2);
      String body = m.group(3);
      String bullet;
      if (Character.isDigit(marker.charAt(0))) {
        bullet = theme.bold(marker);
      } else {
        bullet = theme.yellow(BULLETS[Math.min(depth, BULLETS.length - 1)]);
      }
      Matcher task = TASK.matcher(body);
      if (task.matches()) {
        bullet = task.group(1).isBlank() ? "☐" : theme.green("☑");
        body = task.group(2);
      }
      String indent = "  ".repeat(depth + 1);
      String first = indent + bullet + " ";
      String rest = " ".repeat(Ansi.width(first));
      return TextWrap.wrap(inline(body), width, first, rest);
    }
    if (text.startsWith("    ")) {
      return TextWrap.hardWrap(theme.code(text), width, "", "    ");
    }
    return TextWrap.wrap(inline(text.strip()), width, "", "");
  }

  private List<String> tableRow(String text, int width) {
    String separator = theme.frame(" │ ");
    if (TABLE_RULE.matcher(text).matches()) {
      List<String> cells = cells(text);
      List<String> rules = new ArrayList<>();
      for (int i = 0; i < cells.size(); i++) {
        int w = i < headerWidths.size() ? headerWidths.get(i) : cells.get(i).strip().length();
        rules.add("─".repeat(Math.max(1, w)));
      }
      inTable = true;
      return List.of(theme.frame(String.join("─┼─", rules)));
    }
    boolean header = !inTable;
    inTable = true;
    List<String> rendered = new ArrayList<>();
    for (String cell : cells(text)) {
      String c = inline(cell.strip());
      rendered.add(header ? theme.bold(c) : c);
    }
    if (header) {
      headerWidths = rendered.stream().map(Ansi::width).toList();
    }
    return TextWrap.wrap(String.join(separator, rendered), width, "", "  ");
  }

  /** The cells of a table row: split at pipes that are neither escaped nor inside a code span. */
  static List<String> cells(String row) {
    String r = row.strip();
    if (r.startsWith("|")) {
      r = r.substring(1);
    }
    if (r.endsWith("|") && !r.endsWith("\\|")) {
      r = r.substring(0, r.length() - 1);
    }
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean code = false;
    for (int i = 0; i < r.length(); i++) {
      char c = r.charAt(i);
      if (c == '\\' && i + 1 < r.length() && r.charAt(i + 1) == '|') {
        cell.append('|');
        i++;
      } else if (c == '`') {
        code = !code;
        cell.append(c);
      } else if (c == '|' && !code) {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }

  /** Inline markdown: code spans, strong, emphasis, strikethrough, links, images, autolinks, escapes. */
  public String inline(String s) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length() && isPunctuation(s.charAt(i + 1))) {
        out.append(s.charAt(i + 1));
        i += 2;
        continue;
      }
      if (c == '`') {
        int run = run(s, i, '`');
        String fence = "`".repeat(run);
        int close = s.indexOf(fence, i + run);
        while (close >= 0 && close + run < s.length() && s.charAt(close + run) == '`') {
          close = s.indexOf(fence, close + run + 1);
        }
        if (close > 0) {
          String code = s.substring(i + run, close);
          if (code.length() > 1 && code.startsWith(" ") && code.endsWith(" ") && !code.isBlank()) {
            code = code.substring(1, code.length() - 1);
          }
          out.append(theme.code(code));
          i = close + run;
          continue;
        }
        out.append(fence);
        i += run;
        continue;
      }
      if ((c == '*' || c == '_') && s.startsWith(String.valueOf(c).repeat(2), i)) {
        String delim = String.valueOf(c).repeat(2);
        int close = closing(s, i + 2, delim);
        if (close > 0 && opens(s, i, 2, c)) {
          out.append(theme.bold(inline(s.substring(i + 2, close))));
          i = close + 2;
          continue;
        }
      }
      if (c == '*' || c == '_') {
        int close = closing(s, i + 1, String.valueOf(c));
        if (close > 0 && opens(s, i, 1, c) && !(c == '_' && close + 1 < s.length()
            && Highlighter.isIdentPart(s.charAt(close + 1)))) {
          out.append(theme.italic(inline(s.substring(i + 1, close))));
          i = close + 1;
          continue;
        }
      }
      if (c == '~' && s.startsWith("~~", i)) {
        int close = closing(s, i + 2, "~~");
        if (close > 0) {
          out.append(theme.strike(inline(s.substring(i + 2, close))));
          i = close + 2;
          continue;
        }
      }
      if (c == '[' || c == '!' && i + 1 < s.length() && s.charAt(i + 1) == '[') {
        int consumed = link(s, i, out);
        if (consumed > 0) {
          i += consumed;
          continue;
        }
      }
      if (c == '<') {
        int close = s.indexOf('>', i);
        if (close > 0 && s.substring(i + 1, close).matches("(https?|mailto|ftp):[^\\s<>]+|[^\\s<>@]+@[^\\s<>@]+")) {
          out.append(theme.link(s.substring(i + 1, close)));
          i = close + 1;
          continue;
        }
      }
      out.append(c);
      i++;
    }
    return out.toString();
  }

  /** Renders {@code [text](url)} or {@code ![alt](url)} at {@code i}; returns the characters used, 0 if none. */
  private int link(String s, int i, StringBuilder out) {
    boolean image = s.charAt(i) == '!';
    int open = image ? i + 1 : i;
    int depth = 0;
    int closeText = -1;
    for (int j = open; j < s.length(); j++) {
      char c = s.charAt(j);
      if (c == '\\') {
        j++;
      } else if (c == '[') {
        depth++;
      } else if (c == ']' && --depth == 0) {
        closeText = j;
        break;
      }
    }
    if (closeText < 0 || closeText + 1 >= s.length() || s.charAt(closeText + 1) != '(') {
      return 0;
    }
    int closeUrl = s.indexOf(')', closeText + 2);
    if (closeUrl < 0) {
      return 0;
    }
    String text = s.substring(open + 1, closeText);
    String url = s.substring(closeText + 2, closeUrl).strip();
    int space = url.indexOf(' ');
    if (space > 0) {
      url = url.substring(0, space);
    }
    if (image) {
      out.append(theme.dim("[image: " + text + "]")).append(url.isEmpty() ? "" : " " + theme.dim("(" + url + ")"));
    } else if (text.equals(url) || url.isEmpty()) {
      out.append(theme.link(inline(text)));
    } else {
      out.append(theme.link(inline(text))).append(' ').append(theme.dim("(" + url + ")"));
    }
    return closeUrl + 1 - i;
  }

  /** Index of a closing delimiter after {@code from} that can close (not preceded by whitespace), or -1. */
  private static int closing(String s, int from, String delim) {
    int j = from;
    while (true) {
      int close = s.indexOf(delim, j);
      if (close < 0) {
        return -1;
      }
      if (close > from && !Character.isWhitespace(s.charAt(close - 1)) && s.charAt(close - 1) != '\\') {
        if (delim.length() == 1 && close + 1 < s.length() && s.charAt(close + 1) == delim.charAt(0)) {
          j = close + 2;
          continue;
        }
        return close;
      }
      j = close + delim.length();
    }
  }

  /** Whether a run of {@code length} delimiters at {@code i} can open emphasis: followed by non-space, and for _ at a word start. */
  private static boolean opens(String s, int i, int length, char c) {
    int after = i + length;
    if (after >= s.length() || Character.isWhitespace(s.charAt(after))) {
      return false;
    }
    return c != '_' || i == 0 || !Highlighter.isIdentPart(s.charAt(i - 1));
  }

  private static int run(String s, int i, char c) {
    int j = i;
    while (j < s.length() && s.charAt(j) == c) {
      j++;
    }
    return j - i;
  }

  private static boolean isPunctuation(char c) {
    return "\\`*_{}[]()#+-.!|~<>\"'".indexOf(c) >= 0;
  }
}
