package io.interpreter4j.core.safety;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces secrets with {@code [REDACTED]} in text that leaves the machine or is stored (model context, logs,
 * events): the values of known secrets (such as environment variables named like {@code *_API_KEY}) and
 * well-known token formats (OpenAI, Anthropic, AWS, GitHub, Slack, Google, Stripe, JWTs, Bearer tokens, PEM
 * private keys). Immutable and thread-safe; one pass over the text for the patterns plus one search per value.
 */
public final class SecretRedactor {

  public static final String REDACTED = "[REDACTED]";

  /** Shorter values would redact ordinary words and numbers ("true", "8080"). */
  public static final int MIN_SECRET_LENGTH = 6;

  private static final List<String> SECRET_NAME_PARTS = List.of(
      "KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE");

  /**
   * A token format: a literal prefix found with {@code indexOf} (fast on large text), whether a dash before it
   * makes it part of a longer word (so "task-" is not an OpenAI key), and a pattern anchored at the prefix. The quantifiers
   * are possessive, so a match attempt is linear: no backtracking blow-up on hostile output.
   *
   * @param keep how many characters of the match stay visible ("Bearer " keeps the scheme)
   */
  private record TokenFormat(String prefix, boolean dashIsWord, Pattern pattern, int keep) {}

  private static final boolean WORD = false;
  private static final boolean WORD_OR_DASH = true;
  private static final List<TokenFormat> FORMATS = formats();

  private static List<TokenFormat> formats() {
    List<TokenFormat> f = new ArrayList<>();
    f.add(format("sk-", WORD_OR_DASH, "sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}+", 0));
    for (String p : List.of("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA")) {
      f.add(format(p, WORD, p + "[0-9A-Z]{16}(?![0-9A-Za-z])", 0));
    }
    for (String p : List.of("ghp_", "gho_", "ghu_", "ghs_", "ghr_")) {
      f.add(format(p, WORD, p + "[A-Za-z0-9]{30,}+", 0));
    }
    f.add(format("github_pat_", WORD, "github_pat_[A-Za-z0-9_]{20,}+", 0));
    f.add(format("xox", WORD, "xox[baprse]-[A-Za-z0-9-]{10,}+", 0));
    f.add(format("AIza", WORD, "AIza[0-9A-Za-z_-]{35}", 0));
    for (String p : List.of("sk_live_", "sk_test_", "rk_live_", "rk_test_")) {
      f.add(format(p, WORD, p + "[0-9A-Za-z]{16,}+", 0));
    }
    f.add(format("eyJ", WORD_OR_DASH, "eyJ[A-Za-z0-9_-]{10,}+\\.eyJ[A-Za-z0-9_-]{10,}+\\.[A-Za-z0-9_-]{10,}+", 0));
    for (String p : List.of("Bearer", "bearer", "BEARER")) {
      f.add(format(p, WORD, p + "[ \\t]{1,8}+[A-Za-z0-9._~+/-]{12,}+=*+", -1));
    }
    for (String p : List.of("aws_secret_access_key", "AWS_SECRET_ACCESS_KEY")) {
      f.add(format(p, WORD, p + "[ \\t]{0,4}+[=:][ \\t]{0,4}+[\"']?+[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])", -1));
    }
    return List.copyOf(f);
  }

  /** keep -1: keep everything up to the start of the secret itself (the scheme or the assignment). */
  private static TokenFormat format(String prefix, boolean dashIsWord, String regex, int keep) {
    return new TokenFormat(prefix, dashIsWord, Pattern.compile(regex), keep);
  }

  private static final String PEM_BEGIN = "-----BEGIN ";
  private static final String PEM_END = "-----END ";

  private final List<String> values;

  private SecretRedactor(List<String> values) {
    // longest first, so a secret containing another is replaced whole
    List<String> sorted = new ArrayList<>(values);
    sorted.sort((a, b) -> Integer.compare(b.length(), a.length()));
    this.values = List.copyOf(sorted);
  }

  /** Redacts the given secret values (those shorter than {@value #MIN_SECRET_LENGTH} are ignored) and the token formats. */
  public static SecretRedactor of(Collection<String> secrets) {
    List<String> kept = new ArrayList<>();
    if (secrets != null) {
      for (String s : secrets) {
        if (s != null && s.strip().length() >= MIN_SECRET_LENGTH && !kept.contains(s.strip())) {
          kept.add(s.strip());
        }
      }
    }
    return new SecretRedactor(kept);
  }

