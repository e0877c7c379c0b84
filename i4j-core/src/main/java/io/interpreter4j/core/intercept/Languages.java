package io.interpreter4j.core.intercept;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Maps the first word of a fence's info string to a language. Aliases collapse to one canonical name
 * ("py" -> "python"); tags that are data or output ("text", "json", "console", ...) are not runnable.
 * Unknown tags stay runnable under their own name so the session can tell the model which languages exist.
 */
public final class Languages {
  public static final String PYTHON = "python";
  public static final String BASH = "bash";
  public static final String JAVASCRIPT = "javascript";
  public static final String POWERSHELL = "powershell";
  public static final String R = "r";
  public static final String RUBY = "ruby";
  public static final String JAVA = "java";
  public static final String APPLESCRIPT = "applescript";
  public static final String HTML = "html";

  private static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("python", PYTHON), Map.entry("py", PYTHON), Map.entry("python3", PYTHON),
      Map.entry("bash", BASH), Map.entry("sh", BASH), Map.entry("shell", BASH), Map.entry("zsh", BASH),
      Map.entry("javascript", JAVASCRIPT), Map.entry("js", JAVASCRIPT), Map.entry("node", JAVASCRIPT),
      Map.entry("nodejs", JAVASCRIPT),
      Map.entry("powershell", POWERSHELL), Map.entry("pwsh", POWERSHELL), Map.entry("ps1", POWERSHELL),
      Map.entry("r", R),
      Map.entry("ruby", RUBY), Map.entry("rb", RUBY),
      Map.entry("java", JAVA), Map.entry("jshell", JAVA),
      Map.entry("applescript", APPLESCRIPT), Map.entry("osascript", APPLESCRIPT),
      Map.entry("html", HTML), Map.entry("htm", HTML));

  private static final Set<String> NOT_RUNNABLE = Set.of(
      "text", "txt", "plaintext", "plain", "output", "console", "terminal", "stdout", "stderr", "log",
      "json", "jsonl", "yaml", "yml", "toml", "ini", "xml", "csv", "tsv", "markdown", "md", "diff", "patch",
      "pycon", "shell-session", "sh-session", "mermaid", "sql-result", "example");

  private Languages() {}

  /** The first word of an info string, lower-cased; "" for none. {@code python title="x.py"} gives "python". */
  public static String tagOf(String info) {
    String trimmed = info.strip();
    int end = 0;
    while (end < trimmed.length() && !Character.isWhitespace(trimmed.charAt(end)) && trimmed.charAt(end) != '{') {
      end++;
    }
    return trimmed.substring(0, end).toLowerCase(Locale.ROOT);
  }

  /** Canonical language for a tag; an empty tag gives {@code defaultLanguage}. */
  public static String normalize(String tag, String defaultLanguage) {
    String t = tag.toLowerCase(Locale.ROOT);
    if (t.isEmpty()) {
      return defaultLanguage;
    }
    return ALIASES.getOrDefault(t, t);
  }

  /** Whether a tag names code to run rather than data or output shown to the user. */
  public static boolean isRunnable(String tag) {
    return !NOT_RUNNABLE.contains(tag.toLowerCase(Locale.ROOT));
  }
}
