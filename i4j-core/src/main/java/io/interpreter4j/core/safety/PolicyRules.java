package io.interpreter4j.core.safety;

import com.typesafe.config.Config;
import io.interpreter4j.core.intercept.Languages;
import io.interpreter4j.core.safety.analysis.AnalysisContext;
import io.interpreter4j.core.safety.shell.ShellCommands;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The user's approval rules ({@code interpreter4j.approval.rules { deny = [...], ask = [...], allow = [...] }}):
 * patterns {@code language:glob} matched against each command of a block. Deny is checked first, then ask, then
 * allow; the first matching rule of a list wins. A block is allowed only if every one of its commands is.
 *
 * <p>In a glob, {@code *} matches any characters (spaces and slashes too), {@code ?} one character, and a
 * backslash makes the next character literal. The language part is a language name ("bash", "python"; aliases
 * such as "sh" count as "bash") or {@code *} for any.
 */
public final class PolicyRules {

  /** Where the rules live in the configuration. */
  public static final String CONFIG_PATH = "interpreter4j.approval.rules";

  private static final Pattern LANGUAGE = Pattern.compile("\\*|[A-Za-z0-9_+#.-]+");
  private static final int STAR = -1;
  private static final int ANY_CHAR = -2;
  /** Only the string evaluation of the python analyzer is needed here; paths are never judged. */
  private static final AnalysisContext NEUTRAL = AnalysisContext.of(Path.of("/"), Path.of("/"));
  private static final PolicyRules NONE = new PolicyRules(List.of(), List.of(), List.of());

  /** One rule: the pattern as configured, its language ("*" for any) and its compiled glob. */
  private record Rule(String pattern, String language, int[] glob) {

    boolean matches(String lang, String command) {
      return (language.equals("*") || language.equals(lang)) && globMatches(glob, command);
    }
  }

  /** A command to check: its language, its text, and for deny/ask also its form without sudo, env, nohup... */
  private record Candidate(String language, String text, String core) {}

  private final List<Rule> deny;
  private final List<Rule> ask;
  private final List<Rule> allow;

  private PolicyRules(List<Rule> deny, List<Rule> ask, List<Rule> allow) {
    this.deny = deny;
    this.ask = ask;
    this.allow = allow;
  }

  /**
   * Compiles the three lists (null means empty).
   *
   * @throws IllegalArgumentException naming the first pattern that is not of the form {@code language:glob}
   */
  public static PolicyRules of(List<String> deny, List<String> ask, List<String> allow) {
    return new PolicyRules(compile(deny), compile(ask), compile(allow));
  }

  /** No rules: every block gets NONE. */
  public static PolicyRules none() {
    return NONE;
  }

  /** Reads {@value #CONFIG_PATH}; a missing section or list means no rules of that kind. */
  public static PolicyRules fromConfig(Config config) {
    if (!config.hasPath(CONFIG_PATH)) {
      return NONE;
    }
    Config rules = config.getConfig(CONFIG_PATH);
    return of(list(rules, "deny"), list(rules, "ask"), list(rules, "allow"));
  }

  private static List<String> list(Config rules, String key) {
    return rules.hasPath(key) ? rules.getStringList(key) : List.of();
  }

  public boolean isEmpty() {
    return deny.isEmpty() && ask.isEmpty() && allow.isEmpty();
  }

  /**
   * Checks every command of the block: DENY if any matches a deny rule, else ASK if any matches an ask rule,
   * else ALLOW if each matches an allow rule, else NONE.
   */
  public PolicyDecision evaluate(String language, String code) {
    if (isEmpty() || code == null || code.isBlank()) {
      return PolicyDecision.none();
    }
    List<Candidate> commands = commands(normalise(language), code);
    if (commands.isEmpty()) {
      return PolicyDecision.none();
    }
    for (Candidate c : commands) {
      Rule r = first(deny, c, true);
      if (r != null) {
        return new PolicyDecision(PolicyDecision.Verdict.DENY, r.pattern(), c.text());
      }
    }
    for (Candidate c : commands) {
      Rule r = first(ask, c, true);
      if (r != null) {
        return new PolicyDecision(PolicyDecision.Verdict.ASK, r.pattern(), c.text());
      }
    }
    Set<String> used = new LinkedHashSet<>();
    for (Candidate c : commands) {
      // allow rules see the command as written: "bash:ls*" must not allow "sudo ls"
      Rule r = first(allow, c, false);
      if (r == null) {
        return new PolicyDecision(PolicyDecision.Verdict.NONE, null, c.text());
      }
      used.add(r.pattern());
    }
    return new PolicyDecision(PolicyDecision.Verdict.ALLOW, String.join(", ", used), code.strip());
  }

