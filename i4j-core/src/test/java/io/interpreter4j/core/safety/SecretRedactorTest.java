package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Known values, token formats, private keys, ordinary text left alone, and large or hostile input. */
class SecretRedactorTest {

  private final SecretRedactor patterns = SecretRedactor.patternsOnly();

  @Test
  void redactsValuesOfSecretLookingEnvironmentVariables() {
    SecretRedactor r = SecretRedactor.fromEnvironment(Map.of(
        "OPENAI_API_KEY", "abc123secretvalue",
        "GITHUB_TOKEN", "tok-9876543210",
        "DB_PASSWORD", "hunter22",
        "MY_SECRET", "s3cr3t-thing",
        "PATH", "/usr/bin:/bin",
        "EDITOR", "vim-is-great",
        "SHORT_KEY", "abc"));
    assertEquals(4, r.knownValues(), "PATH and EDITOR are not secrets; 'abc' is too short");
    String out = r.redact("key=abc123secretvalue token tok-9876543210 pw:hunter22 s3cr3t-thing editor vim-is-great abc");
    assertEquals("key=[REDACTED] token [REDACTED] pw:[REDACTED] [REDACTED] editor vim-is-great abc", out);
  }

  @Test
  void secretNames() {
    for (String name : List.of("OPENAI_API_KEY", "aws_secret_access_key", "GH_TOKEN", "PGPASSWORD", "SSH_PASSPHRASE",
        "GOOGLE_APPLICATION_CREDENTIALS", "PRIVATE_KEY")) {
      assertTrue(SecretRedactor.isSecretName(name), name);
    }
    for (String name : List.of("PATH", "HOME", "USER", "SHELL", "LANG", "TERM")) {
      assertFalse(SecretRedactor.isSecretName(name), name);
    }
  }

  @Test
  void longerSecretsWinOverTheirPrefixes() {
    SecretRedactor r = SecretRedactor.of(List.of("abcdef", "abcdefghij"));
    assertEquals("x [REDACTED] y", r.redact("x abcdefghij y"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd",
      "sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdEFGHIJKLmn",
      "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abc",
      "AKIAIOSFODNN7EXAMPLE",
      "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
      "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
      "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
      "AIzaSyA-1234567890abcdefghijklmnopqrstu",
      "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  })
  void redactsKnownTokenFormats(String token) {
    assertEquals("export X=" + SecretRedactor.REDACTED + " # set", patterns.redact("export X=" + token + " # set"));
    assertEquals("\"" + SecretRedactor.REDACTED + "\"", patterns.redact("\"" + token + "\""));
  }

  @Test
  void bearerKeepsTheScheme() {
    assertEquals("Authorization: Bearer [REDACTED]",
        patterns.redact("Authorization: Bearer abc.DEF-ghi_jkl~mno+pqr/stu=="));
    assertEquals("authorization: bearer [REDACTED]", patterns.redact("authorization: bearer 0123456789abcdef"));
  }

  @Test
  void awsSecretAccessKeyAssignment() {
    assertEquals("aws_secret_access_key = [REDACTED]",
        patterns.redact("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"));
  }

  @Test
  void privateKeyBlocks() {
    String pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
        + "-----END OPENSSH PRIVATE KEY-----";
    assertEquals("key:\n[REDACTED]\ndone", patterns.redact("key:\n" + pem + "\ndone"));
    String rsa = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
    assertEquals("[REDACTED]", patterns.redact(rsa));
    assertEquals("start [REDACTED]", patterns.redact("start -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B (cut"),
        "a truncated block is redacted to the end");
    String cert = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
    assertEquals(cert, patterns.redact(cert), "certificates are public");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "a task-oriented risk-free disk-based approach",
      "AKIA is a prefix; AKIA123 is too short",
      "the Bearer token scheme is described in RFC 6750",
      "sk-short",
      "ghp_tooShort",
      "git push origin main && ls -la ~/.ssh",
      "xoxb- alone",
  })
  void leavesOrdinaryTextAlone(String text) {
    assertEquals(text, patterns.redact(text));
  }

  @Test
  void largeOutputsAreRedactedCompletely() {
    SecretRedactor r = SecretRedactor.of(List.of("my-db-password-123"));
    StringBuilder sb = new StringBuilder();
    int lines = 100_000;
    for (int i = 0; i < lines; i++) {
      sb.append("line ").append(i).append(": some ordinary output, nothing to see here");
      if (i % 1000 == 0) {
        sb.append(" token=ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 pw=my-db-password-123");
      }
      sb.append('\n');
    }
    String text = sb.toString();
    long start = System.nanoTime();
    String out = r.redact(text);
    long micros = (System.nanoTime() - start) / 1000;
    System.out.printf("redacted %.1f MB in %d ms%n", text.length() / 1e6, micros / 1000);
    assertFalse(out.contains("ghp_"));
    assertFalse(out.contains("my-db-password-123"));
    assertEquals(2 * (lines / 1000), out.split("\\[REDACTED]", -1).length - 1);
  }

  @Test
  void hostileInputDoesNotBacktrack() {
    String hostile = "sk-" + "a-".repeat(50_000) + " Bearer " + "a".repeat(100_000) + "=".repeat(1000) + "!";
    String out = patterns.redact(hostile);
    assertEquals("[REDACTED] Bearer [REDACTED]!", out);
  }

  @Test
  void nullAndEmptyPassThrough() {
    assertEquals("", patterns.redact(""));
    assertEquals(null, patterns.redact(null));
  }
}
