package io.interpreter4j.core.safety.rules;

import java.util.Locale;
import java.util.Set;

/** Whether an environment variable's name says it holds a secret: {@code GITHUB_TOKEN}, {@code DB_PASSWORD}, {@code AWS_SECRET_ACCESS_KEY}. */
public final class SecretNames {

  private static final Set<String> SECRET_WORDS = Set.of(
      "TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PW", "APIKEY", "CREDENTIAL", "CREDENTIALS", "AUTH",
      "PAT", "PRIVATE", "COOKIE", "SIGNING", "DSN", "WEBHOOK");
  private static final Set<String> NOT_SECRET = Set.of(
      "PWD", "OLDPWD", "PATH", "HOME", "USER", "SHELL", "TERM", "LANG", "PASS_MAX_DAYS", "SSH_AUTH_SOCK", "KEYTIMEOUT",
      "TOKENIZERS_PARALLELISM", "GPG_TTY");

  private SecretNames() {}

  public static boolean isSecret(String name) {
    if (name == null || name.isEmpty() || NOT_SECRET.contains(name)) {
      return false;
    }
    String upper = name.toUpperCase(Locale.ROOT);
    String[] words = upper.split("[_\\-.]");
    for (int k = 0; k < words.length; k++) {
      String w = words[k];
      if (SECRET_WORDS.contains(w)) {
        return true;
      }
      if (w.equals("KEY") && k > 0) {
        return true;
      }
    }
    return upper.endsWith("TOKEN") || upper.endsWith("SECRET") || upper.endsWith("PASSWORD") || upper.endsWith("APIKEY");
  }
}
