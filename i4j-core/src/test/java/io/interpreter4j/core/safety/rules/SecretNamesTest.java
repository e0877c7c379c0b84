package io.interpreter4j.core.safety.rules;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SecretNamesTest {

  @Test
  void namesThatHoldSecrets() {
    for (String n : List.of("GITHUB_TOKEN", "NPM_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "PGPASSWORD", "API_KEY",
        "OPENAI_API_KEY", "STRIPE_SECRET", "CRM_PW", "SLACK_WEBHOOK_URL", "GH_PAT")) {
      assertTrue(SecretNames.isSecret(n), n);
    }
  }

  @Test
  void namesThatDoNot() {
    for (String n : List.of("HOME", "PATH", "PWD", "USER", "PORT", "NODE_ENV", "RAILS_ENV", "KEYTIMEOUT", "LANG",
        "SSH_AUTH_SOCK", "I4J_SESSION")) {
      assertFalse(SecretNames.isSecret(n), n);
    }
  }
}
