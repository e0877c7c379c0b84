package io.interpreter4j.runtime.repl;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text a reader sees in an HTML page: no tags, scripts or styles; block elements on their own lines; entities
 * decoded. Pure logic; its {@link #main} is the last stage of the {@code html} language's per-block pipeline
 * (headless browser {@code --dump-dom} piped into it), so it must depend on nothing but the JDK.
 */
public final class HtmlText {

  private static final Pattern INVISIBLE = Pattern.compile(
      "(?is)<!--.*?-->|<(script|style|noscript|template|svg|head)\\b.*?</\\1\\s*>|<!doctype[^>]*>");
  private static final Pattern TITLE = Pattern.compile("(?is)<title\\b[^>]*>(.*?)</title\\s*>");
  private static final Pattern BREAKS = Pattern.compile(
      "(?i)<(br|hr)\\b[^>]*>|</?(p|div|section|article|header|footer|main|nav|aside|h[1-6]|ul|ol|li|dl|dt|dd|table"
          + "|thead|tbody|tr|pre|blockquote|form|fieldset|figure|figcaption|details|summary)\\b[^>]*>");
  private static final Pattern CELL = Pattern.compile("(?i)</t[dh]\\s*>");
  private static final Pattern ITEM = Pattern.compile("(?i)<li\\b[^>]*>");
  private static final Pattern TAG = Pattern.compile("<[^>]*>");
  private static final Pattern ENTITY = Pattern.compile("&(#\\d+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);");
  private static final Map<String, String> NAMED = Map.ofEntries(
      Map.entry("amp", "&"), Map.entry("lt", "<"), Map.entry("gt", ">"), Map.entry("quot", "\""),
      Map.entry("apos", "'"), Map.entry("nbsp", " "), Map.entry("copy", "\u00a9"), Map.entry("reg", "\u00ae"),
      Map.entry("mdash", "\u2014"), Map.entry("ndash", "\u2013"), Map.entry("hellip", "\u2026"),
      Map.entry("laquo", "\u00ab"), Map.entry("raquo", "\u00bb"), Map.entry("euro", "\u20ac"),
      Map.entry("times", "\u00d7"), Map.entry("middot", "\u00b7"), Map.entry("bull", "\u2022"));

  private HtmlText() {}

  /** The page's title and visible text, one block element per line, without blank lines. */
  public static String of(String html) {
    Matcher title = TITLE.matcher(html);
    String heading = title.find() ? decode(TAG.matcher(title.group(1)).replaceAll("")).strip() : "";
    String text = INVISIBLE.matcher(html).replaceAll(" ");
    text = ITEM.matcher(text).replaceAll("\n- ");
    text = CELL.matcher(text).replaceAll("\t");
    text = BREAKS.matcher(text).replaceAll("\n");
    text = decode(TAG.matcher(text).replaceAll(""));
    StringBuilder out = new StringBuilder();
    if (!heading.isEmpty()) {
      out.append("Title: ").append(heading).append("\n\n");
    }
    for (String line : text.split("\n")) {
      String squeezed = line.replaceAll("[ \\t\\u00a0\\r\\f]+", " ").strip();
      if (!squeezed.isEmpty()) {
        out.append(squeezed).append('\n'); // no blank lines: every line the model reads is content
      }
    }
    return out.toString().strip() + "\n";
  }

  static String decode(String text) {
    Matcher m = ENTITY.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value;
      if (name.startsWith("#x") || name.startsWith("#X")) {
        value = codePoint(name.substring(2), 16, m.group());
      } else if (name.startsWith("#")) {
        value = codePoint(name.substring(1), 10, m.group());
      } else {
        value = NAMED.getOrDefault(name.toLowerCase(Locale.ROOT), m.group());
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String codePoint(String digits, int radix, String original) {
    try {
      int cp = Integer.parseInt(digits, radix);
      return Character.isValidCodePoint(cp) ? new String(Character.toChars(cp)) : original;
    } catch (NumberFormatException e) {
      return original;
    }
  }

  /**
   * {@code HtmlText <page file> <browser name>}: reads the DOM the browser dumped from stdin and prints where the
   * page was saved and its text.
   */
  public static void main(String[] args) throws IOException {
    String dom = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println("Saved the page to " + args[0] + " (HTML is not executed).");
    if (dom.isBlank()) {
      out.println("The headless browser (" + args[1] + ") rendered nothing.");
      return;
    }
    out.println("Its text as rendered by a headless browser (" + args[1] + "):");
    out.println();
    out.print(of(dom));
    out.flush();
  }
}