  /** This process's redactor: {@link #fromEnvironment} of its environment, made once. */
  public static SecretRedactor ofThisProcess() {
    return ThisProcess.REDACTOR;
  }

  /** Holds the redactor of this process, made when first asked for. */
  private static final class ThisProcess {
    static final SecretRedactor REDACTOR = fromEnvironment(System.getenv());
  }

  /** Only the token formats. */
  public static SecretRedactor patternsOnly() {
    return new SecretRedactor(List.of());
  }

  /** The values of variables whose names contain KEY, TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL or PRIVATE. */
  public static SecretRedactor fromEnvironment(Map<String, String> env) {
    List<String> secrets = new ArrayList<>();
    if (env != null) {
      env.forEach((name, value) -> {
        if (isSecretName(name)) {
          secrets.add(value);
        }
      });
    }
    return of(secrets);
  }

  /** Whether an environment variable's name says it holds a secret ({@code OPENAI_API_KEY}, {@code DB_PASSWORD}). */
  public static boolean isSecretName(String name) {
    if (name == null) {
      return false;
    }
    String upper = name.toUpperCase(Locale.ROOT);
    for (String part : SECRET_NAME_PARTS) {
      if (upper.contains(part)) {
        return true;
      }
    }
    return false;
  }

  /** How many secret values are known (besides the patterns). */
  public int knownValues() {
    return values.size();
  }

  public String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    // spans to replace, as [start, end) pairs; merged at the end
    List<int[]> spans = new ArrayList<>();
    for (String v : values) {
      int from = 0;
      int at;
      while ((at = text.indexOf(v, from)) >= 0) {
        spans.add(new int[] {at, at + v.length()});
        from = at + v.length();
      }
    }
    for (TokenFormat f : FORMATS) {
      tokens(text, f, spans);
    }
    privateKeys(text, spans);
    if (spans.isEmpty()) {
      return text;
    }
    spans.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(b[1], a[1]));
    StringBuilder out = new StringBuilder(text.length());
    int pos = 0;
    for (int[] s : spans) {
      if (s[1] <= pos) {
        continue;
      }
      int start = Math.max(s[0], pos);
      out.append(text, pos, start).append(REDACTED);
      pos = s[1];
    }
    out.append(text, pos, text.length());
    return out.toString();
  }

  private static void tokens(String text, TokenFormat f, List<int[]> spans) {
    Matcher m = null;
    int from = 0;
    int at;
    while ((at = text.indexOf(f.prefix(), from)) >= 0) {
      from = at + 1;
      if (at > 0 && isWordChar(text.charAt(at - 1), f.dashIsWord())) {
        continue;
      }
      if (m == null) {
        m = f.pattern().matcher(text);
      }
      m.region(at, text.length());
      if (m.lookingAt()) {
        int start = f.keep() < 0 ? secretStart(text, at + f.prefix().length(), m.end()) : at + f.keep();
        spans.add(new int[] {start, m.end()});
        from = m.end();
      }
    }
  }

  /** After "Bearer" or "aws_secret_access_key =": skip the spaces, separator and quote that precede the secret. */
  private static int secretStart(String text, int from, int end) {
    int i = from;
    while (i < end && " \t=:\"'".indexOf(text.charAt(i)) >= 0) {
      i++;
    }
    return i;
  }

  /** A token glued to a preceding word character is part of a longer word ("task-", "mask_live_"). */
  private static boolean isWordChar(char c, boolean dashIsWord) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'
        || (dashIsWord && c == '-');
  }

  /** PEM private key blocks, BEGIN line to END line; a block cut off by truncation is redacted to the end. */
  private static void privateKeys(String text, List<int[]> spans) {
    int from = 0;
    int begin;
    while ((begin = text.indexOf(PEM_BEGIN, from)) >= 0) {
      int headerEnd = text.indexOf("-----", begin + PEM_BEGIN.length());
      if (headerEnd < 0) {
        return;
      }
      String label = text.substring(begin + PEM_BEGIN.length(), headerEnd);
      if (!label.endsWith("PRIVATE KEY") || label.length() > 40) {
        from = headerEnd;
        continue;
      }
      int end = text.indexOf(PEM_END + label + "-----", headerEnd);
      int stop = end < 0 ? text.length() : end + PEM_END.length() + label.length() + 5;
      spans.add(new int[] {begin, stop});
      from = stop;
    }
  }
}
