package io.interpreter4j.core.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Secrets are redacted however the text is cut into pieces; text without secrets passes unchanged. */
class StreamRedactorTest {
  private static final String VALUE = "hunter2-correct-horse-battery";
  private static final String KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0".repeat(2);

  private static String through(StreamRedactor r, List<String> pieces) {
    StringBuilder out = new StringBuilder();
    pieces.forEach(p -> out.append(r.feed(p)));
    return out.append(r.finish()).toString();
  }

  /** {@code text} cut at random places (the same seed every run). */
  private static List<String> randomPieces(String text, int seed) {
    Random random = new Random(seed);
    List<String> pieces = new java.util.ArrayList<>();
    int at = 0;
    while (at < text.length()) {
      int next = Math.min(text.length(), at + 1 + random.nextInt(40));
      pieces.add(text.substring(at, next));
      at = next;
    }
    return pieces;
  }

  @Test
  void aSecretCutInTwoByAPieceBoundaryIsStillRedacted() {
    StreamRedactor r = new StreamRedactor(SecretRedactor.of(List.of(VALUE)));
    String out = through(r, List.of("password is hunter2-corr", "ect-horse-battery\nkey ", KEY.substring(0, 10),
        KEY.substring(10) + "\n", "done"));
    assertFalse(out.contains("hunter2") || out.contains("battery") || out.contains(KEY.substring(10)), out);
    assertEquals("password is [REDACTED]\nkey [REDACTED]\ndone", out);
  }

  @Test
  void textWithoutSecretsPassesUnchangedHoweverItIsCut() {
    String text = "line one\nline two, with commas; and = signs\n\n" + "x".repeat(200_000) + " tail\nend";
    for (int seed = 0; seed < 5; seed++) {
      assertEquals(text, through(new StreamRedactor(SecretRedactor.patternsOnly()), randomPieces(text, seed)));
    }
  }

  @Test
  void completeLinesPassAtOnceAndTheUnfinishedLineWaits() {
    StreamRedactor r = new StreamRedactor(SecretRedactor.patternsOnly());
    assertEquals("first\n", r.feed("first\nsec"));
    assertEquals("", r.feed("ond"));
    assertEquals("second\n", r.feed("\n"));
    assertEquals("", r.finish());
  }

  @Test
  void aPrivateKeyInManyPiecesIsRedactedWhole() {
    String key = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n".repeat(30)
        + "-----END OPENSSH PRIVATE KEY-----\n";
    String text = "before\n" + key + "after\n";
    for (int seed = 0; seed < 5; seed++) {
      String out = through(new StreamRedactor(SecretRedactor.patternsOnly()), randomPieces(text, seed));
      assertEquals("before\n[REDACTED]\nafter\n", out);
    }
  }

  @Test
  void theRestOfAnOverlongPrivateKeyIsDroppedUntilItsEnd() {
    String body = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo\n".repeat(StreamRedactor.MAX_KEY / 30);
    StreamRedactor r = new StreamRedactor(SecretRedactor.patternsOnly());
    String out = through(r, List.of("-----BEGIN RSA PRIVATE KEY-----\n", body, body,
        "-----END RSA PRIVATE KEY-----\nafter\n"));
    assertFalse(out.contains("QUJD"), "no part of the key: " + out.length() + " chars");
    assertTrue(out.startsWith("[REDACTED]") && out.endsWith("after\n"), out.substring(0, Math.min(80, out.length())));
  }

  @Test
  void anEndlessLineIsCutBetweenTokensNeverInOne() {
    String line = ("word " + KEY + " Authorization: Bearer " + "abcdefghijklmnop1234567890 ").repeat(5_000);
    for (int seed = 0; seed < 3; seed++) {
      String out = through(new StreamRedactor(SecretRedactor.patternsOnly()), randomPieces(line, seed));
      assertFalse(out.contains("sk-proj") || out.contains("abcdefghijklmnop"), "a token leaked");
      assertEquals(5_000 * 2, out.split("\\[REDACTED]", -1).length - 1);
    }
  }
}