  private static Rule first(List<Rule> rules, Candidate c, boolean alsoCore) {
    for (Rule r : rules) {
      if (r.matches(c.language(), c.text()) || (alsoCore && r.matches(c.language(), c.core()))) {
        return r;
      }
    }
    return null;
  }

  /** bash: each command (nested ones too); python: the whole block plus its literal shell-outs; others: the block. */
  private static List<Candidate> commands(String language, String code) {
    List<Candidate> out = new ArrayList<>();
    if (language.equals(Languages.BASH)) {
      addShell(code, out);
    } else if (language.equals(Languages.PYTHON)) {
      String block = code.strip();
      out.add(new Candidate(language, block, block));
      for (String shell : DangerAnalyzer.pythonShellCommands(code, NEUTRAL, true)) {
        addShell(shell, out);
      }
    } else {
      String block = code.strip();
      out.add(new Candidate(language, block, block));
    }
    return out;
  }

  private static void addShell(String code, List<Candidate> out) {
    for (ShellCommands.ShellCommand c : ShellCommands.split(code)) {
      out.add(new Candidate(Languages.BASH, c.text(), c.core()));
    }
  }

  private static String normalise(String language) {
    String tag = language == null ? "" : language.strip().toLowerCase(Locale.ROOT);
    return Languages.normalize(tag, tag);
  }

  private static List<Rule> compile(List<String> patterns) {
    if (patterns == null) {
      return List.of();
    }
    List<Rule> out = new ArrayList<>(patterns.size());
    for (String p : patterns) {
      out.add(compile(p));
    }
    return List.copyOf(out);
  }

  private static Rule compile(String pattern) {
    if (pattern == null) {
      throw invalid("null");
    }
    int colon = pattern.indexOf(':');
    if (colon <= 0 || colon == pattern.length() - 1) {
      throw invalid(pattern);
    }
    String language = pattern.substring(0, colon).strip();
    String glob = pattern.substring(colon + 1).strip();
    if (!LANGUAGE.matcher(language).matches() || glob.isEmpty()) {
      throw invalid(pattern);
    }
    String lang = language.equals("*") ? "*" : normalise(language);
    return new Rule(pattern, lang, compileGlob(ShellCommands.collapse(glob)));
  }

  private static IllegalArgumentException invalid(String pattern) {
    return new IllegalArgumentException("invalid approval rule \"" + pattern
        + "\": expected the form language:glob, e.g. \"bash:git push*\" or \"python:*\"");
  }

  private static int[] compileGlob(String glob) {
    int[] out = new int[glob.length()];
    int n = 0;
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == '\\' && i + 1 < glob.length()) {
        out[n++] = glob.charAt(++i);
      } else if (c == '*') {
        if (n == 0 || out[n - 1] != STAR) {
          out[n++] = STAR;
        }
      } else if (c == '?') {
        out[n++] = ANY_CHAR;
      } else {
        out[n++] = c;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /** Wildcard matching without regular expressions: linear in practice, never exponential. */
  static boolean globMatches(int[] glob, String text) {
    int s = 0;
    int p = 0;
    int starP = -1;
    int starS = 0;
    int n = text.length();
    while (s < n) {
      if (p < glob.length && glob[p] != STAR && (glob[p] == ANY_CHAR || glob[p] == text.charAt(s))) {
        s++;
        p++;
      } else if (p < glob.length && glob[p] == STAR) {
        starP = p++;
        starS = s;
      } else if (starP >= 0) {
        p = starP + 1;
        s = ++starS;
      } else {
        return false;
      }
    }
    while (p < glob.length && glob[p] == STAR) {
      p++;
    }
    return p == glob.length;
  }
}
